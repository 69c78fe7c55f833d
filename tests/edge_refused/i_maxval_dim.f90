! radtap: -head f -vars "a" -outvars "y"
! maxval with DIM: the whole-array rule would compare with the overall maximum.
subroutine f(a, y)
  real(8), intent(in) :: a(2, 3)
  real(8), intent(out) :: y(3)
  y = maxval(a, dim=1)
end subroutine f
