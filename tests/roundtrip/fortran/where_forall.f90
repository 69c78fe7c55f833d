! Masked array assignment with WHERE / ELSEWHERE (including masked
! ELSEWHERE and the single-statement form) and FORALL constructs.
program where_forall
  implicit none
  integer, parameter :: n = 8
  real :: x(n), y(n), z(n)
  integer :: a(4, 4), i, j
  real :: h(5, 5)

  x = [(real(i) - 4.5, i = 1, n)]
  write(*,'(A,8F7.2)') 'x        :', x

  where (x > 0.0)
    y = sqrt(x)
  elsewhere
    y = -1.0
  end where
  write(*,'(A,8F7.3)') 'sqrt>0   :', y

  where (x < -2.0)
    z = 1.0
  elsewhere (x < 2.0)
    z = 2.0
  elsewhere
    z = 3.0
  end where
  write(*,'(A,8F7.2)') 'banded   :', z

  where (abs(x) < 1.0) z = 0.0
  write(*,'(A,8F7.2)') 'zeroed   :', z

  named: where (x >= 0.0)
    x = x * 2.0
  end where named
  write(*,'(A,8F7.2)') 'doubled  :', x

  forall (i = 1:4, j = 1:4)
    a(i, j) = 10 * i + j
  end forall
  do i = 1, 4
    write(*,'(A,4I4)') 'a row    :', a(i, :)
  end do

  forall (i = 1:4, j = 1:4, i > j) a(i, j) = 0
  forall (i = 1:4) a(i, i) = -a(i, i)
  do i = 1, 4
    write(*,'(A,4I4)') 'upper    :', a(i, :)
  end do

  h = 0.0
  forall (i = 1:5)
    h(i, i) = 2.0
  end forall
  forall (i = 1:4)
    h(i, i + 1) = -1.0
    h(i + 1, i) = -1.0
  end forall
  do i = 1, 5
    write(*,'(A,5F6.1)') 'h        :', h(i, :)
  end do

  forall (i = 1:n:2) y(i) = real(i)
  write(*,'(A,8F7.2)') 'odd idx  :', y
end program where_forall
