! radtap: -head orbit_track -vars "elems" -outvars "xy"
! sizes: nt=5
! Orbit propagation as a satellite-tracking code writes it: Kepler's equation
! E - e sin E = M solved by Newton in a DO WHILE loop with an iteration counter and a
! tolerance, a module holding a SAVEd table of sampling times built on the first call
! (a LOGICAL, SAVE :: first flag), a PURE function for the true anomaly (ATAN2 with
! the half-angle formula), and an ELEMENTAL function applied to scalars only. The table
! function writes real data (its SAVEd table) that never carries a derivative: it was
! refused as if that data were active. It is called in a statement of its own: inside a
! differentiated expression the derivative statement would run it (and its SAVE flag
! update) a second time, which radtap refuses (AD020).
module kepler_mod
  use iso_fortran_env, only: wp => real64
  implicit none
  real(wp), parameter :: twopi = 6.283185307179586_wp
contains
  function sample_time(k) result(t)
    integer, intent(in) :: k
    real(wp) :: t
    real(wp), save :: table(20)
    logical, save :: first = .true.
    integer :: i
    if (first) then
      do i = 1, 20
        table(i) = 0.15_wp*real(i, wp) + 0.01_wp*real(i, wp)**2
      end do
      first = .false.
    end if
    t = table(k)
  end function sample_time

  function solve_kepler(m, e) result(ea)
    real(wp), intent(in) :: m, e
    real(wp) :: ea, de
    integer :: it
    ea = m + e*sin(m)
    de = 1.0_wp
    it = 0
    do while (abs(de) > 1.0e-14_wp .and. it < 40)
      de = (ea - e*sin(ea) - m)/(1.0_wp - e*cos(ea))
      ea = ea - de
      it = it + 1
    end do
  end function solve_kepler

  pure function true_anomaly(ea, e) result(nu)
    real(wp), intent(in) :: ea, e
    real(wp) :: nu
    nu = 2.0_wp*atan2(sqrt(1.0_wp + e)*sin(0.5_wp*ea), sqrt(1.0_wp - e)*cos(0.5_wp*ea))
  end function true_anomaly

  elemental function radius(a, e, ea) result(r)
    real(wp), intent(in) :: a, e, ea
    real(wp) :: r
    r = a*(1.0_wp - e*cos(ea))
  end function radius
end module kepler_mod

subroutine orbit_track(nt, elems, xy)
  use kepler_mod
  implicit none
  integer, intent(in) :: nt
  real(wp), intent(in) :: elems(3)
  real(wp), intent(out) :: xy(2, nt)
  real(wp) :: a, e, n, m, ea, nu, r, tk
  integer :: k
  a = 1.0_wp + elems(1)
  e = 0.1_wp + 0.2_wp*elems(2)
  n = twopi/a**1.5_wp
  do k = 1, nt
    tk = sample_time(k)
    m = n*tk + 0.1_wp*elems(3)
    ea = solve_kepler(m, e)
    nu = true_anomaly(ea, e)
    r = radius(a, e, ea)
    xy(1, k) = r*cos(nu)
    xy(2, k) = r*sin(nu)
  end do
end subroutine orbit_track
