! A head calling reference BLAS with no BLAS source given: radtap's built-in records describe
! dgemv, daxpy, dscal, dcopy, dgemm, ddot, dnrm2 and their derivatives are BLAS calls
! (linked with -lblas).
subroutine head(n, a, x, y, f)
  implicit none
  integer :: n
  real(8) :: a(n, n), x(n), y(n), f
  real(8) :: t(n)
  real(8), external :: ddot, dnrm2
  t = 0
  call dgemv('N', n, n, 2.0d0, a, n, x, 1, 0.5d0, t, 1)
  call daxpy(n, x(1), x, 1, t, 1)
  call dscal(n, 1.5d0, t, 1)
  call dcopy(n, t, 1, y, 1)
  call dgemm('T', 'N', n, 1, n, 1.0d0, a, n, t, n, 0.25d0, y, n)
  call dgemv('T', n, n, x(2), a, n, t, 1, x(3), y, 1)
  f = ddot(n, t, 1, y, 1) + dnrm2(n, y, 1)
end subroutine head
