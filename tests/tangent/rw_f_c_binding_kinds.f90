! radtap: -head c_drag_polar -vars "cl0 cd0 kfac" -outvars "ld_ratio cdrag"
! sizes: npts=6
! An aerodynamics routine written for interoperability with a C driver: real(c_double)
! and integer(c_int) kinds from iso_c_binding throughout, a BIND(C) derived type for
! the flight condition, value-free explicit-shape arrays, and a drag polar with a
! compressibility correction (Prandtl-Glauert, subsonic everywhere) and induced drag.
module polar_types
  use, intrinsic :: iso_c_binding, only: c_double, c_int
  implicit none
  type, bind(c) :: flight_t
    real(c_double) :: mach
    real(c_double) :: rho
    real(c_double) :: speed
    integer(c_int) :: flap
  end type flight_t
contains
  function pg_factor(mach) result(beta)
    real(c_double), intent(in) :: mach
    real(c_double) :: beta
    beta = 1.0_c_double/sqrt(1.0_c_double - mach*mach)
  end function pg_factor
end module polar_types

subroutine c_drag_polar(npts, cl0, cd0, kfac, ld_ratio, cdrag)
  use, intrinsic :: iso_c_binding, only: c_double, c_int
  use polar_types
  implicit none
  integer(c_int), intent(in) :: npts
  real(c_double), intent(in) :: cl0, cd0, kfac
  real(c_double), intent(out) :: ld_ratio(npts), cdrag(npts)
  type(flight_t) :: fc
  real(c_double) :: alpha, cl, cdi, cdc, q
  integer(c_int) :: i
  fc%rho = 1.225_c_double
  fc%flap = 0_c_int
  do i = 1, npts
    alpha = 0.02_c_double*real(i, c_double)
    fc%mach = 0.2_c_double + 0.05_c_double*real(i, c_double)
    fc%speed = 340.0_c_double*fc%mach
    if (fc%mach > 0.4_c_double) fc%flap = 1_c_int
    cl = (0.5_c_double*cl0 + 6.0_c_double*alpha)*pg_factor(fc%mach)
    if (fc%flap == 1_c_int) cl = cl + 0.1_c_double*cl0
    cdi = 0.05_c_double*kfac*cl*cl
    cdc = 0.02_c_double*cd0*(1.0_c_double + 0.5_c_double*fc%mach**2)
    cdrag(i) = 10.0_c_double*(cdc + cdi)
    q = 0.5_c_double*fc%rho*fc%speed**2
    ld_ratio(i) = cl/(cdc + cdi) + 1.0e-6_c_double*q*cl
  end do
end subroutine c_drag_polar
