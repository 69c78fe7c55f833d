! radtap: -head periodic_diffusion -vars "u0 kappa" -outvars "u"
! sizes: n=7 nsteps=3
! Implicit (backward Euler) diffusion on a periodic 1-D grid, the way a climate or
! plasma code writes it: the cyclic tridiagonal system is solved by the Sherman-Morrison
! correction around two Thomas solves (the netlib `cyclic` of Numerical Recipes), with
! explicit-shape work arrays, a diffusivity depending on the solution, and a Thomas
! routine whose right-hand side is overwritten in place.
module tridiag
  use iso_fortran_env, only: dp => real64
  implicit none
contains
  subroutine thomas(n, a, b, c, r, x)
    integer, intent(in) :: n
    real(dp), intent(in) :: a(n), b(n), c(n), r(n)
    real(dp), intent(out) :: x(n)
    real(dp) :: cp(n), dp_(n), m
    integer :: i
    cp(1) = c(1)/b(1)
    dp_(1) = r(1)/b(1)
    do i = 2, n
      m = b(i) - a(i)*cp(i-1)
      cp(i) = c(i)/m
      dp_(i) = (r(i) - a(i)*dp_(i-1))/m
    end do
    x(n) = dp_(n)
    do i = n - 1, 1, -1
      x(i) = dp_(i) - cp(i)*x(i+1)
    end do
  end subroutine thomas

  subroutine cyclic(n, a, b, c, alpha, beta, r, x)
    integer, intent(in) :: n
    real(dp), intent(in) :: a(n), b(n), c(n), alpha, beta, r(n)
    real(dp), intent(out) :: x(n)
    real(dp) :: bb(n), u(n), z(n), gamma, fact
    gamma = -b(1)
    bb = b
    bb(1) = b(1) - gamma
    bb(n) = b(n) - alpha*beta/gamma
    call thomas(n, a, bb, c, r, x)
    u = 0.0_dp
    u(1) = gamma
    u(n) = alpha
    call thomas(n, a, bb, c, u, z)
    fact = (x(1) + beta*x(n)/gamma)/(1.0_dp + z(1) + beta*z(n)/gamma)
    x = x - fact*z
  end subroutine cyclic
end module tridiag

subroutine periodic_diffusion(n, nsteps, u0, kappa, u)
  use iso_fortran_env, only: dp => real64
  use tridiag, only: cyclic
  implicit none
  integer, intent(in) :: n, nsteps
  real(dp), intent(in) :: u0(n), kappa
  real(dp), intent(out) :: u(n)
  real(dp) :: a(n), b(n), c(n), rhs(n), d, dt
  integer :: i, it
  dt = 0.05_dp
  u = u0
  do it = 1, nsteps
    do i = 1, n
      d = kappa*(1.0_dp + 0.1_dp*u(i)**2)*dt
      a(i) = -d
      c(i) = -d
      b(i) = 1.0_dp + 2.0_dp*d
    end do
    rhs = u
    call cyclic(n, a, b, c, a(1), c(n), rhs, u)
  end do
end subroutine periodic_diffusion
