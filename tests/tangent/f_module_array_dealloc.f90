! radtap: -head md_head -vars "x" -outvars "y"
! sizes: n=5
! Issue 19 item 5: a module work array allocated and deallocated by the head, read by a
! called routine: the adjoint keeps it (and its adjoint) allocated until the backward sweep
! passes the ALLOCATE, instead of refusing the DEALLOCATE.
module md_mod
  implicit none
  real(8), allocatable :: work(:)
contains
  subroutine fill(x, n)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    integer :: i
    do i = 1, n
      work(i) = x(i)*x(i) + 0.5d0*x(n + 1 - i)
    end do
  end subroutine fill
  subroutine md_head(x, y, n)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    real(8), intent(out) :: y
    allocate(work(n))
    call fill(x, n)
    y = sum(sin(work)*work)
    deallocate(work)
  end subroutine md_head
end module md_mod
