! radtap: -head nested_jumps -vars "x" -outvars "y z w"
! sizes: n=5
! Jumps out of nested counted loops: CYCLE outer and EXIT outer from the
! inner loop, a RETURN from two loops deep (never taken) and a GOTO out of both
! (taken). The inner loop variable must be exact in the backward sweep, whichever
! way the loop is left.
subroutine nested_jumps(n, x, y, z, w)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y, z, w
  integer :: i, j, k
  y = 1.0d0
  outer: do i = 1, n
    inner: do j = 1, n
      if (j > i) cycle outer
      y = y*x(j)*0.5d0 + x(i)
    end do inner
  end do outer
  z = 0.5d0
  rows: do i = 1, n
    cols: do j = 1, n
      if (i + j > n + 2) exit rows
      z = z*x(j)*0.7d0 + sin(x(i))
    end do cols
  end do rows
  w = z
  do i = 1, n
    do j = 1, n
      if (i + j > 3*n) return
      if (i*j > n + 1) go to 10
      w = w*x(j)*0.6d0 + x(i)*y
    end do
  end do
10 continue
  do k = 1, i + j
    w = w + 0.1d0*x(mod(k, n) + 1)*w
  end do
end subroutine nested_jumps
