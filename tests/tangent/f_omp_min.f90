! radtap: -head omp_cfl_step -vars "u c" -outvars "dt"
! sizes: n=14
! The stable time step of an explicit scheme, the smallest dx / (|u| + c) over the cells,
! by `reduction(min: dt)` in a parallel region with `!$omp do` (issue 45, refused before).
subroutine omp_cfl_step(n, u, c, dx, dt)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: u(n), c(n), dx
  real(8), intent(out) :: dt
  real(8) :: speed
  integer :: i
  dt = 1.0d30
  !$omp parallel private(speed)
  !$omp do reduction(min: dt)
  do i = 1, n
     speed = sqrt(u(i) * u(i) + 0.01d0) + c(i) * c(i)
     if (dx / speed < dt) dt = dx / speed
  end do
  !$omp end do
  !$omp end parallel
  dt = 0.5d0 * dt
end subroutine omp_cfl_step
