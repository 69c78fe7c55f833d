! radtap: -head chain_dynamics -vars "k m x0" -outvars "x energy"
! sizes: n=5 nsteps=20
! A molecular-dynamics style integrator for a chain of nonlinear (FPU-beta) springs:
! velocity Verlet with positions and momenta updated intent(inout) by kick and drift
! routines inside the time loop, forces from a module procedure with fixed ends, and
! the total energy (kinetic plus potential) at the end.
module fpu_chain
  use iso_fortran_env, only: wp => real64
  implicit none
  real(wp), parameter :: beta = 0.3_wp
contains
  subroutine forces(n, k, x, f)
    integer, intent(in) :: n
    real(wp), intent(in) :: k, x(n)
    real(wp), intent(out) :: f(n)
    real(wp) :: ext(0:n + 1), dl, dr
    integer :: i
    ext(0) = 0.0_wp
    ext(n + 1) = 0.0_wp
    ext(1:n) = x
    do i = 1, n
      dr = ext(i + 1) - ext(i)
      dl = ext(i) - ext(i - 1)
      f(i) = k*(dr - dl) + beta*(dr**3 - dl**3)
    end do
  end subroutine forces

  function potential(n, k, x) result(v)
    integer, intent(in) :: n
    real(wp), intent(in) :: k, x(n)
    real(wp) :: v, d
    integer :: i
    v = 0.5_wp*k*x(1)**2 + 0.25_wp*beta*x(1)**4
    do i = 2, n
      d = x(i) - x(i - 1)
      v = v + 0.5_wp*k*d**2 + 0.25_wp*beta*d**4
    end do
    v = v + 0.5_wp*k*x(n)**2 + 0.25_wp*beta*x(n)**4
  end function potential

  subroutine kick(n, p, f, h)
    integer, intent(in) :: n
    real(wp), intent(inout) :: p(n)
    real(wp), intent(in) :: f(n), h
    p = p + h*f
  end subroutine kick

  subroutine drift(n, x, p, m, h)
    integer, intent(in) :: n
    real(wp), intent(inout) :: x(n)
    real(wp), intent(in) :: p(n), m, h
    x = x + h*p/m
  end subroutine drift
end module fpu_chain

subroutine chain_dynamics(n, nsteps, k, m, x0, x, energy)
  use fpu_chain
  implicit none
  integer, intent(in) :: n, nsteps
  real(wp), intent(in) :: k, m, x0(n)
  real(wp), intent(out) :: x(n), energy
  real(wp) :: p(n), f(n), dt
  integer :: it
  dt = 0.05_wp
  x = 0.3_wp*x0
  p = 0.0_wp
  call forces(n, k, x, f)
  do it = 1, nsteps
    call kick(n, p, f, 0.5_wp*dt)
    call drift(n, x, p, m, dt)
    call forces(n, k, x, f)
    call kick(n, p, f, 0.5_wp*dt)
  end do
  energy = 10.0_wp*(0.5_wp*sum(p**2)/m + potential(n, k, x))
end subroutine chain_dynamics
