! radtap: -head swe_step -vars "h hu" -outvars "h hu"
! sizes: n=10
! One-dimensional shallow-water equations, Lax-Friedrichs steps, written with whole-array
! syntax as a modern ocean code does: WHERE/ELSEWHERE for a wet/dry mask (decided: the
! depth stays well above the threshold), FORALL for the fluxes at interfaces, array
! sections with shifts, a bed profile filled by a DO loop, a CFL-limited time step from MAXVAL (the maximum is always at
! the same cell: the depth grows strongly along the channel), and periodic ghost
! values through CSHIFT-free sections.
module swe_mod
  use iso_fortran_env, only: wp => real64
  implicit none
  real(wp), parameter :: g = 9.81_wp, hdry = 1.0e-3_wp
contains
  subroutine velocities(n, h, hu, u)
    integer, intent(in) :: n
    real(wp), intent(in) :: h(n), hu(n)
    real(wp), intent(out) :: u(n)
    where (h > hdry)
      u = hu/h
    elsewhere
      u = 0.0_wp
    end where
  end subroutine velocities
end module swe_mod

subroutine swe_step(n, h, hu)
  use iso_fortran_env, only: wp => real64
  use swe_mod, only: g, velocities
  implicit none
  integer, intent(in) :: n
  real(wp), intent(inout) :: h(n), hu(n)
  real(wp) :: hh(n), u(n), c(n), f1(0:n), f2(0:n), hg(0:n+1), qg(0:n+1)
  real(wp) :: dt, dx, smax, bed(n)
  integer :: i, step
  dx = 1.0_wp
  do i = 1, n
    bed(i) = 2.0_wp*real(i, wp)**2
  end do
  hh = h + bed
  do step = 1, 3
    call velocities(n, hh, hu, u)
    c = abs(u) + sqrt(g*hh)
    smax = maxval(c)
    dt = 0.4_wp*dx/smax
    hg(1:n) = hh
    qg(1:n) = hu
    hg(0) = hh(1)
    qg(0) = -hu(1)
    hg(n+1) = hh(n)
    qg(n+1) = -hu(n)
    forall (i = 0:n)
      f1(i) = 0.5_wp*(qg(i) + qg(i+1)) - 0.5_wp*dx/dt*(hg(i+1) - hg(i))
      f2(i) = 0.5_wp*(qg(i)**2/hg(i) + 0.5_wp*g*hg(i)**2 + qg(i+1)**2/hg(i+1) &
              + 0.5_wp*g*hg(i+1)**2) - 0.5_wp*dx/dt*(qg(i+1) - qg(i))
    end forall
    hh = hh - dt/dx*(f1(1:n) - f1(0:n-1))
    hu = hu - dt/dx*(f2(1:n) - f2(0:n-1))
  end do
  h = hh - bed
end subroutine swe_step
