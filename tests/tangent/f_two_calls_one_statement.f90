! radtap: -head "blend(y)/(x)"
! sizes: n=3
! Two references in one expression to a function that advances a module state (a
! smoother's memory). The expression is one statement: the second call's entry saw the
! state as before the statement, passive, so its derivative restarted at zero (the tangent
! lost 0.5 * sd). The adjoint refuses such functions in expressions.
module smoother
  implicit none
  real(8) :: mem = 0d0
contains
  real(8) function smooth(v)
    real(8), intent(in) :: v
    mem = 0.5d0 * mem + v * v
    smooth = mem
  end function smooth
end module smoother

subroutine blend(n, x, y)
  use smoother
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y(n)
  mem = 0d0
  y(1) = smooth(x(1)) * smooth(x(2))
  y(n) = mem + x(n)
end subroutine blend
