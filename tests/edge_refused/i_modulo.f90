! radtap: -head f -vars "x" -outvars "y"
! modulo of a real active value: no rule (mod has one).
subroutine f(x, y)
  real(8), intent(in) :: x
  real(8), intent(out) :: y
  y = modulo(x*3.0d0, 2.0d0)
end subroutine f
