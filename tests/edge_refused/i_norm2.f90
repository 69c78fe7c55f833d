! radtap: -head f -vars "x" -outvars "y"
! norm2 along a dimension of an active array: no rule (the whole-array norm2 has one).
subroutine f(x, y)
  real(8), intent(in) :: x(3, 2)
  real(8), intent(out) :: y
  y = 1.0d0 + sum(norm2(x, dim=1))
end subroutine f
