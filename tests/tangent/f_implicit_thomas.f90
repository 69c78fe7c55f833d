! radtap: -head implicit_heat -vars "u0 alpha" -outvars "u"
! sizes: n=8 nsteps=5
! Backward-Euler heat equation with an explicit logistic source: each step
! builds a tridiagonal system and solves it with the Thomas algorithm in a
! callee using automatic arrays (forward sweep, back substitution loop).
subroutine thomas(n, a, b, c, d, x)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: a(n), b(n), c(n), d(n)
  real(8), intent(out) :: x(n)
  real(8) :: cp(n), dp(n), m
  integer :: i
  cp(1) = c(1)/b(1)
  dp(1) = d(1)/b(1)
  do i = 2, n
    m = b(i) - a(i)*cp(i - 1)
    cp(i) = c(i)/m
    dp(i) = (d(i) - a(i)*dp(i - 1))/m
  end do
  x(n) = dp(n)
  do i = n - 1, 1, -1
    x(i) = dp(i) - cp(i)*x(i + 1)
  end do
end subroutine thomas

subroutine implicit_heat(n, nsteps, u0, alpha, u)
  implicit none
  integer, intent(in) :: n, nsteps
  real(8), intent(in) :: u0(n), alpha
  real(8), intent(out) :: u(n)
  real(8) :: a(n), b(n), c(n), d(n), r
  integer :: k
  r = 0.5d0*alpha
  a = -r
  c = -r
  b = 1.0d0 + 2.0d0*r
  a(1) = 0.0d0
  c(n) = 0.0d0
  u = u0
  do k = 1, nsteps
    d = u + 0.1d0*u*(1.0d0 - 0.5d0*u)
    d(1) = d(1) + r*1.0d0
    d(n) = d(n) + r*0.5d0
    call thomas(n, a, b, c, d, u)
  end do
end subroutine implicit_heat
