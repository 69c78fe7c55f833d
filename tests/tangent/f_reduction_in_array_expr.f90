! radtap: -head reductions_in_arrays -vars "x" -outvars "y p q r"
! sizes: n=5
! Whole-array reductions used inside array expressions: `sum`, `dot_product`, `product`,
! and `maxval`/`minval` (decided: the weights 4**i put the maximum at n and the minimum
! at 1 everywhere in the box), with and without a self reference. Each element's
! adjoint seed reaches the one reduced value, so the adjoint sums the seed (it passed it
! on element by element: the dot-product test failed).
subroutine reductions_in_arrays(n, x, y, p, q, r)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y(n), p(n), q(n), r(n)
  real(8) :: w(n)
  integer :: i
  do i = 1, n
    w(i) = x(i)*4.0d0**i
  end do
  y = x/sum(x)
  p = x
  p = p/sum(p)
  q = x*dot_product(x, x) + x(1)*product(x)
  r = w/maxval(w) + minval(w)*x + sum(x, mask=x > 0.0d0)*w/4.0d0**n
end subroutine reductions_in_arrays
