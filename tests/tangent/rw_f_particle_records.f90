! radtap: -head settle_particles -vars "diam dens" -outvars "vel drift"
! sizes: np=6 nt=8
! Particle settling in a dispersed-phase code: an array of particle records with real
! components (position, velocity, diameter, density) and logical flags (active,
! deposited), a drag law switching on the particle Reynolds number (Stokes or
! Schiller-Naumann; each particle's regime is fixed by its size class), explicit time
! stepping that stops moving deposited particles.
module particle_types
  use iso_fortran_env, only: wp => real64
  implicit none
  type :: particle_t
    real(wp) :: z = 0.0_wp
    real(wp) :: w = 0.01_wp
    real(wp) :: d
    real(wp) :: rho
    logical :: active = .true.
    logical :: stokes = .true.
  end type particle_t
  real(wp), parameter :: mu = 1.8e-2_wp, rhof = 1.2_wp, grav = 9.81_wp
contains
  pure function drag_coefficient(p, re) result(f)
    type(particle_t), intent(in) :: p
    real(wp), intent(in) :: re
    real(wp) :: f
    if (p%stokes) then
      f = 1.0_wp
    else
      f = 1.0_wp + 0.15_wp*re**0.687_wp
    end if
  end function drag_coefficient

  subroutine advance(p, dt)
    type(particle_t), intent(inout) :: p
    real(wp), intent(in) :: dt
    real(wp) :: re, tau, mass_ratio
    if (.not. p%active) return
    re = rhof*abs(p%w)*p%d/mu
    tau = p%rho*p%d**2/(18.0_wp*mu*drag_coefficient(p, re))
    mass_ratio = 1.0_wp - rhof/p%rho
    p%w = p%w + dt*(mass_ratio*grav - p%w/tau)
    p%z = p%z - dt*p%w
    if (p%z < -1.0e3_wp) p%active = .false.
  end subroutine advance
end module particle_types

subroutine settle_particles(np, nt, diam, dens, vel, drift)
  use particle_types
  implicit none
  integer, intent(in) :: np, nt
  real(wp), intent(in) :: diam(np), dens(np)
  real(wp), intent(out) :: vel(np), drift
  type(particle_t) :: parts(np)
  integer :: i, it
  do i = 1, np
    parts(i)%d = 0.1_wp*diam(i)*i
    parts(i)%rho = 500.0_wp*dens(i)
    parts(i)%stokes = i <= 3
  end do
  do it = 1, nt
    do i = 1, np
      call advance(parts(i), 0.002_wp)
    end do
  end do
  drift = 0.0_wp
  do i = 1, np
    vel(i) = parts(i)%w
    if (parts(i)%active) drift = drift - parts(i)%z
  end do
  drift = 100.0_wp*drift
end subroutine settle_particles
