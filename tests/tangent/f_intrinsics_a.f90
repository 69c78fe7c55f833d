! radtap: -head intr_a
! sizes:
! Intrinsics group A: sin cos tan asin acos atan atan2 sinh cosh tanh exp log
! log10 sqrt, every argument kept well inside its domain for a, b in [0.5,1.5].
subroutine intr_a(a, b, r)
  implicit none
  real(8), intent(in) :: a, b
  real(8), intent(out) :: r(4)
  r(1) = sin(a)*cos(0.3d0*b) + tan(0.5d0*a) + 1.0d0
  r(2) = asin(0.5d0*a) + acos(0.4d0*b) + atan(a*b) + atan2(a, b + 1.0d0)
  r(3) = sinh(a) + cosh(0.5d0*b) + tanh(a - b)
  r(4) = exp(0.5d0*a)*log(1.0d0 + b) + log10(a*b + 2.0d0) + sqrt(a + b)
end subroutine intr_a
