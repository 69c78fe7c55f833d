! radtap: -head "orbit_energy(energy h)/(rv mu)"
! sizes: rv=6
! An astrodynamics kernel in the shape of Fortran-Astrodynamics-Toolkit's propagators: the
! position and velocity magnitudes by NORM2 (refused before: no rule), the specific orbital
! energy and the angular momentum's magnitude of a state vector rv = (r, v).
module orbit_kernels
  implicit none
  integer, parameter :: wp = kind(1.0d0)
contains
  pure function cross(a, b) result(c)
    real(wp), intent(in) :: a(3), b(3)
    real(wp) :: c(3)
    c(1) = a(2)*b(3) - a(3)*b(2)
    c(2) = a(3)*b(1) - a(1)*b(3)
    c(3) = a(1)*b(2) - a(2)*b(1)
  end function cross

  subroutine orbit_energy(rv, mu, energy, h)
    real(wp), intent(in) :: rv(6), mu
    real(wp), intent(out) :: energy, h
    real(wp) :: r, v
    r = norm2(rv(1:3))
    v = norm2(rv(4:6))
    energy = 0.5_wp*v**2 - mu/r
    h = norm2(cross(rv(1:3), rv(4:6)))
  end subroutine orbit_energy
end module orbit_kernels
