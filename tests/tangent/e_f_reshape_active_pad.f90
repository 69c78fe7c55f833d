! radtap: -head rap_head -vars "x p" -outvars "y"
! sizes:
! `reshape` with a PAD that depends on the independents: the padded elements carry the pad's
! derivative (before, the tangent padded the derivative with the pad's values). The adjoint
! of an active pad is refused.
subroutine rap_head(x, p, y)
  implicit none
  real(8), intent(in) :: x(3), p(2)
  real(8), intent(out) :: y(2, 4)
  y = reshape(x * p(1), [2, 4], p * 3d0)
end subroutine rap_head
