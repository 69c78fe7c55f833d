! Internal procedures after CONTAINS in a main program and inside
! a module subroutine, with host association of variables.
module host_mod
  implicit none
contains
  subroutine process(values, total, biggest)
    real, intent(in) :: values(:)
    real, intent(out) :: total, biggest
    integer :: i
    total = 0.0
    biggest = -huge(1.0)
    do i = 1, size(values)
      call visit(values(i))
    end do
    total = rounded(total)
  contains
    subroutine visit(v)
      real, intent(in) :: v
      total = total + weight(i) * v
      if (v > biggest) biggest = v
    end subroutine visit

    real function weight(k)
      integer, intent(in) :: k
      weight = 1.0 / real(k)
    end function weight

    real function rounded(x)
      real, intent(in) :: x
      rounded = real(nint(x * 1000.0)) / 1000.0
    end function rounded
  end subroutine process
end module host_mod

program internal_procedures
  use host_mod
  implicit none
  integer :: counter
  real :: data(4) = [3.0, 1.0, 4.0, 1.5]
  real :: t, b

  counter = 0
  call tick()
  call tick()
  call tick(5)
  write(*,'(A,I0)') 'counter = ', counter
  write(*,'(A,F10.4)') 'hypot(3,4) = ', hyp(3.0, 4.0)
  call process(data, t, b)
  write(*,'(A,F10.4,A,F6.2)') 'weighted total = ', t, ' biggest = ', b
  write(*,'(A,I0)') 'fib(15) = ', fib(15)
  call show_twice('internal')

contains

  subroutine tick(step)
    integer, intent(in), optional :: step
    if (present(step)) then
      counter = counter + step
    else
      counter = counter + 1
    end if
  end subroutine tick

  real function hyp(a, b)
    real, intent(in) :: a, b
    hyp = sqrt(a*a + b*b)
  end function hyp

  integer function fib(n)
    integer, intent(in) :: n
    integer :: k, f0, f1, f2
    f0 = 0
    f1 = 1
    do k = 2, n
      f2 = f0 + f1
      f0 = f1
      f1 = f2
    end do
    fib = f1
  end function fib

  subroutine show_twice(s)
    character(len=*), intent(in) :: s
    write(*,'(A)') s // ' ' // s
    counter = counter * 2
    write(*,'(A,I0)') 'counter doubled = ', counter
  end subroutine show_twice
end program internal_procedures
