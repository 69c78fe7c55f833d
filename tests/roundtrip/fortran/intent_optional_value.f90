! Dummy argument attributes: INTENT(IN/OUT/INOUT), OPTIONAL with
! PRESENT, VALUE, and keyword actual arguments.
module argmod
  implicit none
contains
  subroutine stats(x, mean, var, minv, maxv)
    real, intent(in) :: x(:)
    real, intent(out) :: mean
    real, intent(out), optional :: var
    real, intent(out), optional :: minv, maxv
    mean = sum(x) / size(x)
    if (present(var)) var = sum((x - mean)**2) / size(x)
    if (present(minv)) minv = minval(x)
    if (present(maxv)) maxv = maxval(x)
  end subroutine stats

  subroutine accumulate(total, inc, times)
    integer, intent(inout) :: total
    integer, intent(in) :: inc
    integer, intent(in), optional :: times
    integer :: n
    n = 1
    if (present(times)) n = times
    total = total + inc * n
  end subroutine accumulate

  integer function countdown(n)
    integer, value :: n
    countdown = 0
    do while (n > 0)
      countdown = countdown + n
      n = n - 1
    end do
  end function countdown

  function greet(name, greeting) result(s)
    character(len=*), intent(in) :: name
    character(len=*), intent(in), optional :: greeting
    character(len=64) :: s
    if (present(greeting)) then
      s = greeting // ', ' // name // '!'
    else
      s = 'Hello, ' // name // '!'
    end if
  end function greet

  subroutine pass_through(a, b)
    real, intent(in) :: a
    real, intent(in), optional :: b
    call show(a, b)
  end subroutine pass_through

  subroutine show(a, b)
    real, intent(in) :: a
    real, intent(in), optional :: b
    if (present(b)) then
      write(*,'(A,2F7.2)') 'show with b:', a, b
    else
      write(*,'(A,F7.2)') 'show without b:', a
    end if
  end subroutine show
end module argmod

program intent_optional_value
  use argmod
  implicit none
  real :: data(5) = [2.0, 4.0, 4.0, 5.0, 10.0]
  real :: m, v, lo, hi
  integer :: tot, k
  call stats(data, m)
  write(*,'(A,F8.3)') 'mean only      :', m
  call stats(data, m, v)
  write(*,'(A,2F8.3)') 'mean, var      :', m, v
  call stats(data, m, maxv=hi, minv=lo)
  write(*,'(A,3F8.3)') 'mean, min, max :', m, lo, hi
  tot = 0
  call accumulate(tot, 5)
  call accumulate(tot, 3, times=4)
  call accumulate(inc=1, total=tot)
  write(*,'(A,I0)') 'total = ', tot
  k = 10
  write(*,'(A,I0,A,I0)') 'countdown(k) = ', countdown(k), ' k still ', k
  write(*,'(A)') trim(greet('World'))
  write(*,'(A)') trim(greet('Fortran', greeting='Good day'))
  call pass_through(1.5)
  call pass_through(1.5, 2.5)
end program intent_optional_value
