! radtap: -head twocalls -vars "x" -outvars "y"
! scale(u, v, k) is called twice: first with active x -> t, then with the
! passive w (set from a constant) -> w2. w2 is useful (y = t*w2) but not varied.
! Activity of scale is the envelope (union) of both contexts: u and v are
! active inside scale, k never; at the second call site w and w2 are not active.
subroutine scale(u, v, k)
  implicit none
  real(8), intent(in) :: u
  real(8), intent(out) :: v
  integer, intent(in) :: k
  v = u*real(k, 8) + u*u
end subroutine scale

subroutine twocalls(x, y, n)
  implicit none
  real(8), intent(in) :: x
  real(8), intent(out) :: y
  integer, intent(out) :: n
  real(8) :: t, w, w2
  w = 2.0d0
  call scale(x, t, 3)
  call scale(w, w2, 2)
  n = nint(w2)
  y = t*w2
end subroutine twocalls
