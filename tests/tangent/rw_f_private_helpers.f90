! radtap: -head viscous_loss -vars "u nu" -outvars "loss"
! sizes: n=7
! A module with a PRIVATE default and a small public API, as library modules are
! written: private helper procedures (a central difference, a Sutherland-like
! viscosity law) called by the public routine, a private module constant, a public
! generic name over a private specific, and the head using only the public names.
! The derivative module cannot see the PRIVATE constant a differentiated procedure reads:
! it gets a PRIVATE copy of it (it was refused, AD020 at its use).
module visc_lib
  use iso_fortran_env, only: wp => real64
  implicit none
  private
  public :: dissipation, wp
  real(wp), parameter :: c_suth = 0.3_wp
  interface dissipation
    module procedure dissipation_1d
  end interface dissipation
contains
  pure function ddx(u, i, h) result(d)
    real(wp), intent(in) :: u(:), h
    integer, intent(in) :: i
    real(wp) :: d
    d = (u(i+1) - u(i-1))/(2.0_wp*h)
  end function ddx

  pure function visc_law(t, nu0) result(mu)
    real(wp), intent(in) :: t, nu0
    real(wp) :: mu
    mu = nu0*t**1.5_wp*(1.0_wp + c_suth)/(t + c_suth)
  end function visc_law

  subroutine dissipation_1d(u, nu0, h, eps)
    real(wp), intent(in) :: u(:), nu0, h
    real(wp), intent(out) :: eps
    integer :: i
    eps = 0.0_wp
    do i = 2, size(u) - 1
      eps = eps + visc_law(u(i), nu0)*ddx(u, i, h)**2*h
    end do
  end subroutine dissipation_1d
end module visc_lib

subroutine viscous_loss(n, u, nu, loss)
  use visc_lib, only: dissipation, wp
  implicit none
  integer, intent(in) :: n
  real(wp), intent(in) :: u(n), nu
  real(wp), intent(out) :: loss
  real(wp) :: t(n)
  integer :: i
  do i = 1, n
    t(i) = 1.0_wp + 0.3_wp*u(i) + 0.1_wp*real(i, wp)
  end do
  call dissipation(t, nu, 0.5_wp, loss)
end subroutine viscous_loss
