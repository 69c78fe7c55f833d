! radtap: -head iter_loops -vars "x" -outvars "s p"
! sizes: n=10
! DO WHILE whose exit test is on an integer counter; a counted DO with CYCLE
! (on mod(i,3) and on a real test that never holds) and EXIT (on i > n-2);
! a named outer loop left with EXIT from a nested loop.
subroutine iter_loops(n, x, s, p)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: s, p
  integer :: i, j, k
  k = 0
  p = 1.0d0
  do while (k < n/2)
    k = k + 1
    p = p*(1.0d0 + 0.1d0*x(k))
  end do
  s = 0.0d0
  do i = 1, n
    if (mod(i, 3) == 0) cycle
    if (x(i) < 0.1d0) cycle
    if (i > n - 2) exit
    s = s + x(i)**2*p
  end do
  outer: do i = 1, n
    do j = 1, n
      if (i + j > 6) exit outer
      s = s + 0.1d0*x(i)*x(j)
    end do
  end do outer
end subroutine iter_loops
