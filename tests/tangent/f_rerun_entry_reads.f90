! radtap: -head fchain -vars "x w" -outvars "y"
! sizes: n=4
! Checkpointed calls in a loop whose callees overwrite an output before reading it: the
! snapshot of `t` (written only, by `centre`), of `v` and of the element `e(k)` (written only,
! by `scale`) is not restored before the callee's adjoint re-runs it; `u` (read then written
! by `scale`) and `s` (read by `acc`) are (issue 21).
subroutine centre(n, x, w, t)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n), w(n)
  real(8), intent(out) :: t(n)
  t = x - 0.5d0 * w
end subroutine

subroutine scale(n, t, u, v, e)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: t(n)
  real(8), intent(inout) :: u(n)
  real(8), intent(out) :: v(n), e
  integer :: i
  do i = 1, n
    v(i) = sin(t(i)) * u(i)
    u(i) = u(i) * cos(t(i)) + 0.1d0 * t(i) * t(i)
  end do
  e = t(1) * t(2)
end subroutine

subroutine acc(n, v, s)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: v(n)
  real(8), intent(inout) :: s
  integer :: i
  do i = 1, n
    s = s + v(i) * v(i) * s
  end do
end subroutine

subroutine fchain(n, x, w, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n), w(n)
  real(8), intent(out) :: y(2)
  real(8) :: t(n), u(n), v(n), e(3), s
  integer :: k
  u = w
  s = 0.5d0
  y(1) = 0.0d0
  do k = 1, 3
    call centre(n, x, w, t)
    call scale(n, t, u, v, e(k))
    call acc(n, v, s)
    y(1) = y(1) + v(k) * t(k + 1) + e(k) * e(k)
  end do
  y(2) = s * u(3)
end subroutine
