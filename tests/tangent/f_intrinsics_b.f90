! radtap: -head intr_b -vars "x y z" -outvars "r"
! sizes:
! Intrinsics group B: abs sign min/max (2 and 3 args, never tied) mod dble
! real(.,8) hypot erf erfc gamma log_gamma asinh acosh atanh; int nint floor
! ceiling are constant over the input box (zero derivative) but used in values.
subroutine intr_b(x, y, z, r)
  implicit none
  real(8), intent(in) :: x, y, z
  real(8), intent(out) :: r(5)
  real(8) :: u
  integer :: k
  u = x - 2.0d0
  k = int(0.3d0*x + 2.0d0) + nint(0.3d0*y + 2.0d0) + floor(0.3d0*z + 2.0d0) &
      + ceiling(0.3d0*x + 2.0d0)
  r(1) = abs(u)*y + sign(y, u)*0.2d0 + sign(2.0d0, z)*x
  r(2) = min(x, y + 2.0d0) + max(u, -z - 2.0d0) + max(x, 2.0d0 + y, z*z + 5.0d0) &
       + min(x*y, x + 3.0d0, 10.0d0*z)
  r(3) = mod(x + 4.0d0, y + 2.5d0) + dble(k)*x + real(y*z, 8)
  r(4) = hypot(x, y) + erf(x - y) + erfc(z) + gamma(x + 1.0d0) + log_gamma(y + 2.0d0)
  r(5) = asinh(x) + acosh(1.0d0 + y) + atanh(0.5d0*z) + dble(k)
end subroutine intr_b
