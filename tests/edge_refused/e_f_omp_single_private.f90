! radtap: -head "omp_scale(y)/(x)"
! A `single` block with a `private` clause (issue 45): sequential code between the region's
! loops has no private copies; refused at the directive.
subroutine omp_scale(n, x, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y(n)
  real(8) :: s, t
  integer :: i
  !$omp parallel
  !$omp single private(t)
  t = x(1) * x(1)
  s = t + 1.0d0
  !$omp end single
  !$omp do
  do i = 1, n
     y(i) = x(i) * s
  end do
  !$omp end do
  !$omp end parallel
end subroutine omp_scale
