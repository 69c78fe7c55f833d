! radtap: -head blk -vars "x" -outvars "y"
! sizes:
! BLOCK construct with its own local shadowing nothing, inside a loop.
subroutine blk(x, y)
  real(8), intent(in) :: x(3)
  real(8), intent(out) :: y
  integer :: i
  y = 0.5d0
  do i = 1, 3
    block
      real(8) :: t
      t = x(i)*y
      y = y + t*t
    end block
  end do
end subroutine blk
