! radtap: -head flvafter -vars "x" -outvars "y"
! sizes: n=5
! A DO loop whose body the forward sweep does not need, and whose variable's value after
! the loop (n, the DO's exit value) a derivative reads: the forward sweep must still run it.
subroutine flvafter(n, x, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y(2)
  integer :: i
  real(8) :: w
  y(2) = 0.0d0
  do i = 1, n - 2
    y(2) = y(2) + x(i)**2
  end do
  w = x(1)
  do i = 2, n
    w = w*0.5d0 + x(i)
  end do
  y(1) = x(1) + w*i
end subroutine flvafter
