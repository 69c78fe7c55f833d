! Program termination with STOP from inside a procedure and loop,
! plus RETURN from the middle of subroutines and functions.
module search_mod
  implicit none
contains
  integer function first_negative(a)
    integer, intent(in) :: a(:)
    integer :: i
    first_negative = 0
    do i = 1, size(a)
      if (a(i) < 0) then
        first_negative = i
        return
      end if
    end do
  end function first_negative

  subroutine check_range(v, lo, hi, ok)
    real, intent(in) :: v, lo, hi
    logical, intent(out) :: ok
    ok = .false.
    if (v < lo) return
    if (v > hi) return
    ok = .true.
  end subroutine check_range

  subroutine finish(code)
    integer, intent(in) :: code
    write(*,'(A,I0)') 'finishing with internal code ', code
    write(*,'(A)') 'calling stop now'
    stop
  end subroutine finish
end module search_mod

program stop_statement
  use search_mod
  implicit none
  integer :: data(6) = [4, 8, 15, -16, 23, -42]
  integer :: idx, iter
  logical :: ok
  real :: probes(4) = [-1.0, 0.5, 1.0, 2.5]

  idx = first_negative(data)
  write(*,'(A,I0,A,I0)') 'first negative at ', idx, ': ', data(idx)
  write(*,'(A,I0)') 'none in first three: ', first_negative(data(1:3))

  do idx = 1, size(probes)
    call check_range(probes(idx), 0.0, 1.0, ok)
    write(*,'(A,F5.1,A,L2)') 'probe', probes(idx), ' in [0,1]:', ok
  end do

  iter = 0
  do
    iter = iter + 1
    write(*,'(A,I0)') 'iteration ', iter
    if (iter == 3) call finish(iter)
  end do
  write(*,'(A)') 'never printed'
end program stop_statement
