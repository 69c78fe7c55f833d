! radtap: -head reduced_ops -vars "u a x c" -outvars "s"
! sizes: n=3 m=2
! Array operations whose result is reduced to a scalar by SUM, so the adjoint seed reaching
! them is a scalar broadcast (hunt 12): `sum(reshape(u, [m, n]) * w)` (the adjoint dropped the
! RESHAPE and added `w*sb` to `ub` element by element: a silently wrong gradient when the
! shapes agree in rank), `sum(transpose(u))`, `sum(matmul(a, b))`, `sum(matmul(a, v))`,
! `sum(matmul(v, a))` (the adjoint applied TRANSPOSE, MATMUL and SIZE to the scalar seed: no
! compile), a scalar times or over an array, and `cshift` under a reduction.
subroutine reduced_ops(n, m, u, a, x, c, s)
  implicit none
  integer, intent(in) :: n, m
  real(8), intent(in) :: u(n, m), a(n, n + 1), x, c(n + 1)
  real(8), intent(out) :: s(7)
  real(8) :: w(m, n), b(n + 1, n)
  integer :: i, j
  do j = 1, n
    do i = 1, m
      w(i, j) = 0.1d0 * (i + 2 * j)
    end do
  end do
  do j = 1, n
    do i = 1, n + 1
      b(i, j) = 0.05d0 * (i - j) + 0.2d0
    end do
  end do
  s(1) = sum(reshape(u, (/ m, n /)) * w)
  s(2) = sum(transpose(u)) * x
  s(3) = 0.1d0 * sum(matmul(a, b * x))
  s(4) = sum(matmul(a, c)) * 0.5d0
  s(5) = sum(matmul(u(:, 1), a)**2) * 0.1d0
  s(6) = sum(u * x) + sum(x / u)
  s(7) = sum(cshift(u, 1) * u)
end subroutine reduced_ops
