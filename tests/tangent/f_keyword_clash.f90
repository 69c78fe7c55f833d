! radtap: -head "head(r)/(c y)"
! sizes: y=2
! Keyword actual arguments naming derivative dummies whose pattern name a caller's local
! already takes (`yb`, `yd` are locals of `head`): the derivative dummies become `yb0`/`yd0`
! and the keywords of the derivative call must say so (the adjoint did not compile).
module kwclash
  implicit none
contains
  subroutine s(y, c)
    real(8), intent(inout) :: y(2)
    real(8), intent(in) :: c
    y = y*c + sin(y)
  end subroutine s
end module kwclash

subroutine head(c, y, r)
  use kwclash
  implicit none
  real(8), intent(in) :: c, y(2)
  real(8), intent(out) :: r
  real(8) :: yb(2), yd(2)
  yb = y
  yd = 2.0d0*y
  call s(y=yb, c=c)
  call s(c=c, y=yd)
  r = yb(1)*yd(2) + yb(2)
end subroutine head
