! radtap: -head ckpt -vars "x y" -outvars "y"
! The call to sub is checkpointed (joint mode). After it, c = 5*x overwrites c,
! which sub uses only linearly, so the old c is not TBR (no push): c is in
! Adj-out+ of the call (the sequel's forward+backward sweep leaves c modified).
! y is overwritten too (y = y*c) but y is used in that derivative, so it is
! pushed and restored (TBR) and y is not in Adj-out+ of the call.

subroutine sub(u, c, v)
  implicit none
  real(8), intent(in) :: u, c
  real(8), intent(inout) :: v
  v = v*u + c
end subroutine sub

subroutine ckpt(x, y)
  implicit none
  real(8), intent(in) :: x
  real(8), intent(inout) :: y
  real(8) :: c
  c = x + 1.0d0
  call sub(x, c, y)
  c = 5.0d0*x
  y = y*c
end subroutine ckpt
