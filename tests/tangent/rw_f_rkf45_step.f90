! radtap: -head rkf45_integrate -vars "y0 k" -outvars "y errest"
! sizes: nsteps=4
! One Runge-Kutta-Fehlberg 4(5) integrator in the style of Forsythe-Malcolm-Moler
! RKF45: the Fehlberg coefficients are named PARAMETERs of a module, the right-hand
! side is an internal procedure of the stepper reading the host's rate constants, the
! stage states go through a work array `ys` as in FMM's
! `fehl`, the fifth-order solution is propagated and the difference with the fourth-order one is
! accumulated as an error estimate (the step size is fixed, as a caller doing its own
! step control would run it).
module fehlberg_coeffs
  use iso_fortran_env, only: dp => real64
  implicit none
  real(dp), parameter :: a2 = 1.0_dp/4.0_dp, a3 = 3.0_dp/8.0_dp
  real(dp), parameter :: a4 = 12.0_dp/13.0_dp, a6 = 1.0_dp/2.0_dp
  real(dp), parameter :: b21 = 1.0_dp/4.0_dp
  real(dp), parameter :: b31 = 3.0_dp/32.0_dp, b32 = 9.0_dp/32.0_dp
  real(dp), parameter :: b41 = 1932.0_dp/2197.0_dp, b42 = -7200.0_dp/2197.0_dp, &
                         b43 = 7296.0_dp/2197.0_dp
  real(dp), parameter :: b51 = 439.0_dp/216.0_dp, b52 = -8.0_dp, &
                         b53 = 3680.0_dp/513.0_dp, b54 = -845.0_dp/4104.0_dp
  real(dp), parameter :: b61 = -8.0_dp/27.0_dp, b62 = 2.0_dp, &
                         b63 = -3544.0_dp/2565.0_dp, b64 = 1859.0_dp/4104.0_dp, &
                         b65 = -11.0_dp/40.0_dp
  real(dp), parameter :: c1 = 16.0_dp/135.0_dp, c3 = 6656.0_dp/12825.0_dp, &
                         c4 = 28561.0_dp/56430.0_dp, c5 = -9.0_dp/50.0_dp, c6 = 2.0_dp/55.0_dp
  real(dp), parameter :: d1 = 25.0_dp/216.0_dp, d3 = 1408.0_dp/2565.0_dp, &
                         d4 = 2197.0_dp/4104.0_dp, d5 = -1.0_dp/5.0_dp
end module fehlberg_coeffs

module rkf_stepper
  use fehlberg_coeffs
  implicit none
contains
  subroutine rkf_step(t, h, y, k, err)
    real(dp), intent(in) :: t, h
    real(dp), intent(inout) :: y(3)
    real(dp), intent(in) :: k(2)
    real(dp), intent(out) :: err
    real(dp) :: f1(3), f2(3), f3(3), f4(3), f5(3), f6(3), y5(3), y4(3), ys(3)
    call deriv(t, y, f1)
    ys = y + h*b21*f1
    call deriv(t + a2*h, ys, f2)
    ys = y + h*(b31*f1 + b32*f2)
    call deriv(t + a3*h, ys, f3)
    ys = y + h*(b41*f1 + b42*f2 + b43*f3)
    call deriv(t + a4*h, ys, f4)
    ys = y + h*(b51*f1 + b52*f2 + b53*f3 + b54*f4)
    call deriv(t + h, ys, f5)
    ys = y + h*(b61*f1 + b62*f2 + b63*f3 + b64*f4 + b65*f5)
    call deriv(t + a6*h, ys, f6)
    y5 = y + h*(c1*f1 + c3*f3 + c4*f4 + c5*f5 + c6*f6)
    y4 = y + h*(d1*f1 + d3*f3 + d4*f4 + d5*f5)
    err = sqrt(sum((y5 - y4)**2))
    y = y5
  contains
    ! Reversible chain A <-> B -> C with rates k(1), k(2) of the host.
    subroutine deriv(tt, yy, dy)
      real(dp), intent(in) :: tt, yy(3)
      real(dp), intent(out) :: dy(3)
      real(dp) :: forcing
      forcing = 1.0_dp + 0.1_dp*sin(tt)
      dy(1) = -k(1)*yy(1) + 0.5_dp*k(2)*yy(2)*forcing
      dy(2) = k(1)*yy(1) - k(2)*yy(2)*(1.0_dp + 0.5_dp*forcing)
      dy(3) = k(2)*yy(2)*(1.0_dp - 0.5_dp*forcing) + 0.01_dp*yy(3)
    end subroutine deriv
  end subroutine rkf_step
end module rkf_stepper

subroutine rkf45_integrate(nsteps, y0, k, y, errest)
  use fehlberg_coeffs, only: dp
  use rkf_stepper, only: rkf_step
  implicit none
  integer, intent(in) :: nsteps
  real(dp), intent(in) :: y0(3), k(2)
  real(dp), intent(out) :: y(3), errest
  real(dp) :: t, h, e
  integer :: istep
  h = 0.25_dp
  t = 0.0_dp
  y = y0
  errest = 0.0_dp
  do istep = 1, nsteps
    call rkf_step(t, h, y, k, e)
    errest = errest + 1.0e4_dp*e
    t = t + h
  end do
end subroutine rkf45_integrate
