! radtap: -head f -vars "x" -outvars "y"
! norm2 of an active array: no rule.
subroutine f(x, y)
  real(8), intent(in) :: x(3)
  real(8), intent(out) :: y
  y = 1.0d0 + norm2(x)
end subroutine f
