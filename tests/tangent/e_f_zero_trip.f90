! radtap: -head ztrip -vars "x" -outvars "y"
! sizes: n=4
! Zero-trip DO loops (n+1 to n, and n to 1 with positive step), a DO WHILE
! never entered, and an empty section.
subroutine ztrip(n, x, y)
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y
  integer :: i
  y = x(1)
  do i = n + 1, n
    y = y*100.0d0
  end do
  do i = n, 1
    y = 0.0d0
  end do
  do while (i > 100)
    y = 0.0d0
  end do
  y = y + sum(x(3:2)) + x(n)*y
end subroutine ztrip
