! Reference BLAS as LAPACK's LU solvers call it (dgetf2/dgetrs shapes), with no BLAS source:
! idamax picks a pivot, dswap exchanges rows, dscal and dger update, dtrsm and dtrsv solve with
! triangular factors, unit or not, transposed and not, from the left and the right, with
! the options spelled as words as LAPACK spells them ('Left', 'No transpose', 'Unit').
subroutine head(n, a, b, c, f)
  implicit none
  integer :: n
  real(8) :: a(n, n), b(n, 2), c(2, n), f
  real(8) :: w(n), u(n, n), s
  integer :: p
  integer, external :: idamax
  real(8), external :: ddot
  p = idamax(n, a(1, 1), 1)
  call dswap(2, b(p, 1), n, c(1, p), 1)
  u = a
  call dscal(n, 0.5d0, u(1, 1), 1)
  call dger(n, n, -0.25d0, b(1, 1), 1, c(2, 1), 2, u, n)
  s = c(1, 1)
  call dtrsm('Left', 'Lower', 'No transpose', 'Unit', n, 2, 1.0d0, a, n, b, n)
  call dtrsm('L', 'U', 'N', 'N', n, 2, s, u, n, b, n)
  call dtrsm('R', 'U', 'T', 'N', 2, n, 0.5d0, a, n, c, 2)
  call dtrsm('R', 'L', 'N', 'U', 2, n, 1.0d0, u, n, c, 2)
  w = b(:, 1)
  call dtrsv('U', 'T', 'N', n, u, n, w, 1)
  call dtrsv('Lower', 'No transpose', 'Unit', n, a, n, w, 1)
  f = ddot(n, w, 1, b(1, 2), 1) + ddot(n, c(1, 1), 2, c(2, 1), 2)
end subroutine head
