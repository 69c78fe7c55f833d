! radtap: -head omp_matvec -vars "a x" -outvars "y"
! sizes: m=5 n=6
! A parallel matrix-vector product y = tanh(A x) over the rows (issue 45): every row reads
! all of x, so in the reversed loop every iteration increments all of x̄. The adjoint
! accumulates x̄ per thread, an array reduction `reduction(+: xb)`, not an atomic update
! per element and row; ā's column is each row's own.
subroutine omp_matvec(m, n, a, x, y)
  implicit none
  integer, intent(in) :: m, n
  real(8), intent(in) :: a(m, n), x(n)
  real(8), intent(out) :: y(m)
  integer :: i, j
  real(8) :: s
  !$omp parallel do private(j, s)
  do i = 1, m
    s = 0.0d0
    do j = 1, n
      s = s + a(i, j) * x(j)
    end do
    y(i) = tanh(s)
  end do
  !$omp end parallel do
end subroutine omp_matvec
