! radtap: -head lex -vars "x" -outvars "y"
! sizes: n=5
! Labelled EXIT and CYCLE three loops deep: exit the middle loop, cycle the
! outer one, plain exit of the inner one.
subroutine lex(n, x, y)
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y
  integer :: i, j, k
  y = 1.0d0
  outer: do i = 1, n
    mid: do j = 1, n
      inner: do k = 1, n
        if (k > j) exit inner
        if (i + j + k == 6) cycle outer
        if (j > 3) exit mid
        y = y*0.95d0 + x(i)*x(k)
      end do inner
      y = y + 0.1d0*x(j)
    end do mid
  end do outer
end subroutine lex
