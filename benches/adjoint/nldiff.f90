! 1-D nonlinear diffusion u_t = (D(u) u_x)_x with D(u) = d0*(1 + u**2) and no-flux boundaries,
! explicit Euler in time: nsteps steps of size dt. The face diffusivity is a function reference;
! the update uses array notation. Differentiated w.r.t. the initial field u; the dependent is
! the scalar cost = dx*sum(w*u**2)/2 at the final time.
real(8) function diffusivity(a, b)
  implicit none
  real(8), intent(in) :: a, b
  real(8), parameter :: d0 = 0.1d0
  real(8) :: um
  um = 0.5d0*(a + b)
  diffusivity = d0*(1.0d0 + um*um)
end function diffusivity

subroutine nldiff(n, nsteps, dt, u, cost)
  implicit none
  integer, intent(in) :: n, nsteps
  real(8), intent(in) :: dt
  real(8), intent(inout) :: u(n)
  real(8), intent(out) :: cost
  real(8) :: flux(n + 1)
  real(8) :: dx, r
  real(8), external :: diffusivity
  integer :: i, step
  dx = 1.0d0/real(n - 1, 8)
  r = dt/(dx*dx)
  flux(1) = 0.0d0
  flux(n + 1) = 0.0d0
  do step = 1, nsteps
    do i = 2, n
      flux(i) = diffusivity(u(i - 1), u(i))*(u(i) - u(i - 1))
    end do
    u(1:n) = u(1:n) + r*(flux(2:n + 1) - flux(1:n))
  end do
  cost = 0.0d0
  do i = 1, n
    cost = cost + 0.5d0*dx*real(i, 8)*u(i)*u(i)
  end do
end subroutine nldiff
