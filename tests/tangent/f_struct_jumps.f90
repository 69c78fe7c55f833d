! radtap: -head sj_exit -vars "x" -outvars "y z"
! sizes: n=9
! Loops with jumps reversed as loops (issue 21 item 8): a DO left by EXIT in
! the middle of its body; CYCLE and two EXITs, one in a nested IF with code
! after it in the arm; a DO WHILE with CYCLE and EXIT; a DO with step -2 left
! by EXIT; a DO whose start the body changes; a named loop left by its own
! name; nested loops whose inner loop exits and cycles.
subroutine sj_exit(n, x, y, z)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y, z
  integer :: i, j, k, m
  y = 1.0d0
  z = 0.0d0
  do i = 1, n
    y = y*(1.0d0 + 0.1d0*sin(x(i)))
    if (i > n - 3) exit
    z = z + y*x(i)
  end do
  do i = 2, n
    if (mod(i, 3) == 0) cycle
    z = z + 0.5d0*x(i)*y
    if (i == 5) then
      z = z*x(1)
      if (x(2) > 0.1d0) exit
      z = z + 1.0d0
    end if
    y = y + 0.01d0*z
    if (i >= 7) exit
  end do
  k = 0
  do while (k < n)
    k = k + 1
    if (mod(k, 2) == 0) cycle
    if (k > 5) exit
    y = y + cos(x(k))*z*0.1d0
  end do
  do i = n, 1, -2
    z = z + 0.1d0*y*x(i)
    if (i < 4) exit
    y = y*0.9d0
  end do
  m = 2
  do i = m, n
    m = m + 1
    z = z + 0.05d0*x(i)*x(m - 1)
    if (m > 5) exit
  end do
  outer: do i = 1, n
    y = y + 0.02d0*x(i)*z
    if (i == 3) cycle outer
    if (i > 5) exit outer
    z = z*0.98d0
  end do outer
  do i = 1, n
    do j = 1, n
      if (j > i) exit
      if (mod(i + j, 2) == 1) cycle
      y = y + 0.01d0*x(i)*x(j)*z
    end do
    if (i == 4) exit
  end do
end subroutine sj_exit
