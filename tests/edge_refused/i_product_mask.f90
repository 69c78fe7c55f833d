! radtap: -head f -vars "x" -outvars "y"
! product with a MASK: the whole-array rule would ignore the mask.
subroutine f(x, y)
  real(8), intent(in) :: x(4)
  real(8), intent(out) :: y
  integer :: i
  y = product(x, mask=[(mod(i, 2) == 0, i = 1, 4)])
end subroutine f
