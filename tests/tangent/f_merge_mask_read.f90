! radtap: -head clip -vars "x" -outvars "y"
! sizes: n=4
! The derivative of `merge` evaluates its mask: the adjoint of `y = merge(t, 0.5, t > 0.5)`
! reads `t` backwards, so `t = x*x` must run in the forward sweep although no partial
! derivative reads `t` (merge is linear in its first two arguments). The array form, and
! `sum(u, mask=u > 0.1)` whose mask reads `u` after `u` is assigned again.
subroutine clip(n, x, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y(3)
  real(8) :: t, u(n), v(n)
  t = x(1) * x(1)
  y(1) = merge(t, 0.5d0, t > 0.5d0)
  u = x * x
  v = merge(u, 0.5d0 * x, u > 0.3d0)
  y(2) = sum(v)
  u = x * x * x
  y(3) = sum(u, mask=u > 0.1d0)
end subroutine clip
