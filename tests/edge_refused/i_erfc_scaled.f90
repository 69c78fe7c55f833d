! radtap: -head f -vars "x" -outvars "y"
! erfc_scaled of an active value: no rule (dprod, refused here before, has one now).
subroutine f(x, y)
  real(8), intent(in) :: x(2)
  real(8), intent(out) :: y
  y = erfc_scaled(x(1)*x(2))
end subroutine f
