! radtap: -head fit_decay -vars "k y0" -outvars "loss"
! sizes: nobs=6
! An ODE-based parameter fit in the style of a pharmacokinetics code: an abstract
! interface for the right-hand side f(t, y, k, dydt), a generic fixed-step Heun
! integrator taking it as a `procedure(rhs_iface)` dummy, two user models (one- and
! two-compartment) passed to it, and a loss on observations. The dummy procedure
! receives two procedures (the two models): `heun` is specialised per model (it was
! refused, AD020 at each call through the dummy).
module pk_kinds
  use iso_fortran_env, only: real64
  implicit none
  integer, parameter :: wp = real64
end module pk_kinds

module pk_integrate
  use pk_kinds, only: wp
  implicit none
  abstract interface
    subroutine rhs_iface(t, y, k, dydt)
      import :: wp
      real(wp), intent(in) :: t, y(2), k(3)
      real(wp), intent(out) :: dydt(2)
    end subroutine rhs_iface
  end interface
contains
  subroutine heun(f, y, k, t0, t1, nsub)
    procedure(rhs_iface) :: f
    real(wp), intent(inout) :: y(2)
    real(wp), intent(in) :: k(3), t0, t1
    integer, intent(in) :: nsub
    real(wp) :: h, t, d1(2), d2(2), yp(2)
    integer :: i
    h = (t1 - t0)/real(nsub, wp)
    t = t0
    do i = 1, nsub
      call f(t, y, k, d1)
      yp = y + h*d1
      call f(t + h, yp, k, d2)
      y = y + 0.5_wp*h*(d1 + d2)
      t = t + h
    end do
  end subroutine heun
end module pk_integrate

module pk_models
  use pk_kinds, only: wp
  implicit none
contains
  subroutine one_compartment(t, y, k, dydt)
    real(wp), intent(in) :: t, y(2), k(3)
    real(wp), intent(out) :: dydt(2)
    dydt(1) = -k(1)*y(1)
    dydt(2) = k(1)*y(1) - k(2)*y(2)/(1.0_wp + 0.1_wp*t)
  end subroutine one_compartment

  subroutine two_compartment(t, y, k, dydt)
    real(wp), intent(in) :: t, y(2), k(3)
    real(wp), intent(out) :: dydt(2)
    dydt(1) = -k(1)*y(1) + k(3)*y(2)
    dydt(2) = k(1)*y(1) - (k(2) + k(3))*y(2) + 0.0_wp*t
  end subroutine two_compartment
end module pk_models

subroutine fit_decay(nobs, k, y0, loss)
  use pk_kinds, only: wp
  use pk_integrate, only: heun
  use pk_models, only: one_compartment, two_compartment
  implicit none
  integer, intent(in) :: nobs
  real(wp), intent(in) :: k(3), y0
  real(wp), intent(out) :: loss
  real(wp) :: ya(2), yb(2), obs
  integer :: j
  ya = [y0, 0.0_wp]
  yb = [y0, 0.0_wp]
  loss = 0.0_wp
  do j = 1, nobs
    call heun(one_compartment, ya, k, 0.5_wp*real(j - 1, wp), 0.5_wp*real(j, wp), 4)
    call heun(two_compartment, yb, k, 0.5_wp*real(j - 1, wp), 0.5_wp*real(j, wp), 4)
    obs = exp(-0.3_wp*real(j, wp))
    loss = loss + (ya(2) - obs)**2 + 0.5_wp*(yb(2) - obs)**2
  end do
end subroutine fit_decay
