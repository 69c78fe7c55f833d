! radtap: -head merge_act -vars "x" -outvars "y"
! sizes: flag=2 n=5
! a is active on one branch, constant on the other (implicit zero at the merge;
! decided by integer flag and by x(3) > 5, never true); b goes inactive (b = 1)
! then active again; in the loop t is active on odd i, constant on even i.
subroutine merge_act(flag, n, x, y)
  implicit none
  integer, intent(in) :: flag, n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y
  real(8) :: a, b, c, t
  integer :: i
  if (flag > 0) then
    a = x(1)*x(2)
  else
    a = 2.5d0
  end if
  if (x(3) > 5.0d0) then
    c = 3.0d0
  else
    c = x(3)**2
  end if
  b = x(2) + a
  y = b*a
  b = 1.0d0
  y = y + b
  b = b + x(3)*0.5d0
  y = y*b
  do i = 1, n
    if (mod(i, 2) == 0) then
      t = 0.5d0
    else
      t = x(i)
    end if
    y = y + t*c
  end do
end subroutine merge_act
