! radtap: -head f -vars "x" -outvars "y"
! eoshift of an active array: no rule (its boundary would need one).
subroutine f(x, y)
  real(8), intent(in) :: x(4)
  real(8), intent(out) :: y
  y = sum(x*eoshift(x, 1))
end subroutine f
