! radtap: -head f -vars "x" -outvars "y"
! dprod of active values: no rule.
subroutine f(x, y)
  real(8), intent(in) :: x(2)
  real(8), intent(out) :: y
  y = dprod(real(x(1)), real(x(2)))
end subroutine f
