! radtap: -head mk -vars "x" -outvars "y"
! sizes: n=3
! Mixed kinds: default-real literals and real() conversions with real(8)
! data, integer(8) counters, real(x, 8), dble of an integer expression.
subroutine mk(n, x, y)
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y
  integer(8) :: k
  integer :: i
  k = 2_8
  y = 0.5*x(1) + real(n, 8)*x(2)
  do i = 1, n
    y = y + dble(i*k)*x(i)**2 + 2.5d0*real(x(i), 8)
  end do
  y = y*1.5 + x(n)/real(k, 8)
end subroutine mk
