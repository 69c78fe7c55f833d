! radtap: -head reductions -vars "a v" -outvars "s w"
! sizes: n=4 a=n,n v=n
! Array intrinsics on a rank-2 assumed-shape a(:,:): transpose, matmul (matrix-
! vector and vector-matrix), dot_product, sum (whole and dim=1), product, and
! maxval/minval where one element is clearly the largest/smallest (no ties).
subroutine reductions(n, a, v, s, w)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: a(:,:), v(:)
  real(8), intent(out) :: s, w(n)
  real(8) :: b(n,n), u(n), t(n), c(n)
  b = transpose(a)
  u = matmul(b, v)
  t = matmul(v, a)
  w = u + 0.5d0*t + sum(a, dim=1)
  c = v
  c(2) = c(2) + 5.0d0
  s = dot_product(u, v) + 0.1d0*sum(a) + product(v) + maxval(c)
  c = v*u
  c(n) = c(n) - 20.0d0
  s = s - minval(c)
end subroutine reductions
