! radtap: -head cfuncs -vars "x" -outvars "y"
! sizes:
! Complex elementwise intrinsics on active values: exp, log, sqrt, sin, cos, tanh, abs,
! conjg, integer powers, real/aimag/dble with kinds, mixed real and complex operands.
subroutine cfuncs(x, y)
  implicit none
  real(8), intent(in) :: x(2)
  real(8), intent(out) :: y(4)
  complex(8) :: z, e, l, s, t
  z = cmplx(x(1), x(2), kind=8)
  e = exp(z/2.0d0)
  l = log(z + 1.0d0)
  s = sqrt(z)*x(1)
  t = sin(z)*cos(conjg(z)) + tanh(0.3d0*z)
  y(1) = abs(e*l) + real(s, 8)
  y(2) = aimag(t) + dble(conjg(l)*s)
  y(3) = abs(z**2 - x(2)) + aimag(1.0d0/(z*z + 2.0d0))
  y(4) = real(t*conjg(e), 8) - x(1)*aimag(conjg(s))
end subroutine cfuncs
