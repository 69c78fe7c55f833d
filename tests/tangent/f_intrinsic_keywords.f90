! radtap: -head ikw_head -vars "x a" -outvars "y z"
! sizes:
! Intrinsics called with their required arguments by keyword, in any order (`sum(array=x)`,
! `dot_product(vector_b=v, vector_a=u)`, `matmul(matrix_b=b, matrix_a=a)`, `atan2(x=.., y=..)`,
! `merge(mask=.., tsource=.., fsource=..)`, `max(a2=.., a1=..)`), and optional ones after a
! gap (`sum(x, mask=..)`, `reshape(source=.., shape=.., pad=..)` with a constant pad): the
! rules bind them to the signature. Before, a keyword argument was never differentiable and
! y, z had no derivative.
subroutine ikw_head(x, a, y, z)
  implicit none
  real(8), intent(in) :: x(4), a(2, 2)
  real(8), intent(out) :: y, z(3, 2)
  real(8), parameter :: edge(2) = [0.25d0, -0.5d0]
  real(8) :: v(2), m(2, 2), s
  v = matmul(matrix_b=x(1:2), matrix_a=a)
  s = sum(array=x) + sin(x=x(3)) * dot_product(vector_b=v, vector_a=x(3:4))
  s = s + atan2(x=x(1) + 2d0, y=x(2)) + max(a2=x(3), a1=0.5d0 * x(4))
  m = merge(mask=a > 10d0, tsource=a * 2d0, fsource=a * x(1))
  y = s + sum(m, mask=m > -1d3) + exp(x=sum(x, mask=x < 10d0) / 4d0)
  z = reshape(source=x * v(1), shape=[3, 2], pad=edge)
end subroutine ikw_head
