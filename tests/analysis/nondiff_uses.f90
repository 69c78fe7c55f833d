! radtap: -head lookup -vars "x t" -outvars "y"
! t is used only through int(t) as an index, nint(), and comparisons, so the
! varied chain stops there: idx, k, w carry no derivative from t, and t is
! varied but not useful, hence never active. y's derivative comes only from x;
! real(k, 8) adds a non-varied term.
subroutine lookup(x, t, tab, y)
  implicit none
  real(8), intent(in) :: x, t
  real(8), intent(in) :: tab(10)
  real(8), intent(out) :: y
  integer :: idx, k
  real(8) :: w
  idx = int(t)
  k = nint(t*2.0d0)
  if (idx < 1) idx = 1
  if (idx > 10) idx = 10
  w = tab(idx)
  if (t > 0.5d0) then
    y = w*x
  else
    y = w + x
  end if
  y = y + real(k, 8)
end subroutine lookup
