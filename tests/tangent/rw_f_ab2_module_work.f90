! radtap: -head ab2_orbit -vars "q0 mu" -outvars "q h"
! sizes: nsteps=10
! A two-step Adams-Bashforth integrator for a planar orbit (Kepler problem with a
! softened potential) in the style of a small astrodynamics library: the integrator
! module keeps its state between calls in module variables (the previous right-hand
! side `fprev`, the stage vector `fnow`, a step counter) that the head never sees: it
! USEs the module with `only:` its procedures. Each step overwrites the module work
! arrays, so the adjoint records them around the call (USEd by name in the derivative).
module orb_kinds
  use iso_fortran_env, only: real64
  implicit none
  integer, parameter :: wp = real64
end module orb_kinds

module orb_integrator
  use orb_kinds, only: wp
  implicit none
  real(wp) :: fprev(4), fnow(4)
  integer :: nstep_done = 0
contains
  subroutine kepler_rhs(q, mu, f)
    real(wp), intent(in) :: q(4), mu
    real(wp), intent(out) :: f(4)
    real(wp) :: r3
    r3 = (q(1)**2 + q(2)**2 + 0.01_wp)**1.5_wp
    f(1) = q(3)
    f(2) = q(4)
    f(3) = -mu*q(1)/r3
    f(4) = -mu*q(2)/r3
  end subroutine kepler_rhs

  subroutine ab2_start(q, mu)
    real(wp), intent(in) :: q(4), mu
    call kepler_rhs(q, mu, fprev)
    nstep_done = 0
  end subroutine ab2_start

  subroutine ab2_step(q, mu, h)
    real(wp), intent(inout) :: q(4)
    real(wp), intent(in) :: mu, h
    call kepler_rhs(q, mu, fnow)
    if (nstep_done == 0) then
      q = q + h*fnow
    else
      q = q + h*(1.5_wp*fnow - 0.5_wp*fprev)
    end if
    fprev = fnow
    nstep_done = nstep_done + 1
  end subroutine ab2_step
end module orb_integrator

subroutine ab2_orbit(nsteps, q0, mu, q, h)
  use orb_kinds, only: wp
  use orb_integrator, only: ab2_start, ab2_step
  implicit none
  integer, intent(in) :: nsteps
  real(wp), intent(in) :: q0(4), mu
  real(wp), intent(out) :: q(4), h
  real(wp) :: dt
  integer :: it
  dt = 0.02_wp
  q(1) = 1.0_wp + 0.1_wp*q0(1)
  q(2) = 0.1_wp*q0(2)
  q(3) = 0.1_wp*q0(3)
  q(4) = 0.8_wp + 0.1_wp*q0(4)
  call ab2_start(q, mu)
  do it = 1, nsteps
    call ab2_step(q, mu, dt)
  end do
  h = 0.5_wp*(q(3)**2 + q(4)**2) - mu/sqrt(q(1)**2 + q(2)**2 + 0.01_wp)
end subroutine ab2_orbit
