! radtap: -head omp_phases -vars "x" -outvars "y"
! sizes: n=10
! An `!$omp parallel` region with two `!$omp do` loops separated by `!$omp barrier`
! (issue 45): the second phase reads the first phase's neighbours u(i-1), u(i+1). Each
! loop becomes one parallel loop (the barrier the end of the first); the adjoint
! reverses the phases, each a parallel loop.
subroutine omp_phases(n, x, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y(n)
  real(8) :: u(n), t
  integer :: i
  !$omp parallel private(t)
  !$omp do
  do i = 1, n
    t = x(i) * x(i)
    u(i) = sin(t) + x(i)
  end do
  !$omp end do nowait
  !$omp barrier
  !$omp do
  do i = 2, n - 1
    t = u(i - 1) * u(i + 1)
    y(i) = t * x(i)
  end do
  !$omp end do
  !$omp end parallel
  y(1) = u(1)
  y(n) = u(n)
end subroutine omp_phases
