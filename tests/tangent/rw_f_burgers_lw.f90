! radtap: -head burgers_run -vars "u0 nu" -outvars "u energy"
! sizes: n=12 nsteps=10
! Viscous Burgers equation on a periodic domain with the two-step (Richtmyer) Lax-
! Wendroff scheme plus central diffusion, as in a CFD course code: the state is updated
! intent(inout) by a step routine inside the time loop, the periodic ghost cells are
! filled by a helper, half-step values live in an automatic array, the time step is a
! fixed CFL fraction of a passive speed bound.
module burgers_mod
  use iso_fortran_env, only: rk => real64
  implicit none
contains
  subroutine fill_ghosts(n, v)
    integer, intent(in) :: n
    real(rk), intent(inout) :: v(0:n + 1)
    v(0) = v(n)
    v(n + 1) = v(1)
  end subroutine fill_ghosts

  subroutine lw_step(n, dx, dt, nu, v)
    integer, intent(in) :: n
    real(rk), intent(in) :: dx, dt, nu
    real(rk), intent(inout) :: v(0:n + 1)
    real(rk) :: half(0:n), vnew(n)
    integer :: i
    call fill_ghosts(n, v)
    do i = 0, n
      half(i) = 0.5_rk*(v(i) + v(i + 1)) - 0.5_rk*dt/dx*(0.5_rk*v(i + 1)**2 - 0.5_rk*v(i)**2)
    end do
    do i = 1, n
      vnew(i) = v(i) - dt/dx*(0.5_rk*half(i)**2 - 0.5_rk*half(i - 1)**2) &
                + nu*dt/dx**2*(v(i + 1) - 2.0_rk*v(i) + v(i - 1))
    end do
    v(1:n) = vnew
    call fill_ghosts(n, v)
  end subroutine lw_step
end module burgers_mod

subroutine burgers_run(n, nsteps, u0, nu, u, energy)
  use burgers_mod
  implicit none
  integer, intent(in) :: n, nsteps
  real(rk), intent(in) :: u0(n), nu
  real(rk), intent(out) :: u(n), energy
  real(rk) :: v(0:n + 1), dx, dt
  integer :: it
  dx = 1.0_rk/n
  dt = 0.2_rk*dx/2.0_rk
  v(1:n) = u0
  do it = 1, nsteps
    call lw_step(n, dx, dt, 0.01_rk*nu, v)
  end do
  u = v(1:n)
  energy = 0.5_rk*sum(v(1:n)**2)*dx
end subroutine burgers_run
