! The gradient of heat_step's cost with respect to the initial temperature u (README.md).
program heat_gradient
  use heat_params
  implicit none
  integer, parameter :: n = 20
  real(dp) :: u(n), ub(n), cost, costb
  integer :: i
  u = [(sin(3.14159265358979_dp*real(i - 1, dp)/real(n - 1, dp)), i = 1, n)]
  costb = 1.0_dp   ! seed: d cost / d cost
  call heat_step_b(u, ub, n, 100, 0.1_dp, cost, costb)
  print '(a, 3es12.4)', 'd cost / d u(2:4) =', ub(2:4)
end program heat_gradient
