! radtap: -head mred -vars "x" -outvars "y"
! sizes: n=6
! sum with MASK arguments decided by the index (a logical array built by an
! implied DO, and its negation), count of the mask as a factor.
subroutine mred(n, x, y)
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y(2)
  logical :: m(n)
  integer :: i
  m = [(mod(i, 2) == 0, i = 1, n)]
  y(1) = sum(x*x, mask=m)
  y(2) = sum(x*[(dble(i), i = 1, n)], mask=.not. m)*dble(count(m))
end subroutine mred
