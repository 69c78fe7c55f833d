! radtap: -head ih_head -vars "x" -outvars "y"
! sizes: n=5
! An internal procedure of an external subroutine that reads the host's dummy `x` and writes
! the host's local `acc` by host association (issue 19 item 3), called in a loop, and a
! passive internal function of the host's integer dummy that the derivative keeps calling.
subroutine ih_head(x, y, n)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y
  real(8) :: acc
  integer :: i
  acc = 0.5d0
  do i = 1, n
    call step(rev(i))
  end do
  y = acc*x(1)
contains
  subroutine step(k)
    integer, intent(in) :: k
    acc = acc + sin(x(k))*x(k) + 0.1d0*acc
  end subroutine step
  integer function rev(k)
    integer, intent(in) :: k
    rev = n + 1 - k
  end function rev
end subroutine ih_head
