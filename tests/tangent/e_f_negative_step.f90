! radtap: -head nstep -vars "x" -outvars "y"
! sizes: n=7
! Negative-step DO loops: step -1, step -2 (odd count), a variable step, and
! the loop variable used after the loop.
subroutine nstep(n, x, y)
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y
  integer :: i, st
  y = 1.0d0
  do i = n, 1, -1
    y = y*0.8d0 + x(i)
  end do
  do i = n, 2, -2
    y = y + x(i)*x(i - 1)
  end do
  st = -3
  do i = n, 1, st
    y = y*x(i)
  end do
  y = y + dble(i)*x(1)
end subroutine nstep
