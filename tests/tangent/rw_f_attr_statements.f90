! radtap: -head tracer_upwind -vars "c0 vel" -outvars "c mass"
! sizes: n=8 nsteps=4
! Early Fortran 90 style, as codes converted from F77 were written: the type and the
! attributes of a variable given in separate statements (`real(8) :: work` then
! `allocatable :: work(:)`, `dimension :: flux(0:n)` after `real(8) :: flux`,
! `intent(in) :: c0` after the type statement), an allocatable work array allocated with
! the problem size, and first-order upwind advection of a tracer with a positive
! velocity (so the upwind choice is decided) and a decay term.
subroutine tracer_upwind(n, nsteps, c0, vel, c, mass)
  implicit none
  integer :: n, nsteps
  real(8) :: c0, vel, c, mass
  intent(in) :: n, nsteps, c0, vel
  intent(out) :: c, mass
  dimension :: c0(n), c(n)
  real(8) :: work, flux
  allocatable :: work(:)
  dimension :: flux(0:n)
  real(8) :: dt, dx, u
  integer :: i, it
  allocate(work(n))
  dx = 1.0d0/dble(n)
  dt = 0.2d0*dx
  u = 0.5d0 + 0.5d0*vel
  c = c0
  do it = 1, nsteps
    flux(0) = u*c(n)
    do i = 1, n
      if (u > 0.0d0) then
        flux(i) = u*c(i)
      else
        flux(i) = u*c(mod(i, n) + 1)
      end if
    end do
    do i = 1, n
      work(i) = c(i) - dt/dx*(flux(i) - flux(i-1)) - dt*0.1d0*c(i)**2
    end do
    c = work
  end do
  mass = sum(c)*dx
  deallocate(work)
end subroutine tracer_upwind
