! 1D reaction-diffusion (a thermal-explosion model): explicit Euler in time with an Arrhenius
! source term, and a local buffer copied back each step. Differentiated w.r.t. the initial
! field u; the dependent is the scalar cost = sum(u**2)/2.
subroutine rdiff(n, nsteps, u, cost)
  implicit none
  integer, intent(in) :: n, nsteps
  real(8), intent(inout) :: u(n)
  real(8), intent(out) :: cost
  real(8) :: unew(n)
  real(8), parameter :: c = 0.2d0, dt = 1.0d-3, ea = 2.0d0
  integer :: i, step
  do step = 1, nsteps
    unew(1) = u(1)
    unew(n) = u(n)
    do i = 2, n - 1
      unew(i) = u(i) + c*(u(i+1) - 2.0d0*u(i) + u(i-1)) &
                + dt*(1.5d0 - u(i))*exp(-ea/(1.0d0 + u(i)))
    end do
    do i = 1, n
      u(i) = unew(i)
    end do
  end do
  cost = 0.0d0
  do i = 1, n
    cost = cost + 0.5d0*u(i)*u(i)
  end do
end subroutine rdiff
