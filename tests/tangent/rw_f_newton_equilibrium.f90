! radtap: -head equilibrium -vars "k1 k2 c0" -outvars "x"
! sizes:
! A chemical-equilibrium solve in the style of a reaction-engineering code: Newton's
! method on a 2x2 nonlinear system (two coupled reversible reactions), the Jacobian
! solved by Cramer's rule, a damped step, convergence tested with EXIT on the step
! norm and an iteration cap, the residual in a contained-free module function. The
! iterates converge quadratically, so the derivative of the converged root is reached
! to machine precision whatever the iteration count.
module eq_kinds
  use iso_fortran_env, only: real64
  implicit none
  integer, parameter :: wp = real64
  real(wp), parameter :: tol = 1.0e-13_wp
  integer, parameter :: maxit = 50
end module eq_kinds

module eq_system
  use eq_kinds, only: wp
  implicit none
contains
  subroutine residual(x, k1, k2, c0, f, jac)
    real(wp), intent(in) :: x(2), k1, k2, c0(3)
    real(wp), intent(out) :: f(2), jac(2,2)
    real(wp) :: a, b, c
    ! A + B <-> C (extent x1), C + B <-> D (extent x2)
    a = c0(1) - x(1)
    b = c0(2) - x(1) - x(2)
    c = c0(3) + x(1) - x(2)
    f(1) = k1*a*b - c
    f(2) = k2*c*b - x(2)
    jac(1,1) = -k1*b - k1*a - 1.0_wp
    jac(1,2) = -k1*a + 1.0_wp
    jac(2,1) = k2*b - k2*c
    jac(2,2) = -k2*b - k2*c - 1.0_wp
  end subroutine residual
end module eq_system

subroutine equilibrium(k1, k2, c0, x)
  use eq_kinds, only: wp, tol, maxit
  use eq_system, only: residual
  implicit none
  real(wp), intent(in) :: k1, k2, c0(3)
  real(wp), intent(out) :: x(2)
  real(wp) :: f(2), jac(2,2), det, dx(2), lam
  integer :: it
  x(1) = 0.1_wp*c0(1)
  x(2) = 0.05_wp*c0(2)
  lam = 0.7_wp
  do it = 1, maxit
    call residual(x, k1, k2, c0, f, jac)
    det = jac(1,1)*jac(2,2) - jac(1,2)*jac(2,1)
    dx(1) = -(f(1)*jac(2,2) - f(2)*jac(1,2))/det
    dx(2) = -(jac(1,1)*f(2) - jac(2,1)*f(1))/det
    x = x + lam*dx
    lam = min(1.0_wp, 1.5_wp*lam)
    if (sqrt(dx(1)**2 + dx(2)**2) < tol) exit
  end do
end subroutine equilibrium
