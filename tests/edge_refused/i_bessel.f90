! radtap: -head f -vars "x" -outvars "y"
! An intrinsic with no derivative rule (bessel_j0) applied to an active value.
subroutine f(x, y)
  real(8), intent(in) :: x
  real(8), intent(out) :: y
  y = x*bessel_j0(x)
end subroutine f
