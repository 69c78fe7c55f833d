! One-dimensional heat equation, explicit Euler in time: the classic first example for AD.
! `heat_step` advances the temperature u by nsteps steps; `energy` is a scalar cost.
module heat_params
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  real(dp), parameter :: kappa = 0.1_dp
end module heat_params

subroutine heat_step(u, n, nsteps, dt, cost)
  use heat_params
  implicit none
  integer, intent(in) :: n, nsteps
  real(dp), intent(inout) :: u(n)
  real(dp), intent(in) :: dt
  real(dp), intent(out) :: cost
  real(dp) :: unew(n)
  integer :: i, step
  do step = 1, nsteps
    unew(1) = u(1)
    unew(n) = u(n)
    do i = 2, n - 1
      unew(i) = u(i) + kappa*dt*(u(i+1) - 2.0_dp*u(i) + u(i-1))
    end do
    u = unew
  end do
  cost = 0.0_dp
  do i = 1, n
    cost = cost + 0.5_dp*u(i)**2
  end do
end subroutine heat_step

program heat
  use heat_params
  implicit none
  integer, parameter :: n = 20
  real(dp) :: u(n), cost
  integer :: i
  do i = 1, n
    u(i) = sin(3.14159265358979_dp*real(i - 1, dp)/real(n - 1, dp))
  end do
  call heat_step(u, n, 100, 0.1_dp, cost)
  write (*, '(a, es16.8)') 'cost = ', cost
end program heat
