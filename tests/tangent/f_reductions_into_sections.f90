! radtap: -head reds_into -vars "x" -outvars "y z"
! sizes: n=5 x=n y=n z=1
! Scalar reductions (sum, product, maxval, dot_product) assigned to array elements,
! 1-element sections y(2:2), and a whole 1-element array z: the adjoint seed of a
! section or array target is summed before it flows into the scalar right side.
subroutine reds_into(n, x, y, z)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y(n)
  real(8), intent(out) :: z(1)
  y = 0.0d0
  y(1) = sum(x)
  y(2:2) = sum(x*x)
  y(3) = product(x)
  y(4:4) = dot_product(x, x) + 0.5d0*y(1)
  y(5) = maxval(x*(1.0d0 + 0.1d0*x)) + y(1)*y(2)
  z = sum(sin(x)) + 2.0d0*maxval(x*x)
end subroutine reds_into
