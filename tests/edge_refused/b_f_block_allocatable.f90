! radtap: -head "blk(y)/(x)"
! sizes: n=4
! A BLOCK with an ALLOCATABLE local, in a loop: the local is deallocated at each end of the
! block, so it cannot move to the procedure as the locals of other blocks do. The adjoint
! refuses it at the BLOCK, saying why.
subroutine blk(n, x, y)
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y
  integer :: i
  y = 0.0d0
  do i = 1, n
    block
      real(8), allocatable :: t(:)
      allocate(t(i))
      t = x(i)
      y = y + sum(t*t)
    end block
  end do
end subroutine blk
