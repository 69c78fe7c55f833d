! radtap: -head lm_iterate -vars "p" -outvars "pnew cost"
! sizes: m=8
! Levenberg-Marquardt steps of a curve-fitting code (MINPACK lmder in spirit): a
! Michaelis-Menten model with its analytic Jacobian in module procedures, the damped
! normal equations (J^T J + lambda diag(J^T J)) dp = -J^T r built with MATMUL and
! TRANSPOSE, solved by Cholesky on the 2x2 system, a fixed damping schedule and the
! final cost.
module mm_model
  use iso_fortran_env, only: wp => real64
  implicit none
  integer, parameter :: npar = 2
contains
  pure function model(p, s) result(v)
    real(wp), intent(in) :: p(npar), s
    real(wp) :: v
    v = p(1)*s/(p(2) + s)
  end function model

  subroutine residuals(p, s, obs, m, r, jac)
    integer, intent(in) :: m
    real(wp), intent(in) :: p(npar), s(m), obs(m)
    real(wp), intent(out) :: r(m), jac(m, npar)
    integer :: i
    do i = 1, m
      r(i) = model(p, s(i)) - obs(i)
      jac(i, 1) = s(i)/(p(2) + s(i))
      jac(i, 2) = -p(1)*s(i)/(p(2) + s(i))**2
    end do
  end subroutine residuals

  subroutine solve_spd2(a, b, x)
    real(wp), intent(in) :: a(2, 2), b(2)
    real(wp), intent(out) :: x(2)
    real(wp) :: l11, l21, l22, z1, z2
    l11 = sqrt(a(1, 1))
    l21 = a(2, 1)/l11
    l22 = sqrt(a(2, 2) - l21**2)
    z1 = b(1)/l11
    z2 = (b(2) - l21*z1)/l22
    x(2) = z2/l22
    x(1) = (z1 - l21*x(2))/l11
  end subroutine solve_spd2
end module mm_model

subroutine lm_iterate(m, p, pnew, cost)
  use mm_model
  implicit none
  integer, intent(in) :: m
  real(wp), intent(in) :: p(npar)
  real(wp), intent(out) :: pnew(npar), cost
  real(wp) :: s(m), obs(m), r(m), jac(m, npar), jtj(npar, npar), g(npar), step(npar)
  real(wp) :: lambda
  integer :: i, iter
  do i = 1, m
    s(i) = 0.25_wp*i
    obs(i) = 1.3_wp*s(i)/(0.8_wp + s(i)) + 0.02_wp*cos(3.0_wp*i)
  end do
  pnew = p
  lambda = 1.0_wp
  do iter = 1, 3
    call residuals(pnew, s, obs, m, r, jac)
    jtj = matmul(transpose(jac), jac)
    g = matmul(transpose(jac), r)
    do i = 1, npar
      jtj(i, i) = jtj(i, i)*(1.0_wp + lambda)
    end do
    g = -g
    call solve_spd2(jtj, g, step)
    pnew = pnew + step
    lambda = 0.3_wp*lambda
  end do
  call residuals(pnew, s, obs, m, r, jac)
  cost = 10.0_wp + 100.0_wp*dot_product(r, r)
end subroutine lm_iterate
