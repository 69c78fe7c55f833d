! Assumed-shape dummy arrays a(:) and a(:,:), lower bounds in dummy
! declarations, size/lbound/ubound/shape, and automatic arrays.
module shape_mod
  implicit none
contains
  subroutine describe_1d(a)
    real, intent(in) :: a(:)
    write(*,'(A,I0,A,I0,A,I0)') '1-D size ', size(a), ' bounds ', &
      lbound(a, 1), ':', ubound(a, 1)
  end subroutine describe_1d

  subroutine describe_2d(a)
    integer, intent(in) :: a(:,:)
    write(*,'(A,2I3,A,2I3,A,2I3)') '2-D shape', shape(a), ' lbound', &
      lbound(a), ' ubound', ubound(a)
  end subroutine describe_2d

  subroutine offset_view(a)
    real, intent(in) :: a(0:)
    integer :: i
    do i = lbound(a, 1), ubound(a, 1)
      write(*,'(A,I0,A,F6.2)') '  a(', i, ') = ', a(i)
    end do
  end subroutine offset_view

  function row_sums(m) result(s)
    integer, intent(in) :: m(:,:)
    integer :: s(size(m, 1))
    integer :: i
    do i = 1, size(m, 1)
      s(i) = sum(m(i, :))
    end do
  end function row_sums

  subroutine reverse_in_place(a)
    real, intent(inout) :: a(:)
    real :: tmp(size(a))
    tmp = a(size(a):1:-1)
    a = tmp
  end subroutine reverse_in_place

  real function trace(m)
    real, intent(in) :: m(:,:)
    integer :: i
    trace = 0.0
    do i = 1, min(size(m, 1), size(m, 2))
      trace = trace + m(i, i)
    end do
  end function trace
end module shape_mod

program assumed_shape
  use shape_mod
  implicit none
  real :: x(-3:3), sq(3, 3)
  integer :: m(2:4, 5), i, j

  x = [(real(i) * 0.5, i = -3, 3)]
  write(*,'(A,2I3)') 'x bounds in caller:', lbound(x), ubound(x)
  call describe_1d(x)
  call describe_1d(x(-1:3:2))
  call offset_view(x(1:3))

  do j = 1, 5
    do i = 2, 4
      m(i, j) = i * j
    end do
  end do
  call describe_2d(m)
  call describe_2d(m(3:4, 2:5:3))
  write(*,'(A,3I4)') 'row sums:', row_sums(m)

  call reverse_in_place(x)
  write(*,'(A,7F6.2)') 'reversed:', x

  sq = reshape([(real(i), i = 1, 9)], [3, 3])
  write(*,'(A,F6.1)') 'trace:', trace(sq)
  write(*,'(A,F6.1)') 'trace of 2x3 block:', trace(sq(2:3, :))
  write(*,'(A,I0)') 'total elements of m: ', size(m)
end program assumed_shape
