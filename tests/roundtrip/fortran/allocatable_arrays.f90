! Allocatable arrays: ALLOCATE with bounds, DEALLOCATE, ALLOCATED,
! STAT=, reallocation to grow, and allocatable function results.
module alloc_utils
  implicit none
contains
  subroutine push(arr, val)
    integer, allocatable, intent(inout) :: arr(:)
    integer, intent(in) :: val
    integer, allocatable :: tmp(:)
    integer :: n
    if (.not. allocated(arr)) then
      allocate(arr(1))
      arr(1) = val
      return
    end if
    n = size(arr)
    allocate(tmp(n + 1))
    tmp(1:n) = arr
    tmp(n + 1) = val
    call move_alloc(tmp, arr)
  end subroutine push

  function range_array(lo, hi) result(r)
    integer, intent(in) :: lo, hi
    integer, allocatable :: r(:)
    integer :: i
    allocate(r(hi - lo + 1))
    r = [(i, i = lo, hi)]
  end function range_array
end module alloc_utils

program allocatable_arrays
  use alloc_utils
  implicit none
  real, allocatable :: a(:), m(:,:)
  integer, allocatable :: stack(:), r(:)
  integer :: n, i, j, ierr

  write(*,'(A,L2)') 'a allocated at start:', allocated(a)
  n = 6
  allocate(a(n), stat=ierr)
  write(*,'(A,I0)') 'stat = ', ierr
  a = [(real(i)**2, i = 1, n)]
  write(*,'(A,6F7.1)') 'a =', a
  deallocate(a)
  write(*,'(A,L2)') 'a allocated after dealloc:', allocated(a)

  allocate(a(-2:2))
  a = 0.0
  a(-2) = -2.0
  a(2) = 2.0
  write(*,'(A,I3,I3,5F6.1)') 'bounds and values:', lbound(a, 1), ubound(a, 1), a
  deallocate(a)

  allocate(m(3, 4))
  do j = 1, 4
    do i = 1, 3
      m(i, j) = real(i * 10 + j)
    end do
  end do
  write(*,'(A,2I3)') 'shape of m:', shape(m)
  do i = 1, 3
    write(*,'(4F6.0)') m(i, :)
  end do
  deallocate(m)

  do i = 1, 5
    call push(stack, i * i)
  end do
  write(*,'(A,I0,A,5I4)') 'stack size ', size(stack), ':', stack

  r = range_array(3, 7)
  write(*,'(A,5I3)') 'range:', r
  r = [r, 100]
  write(*,'(A,I0)') 'after auto realloc size ', size(r)
  if (allocated(stack)) deallocate(stack)
  if (allocated(r)) deallocate(r)
  write(*,'(A,2L2)') 'all freed:', .not. allocated(stack), .not. allocated(r)
end program allocatable_arrays
