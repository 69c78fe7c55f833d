! radtap: -head f -vars "x" -outvars "y"
! pack of an active array under a mask: no rule.
subroutine f(x, y)
  real(8), intent(in) :: x(4)
  real(8), intent(out) :: y
  y = sum(pack(x, x > 0.0d0))
end subroutine f
