! radtap: -head pure_top -vars "x" -outvars "y"
! sizes:
! A PURE function and a PURE subroutine with intent(out), called from the head.
module pure_m
  implicit none
contains
  pure function f(a, b) result(r)
    real(8), intent(in) :: a, b
    real(8) :: r
    r = a*exp(-b) + b*b
  end function f

  pure subroutine g(a, c)
    real(8), intent(in) :: a
    real(8), intent(out) :: c
    c = sin(a)*a
  end subroutine g

  subroutine pure_top(x, y)
    real(8), intent(in) :: x(2)
    real(8), intent(out) :: y
    real(8) :: c
    call g(x(1), c)
    y = f(x(1), x(2)) + c*f(x(2), c)
  end subroutine pure_top
end module pure_m
