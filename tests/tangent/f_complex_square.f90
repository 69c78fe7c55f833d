! radtap: -head csquare -vars "x" -outvars "y"
! sizes:
! Issue 19 item 16: a complex intermediate built from two real inputs, squared in place and
! taken apart again (the derivative of `c` was silently zero).
subroutine csquare(x, y)
  implicit none
  real(8), intent(in) :: x(2)
  real(8), intent(out) :: y(2)
  complex(8) :: c
  c = dcmplx(x(1), x(2))
  c = c*c
  y(1) = dble(c)
  y(2) = dimag(c)
end subroutine csquare
