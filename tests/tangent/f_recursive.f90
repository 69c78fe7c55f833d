! radtap: -head rec_top -vars "x" -outvars "y"
! sizes:
! A RECURSIVE module function called from the head: its tangent and adjoint
! call themselves, so they must be RECURSIVE too (the prefix was dropped and
! gfortran refused the output).
module rec_m
  implicit none
contains
  recursive function rpow(x, n) result(r)
    real(8), intent(in) :: x
    integer, intent(in) :: n
    real(8) :: r
    if (n <= 0) then
      r = 1.0d0
    else
      r = x * rpow(x, n - 1) + 0.1d0*sin(x)
    end if
  end function rpow

  subroutine rec_top(x, y)
    real(8), intent(in) :: x
    real(8), intent(out) :: y
    y = rpow(x, 3) + rpow(x*x, 2)
  end subroutine rec_top
end module rec_m
