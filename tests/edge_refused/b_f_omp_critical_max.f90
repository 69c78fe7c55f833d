! radtap: -head "omp_peak(m)/(x)"
! An `!$omp critical` section keeping a running maximum (issue 45): the tangent is
! differentiated, the adjoint refused at the section (which iteration set m last depends
! on the order the threads ran it in, which the adjoint would need).
subroutine omp_peak(n, x, m)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(inout) :: m
  integer :: i
  real(8) :: t
  !$omp parallel do private(t)
  do i = 1, n
    t = x(i) * x(i)
    !$omp critical
    if (t > m) m = t
    !$omp end critical
  end do
  !$omp end parallel do
end subroutine omp_peak
