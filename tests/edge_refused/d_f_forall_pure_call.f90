! radtap: -head fam.fa -vars "x" -outvars "y"
! A FORALL referencing a PURE function of the program with derivatives: the tangent called
! the impure g_d inside the FORALL (gfortran: "Reference to impure function"), vector mode a
! CALL statement. Refused in tangent modes (the adjoint writes it as a loop).
module fam
  implicit none
contains
  pure real(8) function g(a)
    real(8), intent(in) :: a
    g = a*exp(-a)
  end function g
  subroutine fa(n, x, y)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    real(8), intent(out) :: y(n)
    integer :: i
    forall (i = 1:n)
      y(i) = g(x(i))
    end forall
  end subroutine fa
end module fam
