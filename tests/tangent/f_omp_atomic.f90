! radtap: -head omp_bins -vars "x" -outvars "y"
! sizes: n=11
! An `!$omp atomic` update (issue 45): iterations accumulate into the three bins of y.
subroutine omp_bins(n, x, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y(3)
  integer :: i
  y = 0.0d0
  !$omp parallel do
  do i = 1, n
    !$omp atomic
    y(mod(i, 3) + 1) = y(mod(i, 3) + 1) + x(i) * x(i) * (1.0d0 + 0.1d0 * i)
  end do
  !$omp end parallel do
end subroutine omp_bins
