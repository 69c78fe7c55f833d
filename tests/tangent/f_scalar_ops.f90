! radtap: -head scalar_ops -vars "x y" -outvars "x z w"
! sizes: k=3
! Scalar arithmetic: + - * / and ** with integer, integer-variable and real
! exponents, nested parentheses, unary minus, and self-referencing updates
! (x = x*y + sin(x), w = w*(...)) where the left side appears on the right.
subroutine scalar_ops(x, y, k, z, w)
  implicit none
  real(8), intent(inout) :: x
  real(8), intent(in) :: y
  integer, intent(in) :: k
  real(8), intent(out) :: z, w
  real(8) :: t
  t = (x + y)*(x + 0.3d0*y)/(1.0d0 + 0.2d0*y*y)
  t = -(-t) + x**2 + y**3/4.0d0 - (x - y)/8.0d0
  z = 0.1d0*t**k + x**1.5d0 + 0.2d0*y**(-0.5d0)
  x = x*y + sin(x)
  w = -(x - 2.0d0*y)**2/(y + 4.0d0) + x**y + 3.0d0
  w = w*(1.0d0 + z/10.0d0)
  z = z + w/(x + 2.0d0) - (-x)*0.5d0
end subroutine scalar_ops
