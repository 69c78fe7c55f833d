! radtap: -head div_chain -vars "x a" -outvars "y s"
! sizes: n=5
! Chains of divisions whose quotients the partials share (issue 21 item 1): each quotient
! is a factor of the partial of every later denominator.
subroutine div_chain(n, x, a, y, s)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n), a
  real(8), intent(out) :: y(n), s
  real(8) :: e
  integer :: i
  s = 1.0d0
  do i = 1, n
    y(i) = 10*(x(i) + a)/(x(i) + 1)/(a + 1)/(x(i)*a + 0.5d0)/(2*x(i) - a + 1)
    ! A self reference through the chain, and a compound `op=` target.
    s = s/(x(i) + 1)*(a + 2)/(x(i) + a)
    s = s + 1
  end do
  ! In a FORALL body a shared scalar temporary would hold the last index's quotient for
  ! every index: none there.
  forall (i = 1:n) y(i) = y(i) + x(i)/(x(i) + 1)/(x(i) + a)/(a + 2)
  ! A costly intrinsic used twice by its partials, and a chain ending in it.
  e = exp(a*x(1))
  y(1) = y(1) + e/(1 + e)/(x(2) + 1)/(1 + exp(a*x(1)))
  y(n) = y(n) + a/x(n)/x(n - 1)/x(1)/(a + x(2))
end subroutine div_chain
