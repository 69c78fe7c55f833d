! radtap: -head early -vars "x" -outvars "y"
! sizes: n=6
! RETURN before the end: from inside a counted loop once the running product is
! large enough (never reached: x <= 1.5 keeps it below 1e3), and after the loop
! when n is even (n = 6: taken), so the last statement never runs.
subroutine early(n, x, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y
  integer :: i
  y = 1.0d0
  do i = 1, n
    y = y*(0.5d0 + x(i)) + sin(x(i))
    if (y > 1.0d3) return
  end do
  y = y*x(1)
  if (mod(n, 2) == 0) return
  y = y + x(n)**2
end subroutine early
