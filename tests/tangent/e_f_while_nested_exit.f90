! radtap: -head wne -vars "x" -outvars "y"
! sizes: n=4
! DO WHILE containing a counted loop left by EXIT, an unbounded DO left by a
! named EXIT from an inner IF block.
subroutine wne(n, x, y)
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y
  integer :: i, k
  y = 0.5d0
  k = 0
  do while (k < n)
    k = k + 1
    do i = 1, n
      if (i > k) exit
      y = y*0.9d0 + x(i)*x(k)
    end do
  end do
  k = 0
  forever: do
    k = k + 1
    if (k >= 3) then
      if (k == 3) exit forever
    end if
    y = y + x(k)**2
  end do forever
end subroutine wne
