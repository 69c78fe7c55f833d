! Single-precision reference BLAS (the twins of the double-precision records): sgemv, saxpy,
! sgemm, sdot on REAL copies of the head's data, with no BLAS source.
subroutine head(n, a8, x8, f8)
  implicit none
  integer :: n
  real(8) :: a8(n, n), x8(n), f8
  real :: a(n, n), x(n), f
  real :: t(n), y(n)
  real, external :: sdot
  a = real(a8)
  x = real(x8)
  t = 0
  call sgemv('T', n, n, 0.5, a, n, x, 1, 0.0, t, 1)
  call saxpy(n, x(2), x, 1, t, 1)
  y = x
  call sgemm('N', 'N', n, 1, n, 1.0, a, n, t, n, 2.0, y, n)
  f = sdot(n, t, 1, y, 1)
  f8 = f
end subroutine head
