! radtap: -head ndargs -vars "x" -outvars "z"
! sizes: n=4
! Derivative arguments that are not inputs of the derivative: w is read and
! written but is not an independent, so wd on entry must be ignored by the
! tangent; y is an active output that is not a dependent, so yb on entry must
! be ignored by the adjoint (the drivers fill both with a poison value).
subroutine ndargs(n, x, w, y, z)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(inout) :: w(n)
  real(8), intent(out) :: y(n)
  real(8), intent(out) :: z
  integer :: i
  do i = 1, n
    w(i) = w(i)*x(i) + 1.0d0
    y(i) = x(i)**2 + 0.5d0*w(i)
  end do
  z = sum(0.5d0*y) + sum(sin(w))
end subroutine ndargs
