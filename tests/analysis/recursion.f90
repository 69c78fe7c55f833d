! radtap: -head ipow -vars "x" -outvars "p"
! Recursive function (result p): x**n by repeated multiplication/squaring.
! Diff-dependency and activity of ipow must reach a fixed point over the
! recursive call cycle: x and the result p are active, the integer n is not.
! p = p*p uses p in its derivative, so p is TBR at that overwrite.
recursive function ipow(x, n) result(p)
  implicit none
  real(8), intent(in) :: x
  integer, intent(in) :: n
  real(8) :: p
  if (n <= 0) then
    p = 1.0d0
  else if (mod(n, 2) == 0) then
    p = ipow(x, n/2)
    p = p*p
  else
    p = x*ipow(x, n - 1)
  end if
end function ipow
