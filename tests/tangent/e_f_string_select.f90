! radtap: -head ssel -vars "x" -outvars "y"
! sizes:
! SELECT CASE on a character variable set inside the routine, with a range
! and a default.
subroutine ssel(x, y)
  real(8), intent(in) :: x(3)
  real(8), intent(out) :: y
  character(len=4) :: mode
  integer :: i
  y = 1.0d0
  do i = 1, 3
    mode = 'aaa'
    if (i == 2) mode = 'mid'
    if (i == 3) mode = 'zzz'
    select case (mode)
    case ('aaa')
      y = y*x(i)
    case ('b':'n')
      y = y + x(i)*x(i)
    case default
      y = y - 0.5d0*x(i)
    end select
  end do
end subroutine ssel
