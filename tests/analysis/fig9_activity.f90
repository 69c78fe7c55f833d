! radtap: -head fig9 -vars "a b c" -outvars "d e"
! Analogue of Fig. 9 (paper sec. 4.6). After a = 5.0d0, a is no longer varied,
! so d = a*c has a derivative only from c (partial evaluation: dd = a*cd).
! e = a/x is varied but not useful (it is truncated by floor next), so e and
! x are never active (slicing); after floor e is not varied: ed is reset to 0.
! a and b are independents but are active nowhere.
subroutine fig9(a, b, c, d, e)
  implicit none
  real(8), intent(inout) :: a
  real(8), intent(in) :: b, c
  real(8), intent(out) :: d, e
  real(8) :: x
  x = a*b
  a = 5.0d0
  d = a*c
  e = a/x
  e = real(floor(e), 8)
end subroutine fig9
