! radtap: -head omp_softmax -vars "x" -outvars "y"
! sizes: n=9
! A softmax in one parallel region: an `!$omp do` reduction of the exponentials' sum, a
! `master` block taking its inverse followed by a barrier, and an `!$omp do` scaling
! (issue 45: `master` was refused before).
subroutine omp_softmax(n, x, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y(n)
  real(8) :: total, scale
  integer :: i
  total = 0.0d0
  !$omp parallel
  !$omp do reduction(+: total)
  do i = 1, n
     total = total + exp(x(i))
  end do
  !$omp end do
  !$omp master
  scale = 1.0d0 / total
  !$omp end master
  !$omp barrier
  !$omp do
  do i = 1, n
     y(i) = exp(x(i)) * scale
  end do
  !$omp end do
  !$omp end parallel
end subroutine omp_softmax
