! radtap: -head plate_steady -vars "tb kc" -outvars "tmean qflux"
! sizes: nx=6 ny=5
! Steady heat conduction in a rectangular plate with a temperature-dependent
! conductivity, as a thermal-design code solves it: Gauss-Seidel sweeps with
! over-relaxation on a 2-D array with Dirichlet edges from the inputs, harmonic means of
! the conductivity at the faces, a fixed number of sweeps, then the mean temperature and
! the heat flux through the bottom edge. Rank-2 explicit-shape arrays with 0-based
! bounds `t(0:nx+1, 0:ny+1)`, nested DO loops, and a module function for k(T).
module plate_props
  use iso_fortran_env, only: wp => real64
  implicit none
  real(wp), parameter :: omega = 1.3_wp
contains
  pure function conductivity(t, kc) result(k)
    real(wp), intent(in) :: t, kc
    real(wp) :: k
    k = kc*(1.0_wp + 0.05_wp*t)
  end function conductivity

  pure function harmonic(a, b) result(h)
    real(wp), intent(in) :: a, b
    real(wp) :: h
    h = 2.0_wp*a*b/(a + b)
  end function harmonic
end module plate_props

subroutine plate_steady(nx, ny, tb, kc, tmean, qflux)
  use iso_fortran_env, only: wp => real64
  use plate_props, only: conductivity, harmonic, omega
  implicit none
  integer, intent(in) :: nx, ny
  real(wp), intent(in) :: tb(4), kc
  real(wp), intent(out) :: tmean, qflux
  real(wp) :: t(0:nx+1, 0:ny+1), kw, ke, ks, kn, kp, tnew
  integer :: i, j, sweep
  t = 0.5_wp*(tb(1) + tb(2))
  do i = 0, nx + 1
    t(i, 0) = 1.0_wp + tb(1)
    t(i, ny+1) = 2.0_wp + tb(2)
  end do
  do j = 1, ny
    t(0, j) = 1.5_wp + tb(3)
    t(nx+1, j) = 1.2_wp + tb(4)
  end do
  do sweep = 1, 25
    do j = 1, ny
      do i = 1, nx
        kp = conductivity(t(i, j), kc)
        kw = harmonic(kp, conductivity(t(i-1, j), kc))
        ke = harmonic(kp, conductivity(t(i+1, j), kc))
        ks = harmonic(kp, conductivity(t(i, j-1), kc))
        kn = harmonic(kp, conductivity(t(i, j+1), kc))
        tnew = (kw*t(i-1, j) + ke*t(i+1, j) + ks*t(i, j-1) + kn*t(i, j+1))/(kw + ke + ks + kn)
        t(i, j) = t(i, j) + omega*(tnew - t(i, j))
      end do
    end do
  end do
  tmean = sum(t(1:nx, 1:ny))/real(nx*ny, wp)
  qflux = 0.0_wp
  do i = 1, nx
    qflux = qflux + conductivity(t(i, 1), kc)*(t(i, 1) - t(i, 0))
  end do
end subroutine plate_steady
