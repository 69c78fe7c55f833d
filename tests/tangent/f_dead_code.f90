! radtap: -head dead_code -vars "x" -outvars "y"
! sizes: n=5 count=0
! Diff-liveness slicing: the local diagnostics `norm` and `peak` feed nothing the caller
! sees, so their computation is left out of dead_code_d; `scale` is needed by both the
! primal result and the derivative, and `count` is an integer output that must stay.
subroutine dead_code(n, x, y, count)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y
  integer, intent(out) :: count
  real(8) :: norm, peak, scale
  integer :: i
  norm = 0.0d0
  peak = -1.0d30
  scale = 1.0d0/dble(n)
  y = 0.0d0
  count = 0
  do i = 1, n
    norm = norm + x(i)**2
    peak = max(peak, abs(x(i)))
    y = y + scale*exp(0.3d0*x(i))
    if (x(i) > 1.0d0) count = count + 1
  end do
  norm = sqrt(norm)
end subroutine dead_code
