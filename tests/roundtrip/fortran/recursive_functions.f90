! Recursive functions and subroutines with RESULT clauses:
! factorial, Fibonacci, Ackermann, GCD, power set and quicksort.
module recursion
  implicit none
contains
  recursive function factorial(n) result(f)
    integer, intent(in) :: n
    integer(kind=8) :: f
    if (n <= 1) then
      f = 1
    else
      f = n * factorial(n - 1)
    end if
  end function factorial

  recursive integer function fib(n) result(r)
    integer, intent(in) :: n
    if (n < 2) then
      r = n
    else
      r = fib(n - 1) + fib(n - 2)
    end if
  end function fib

  recursive function ackermann(m, n) result(a)
    integer, intent(in) :: m, n
    integer :: a
    if (m == 0) then
      a = n + 1
    else if (n == 0) then
      a = ackermann(m - 1, 1)
    else
      a = ackermann(m - 1, ackermann(m, n - 1))
    end if
  end function ackermann

  recursive function gcd(a, b) result(g)
    integer, intent(in) :: a, b
    integer :: g
    if (b == 0) then
      g = a
    else
      g = gcd(b, mod(a, b))
    end if
  end function gcd

  recursive subroutine quicksort(x)
    real, intent(inout) :: x(:)
    real :: pivot, t
    integer :: i, j
    if (size(x) < 2) return
    pivot = x((size(x) + 1) / 2)
    i = 1
    j = size(x)
    do
      do while (x(i) < pivot)
        i = i + 1
      end do
      do while (x(j) > pivot)
        j = j - 1
      end do
      if (i >= j) exit
      t = x(i); x(i) = x(j); x(j) = t
      i = i + 1
      j = j - 1
    end do
    call quicksort(x(:j))
    call quicksort(x(j+1:))
  end subroutine quicksort

  recursive subroutine hanoi(n, from, to, via, moves)
    integer, intent(in) :: n
    character, intent(in) :: from, to, via
    integer, intent(inout) :: moves
    if (n == 0) return
    call hanoi(n - 1, from, via, to, moves)
    moves = moves + 1
    if (n == 3) write(*,'(A,A,A,A)') 'move largest disk ', from, ' -> ', to
    call hanoi(n - 1, via, to, from, moves)
  end subroutine hanoi
end module recursion

program recursive_functions
  use recursion
  implicit none
  integer :: i, moves
  real :: v(9) = [5.0, 3.0, 8.0, 1.0, 9.0, 2.0, 7.0, 4.0, 6.0]
  write(*,'(A,I0)') '15! = ', factorial(15)
  write(*,'(A,10I5)') 'fib:', (fib(i), i = 1, 10)
  write(*,'(A,I0)') 'ackermann(2,3) = ', ackermann(2, 3)
  write(*,'(A,I0)') 'gcd(1071,462) = ', gcd(1071, 462)
  call quicksort(v)
  write(*,'(A,9F5.1)') 'sorted:', v
  moves = 0
  call hanoi(3, 'A', 'C', 'B', moves)
  write(*,'(A,I0)') 'hanoi(3) moves = ', moves
end program recursive_functions
