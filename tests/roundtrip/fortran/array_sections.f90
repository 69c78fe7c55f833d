! Array sections with strides, negative strides, whole-array
! arithmetic, vector subscripts and sections of 2-D arrays.
program array_sections
  implicit none
  integer, parameter :: n = 10
  integer :: a(n), b(n), i, k
  real :: m(4, 5), v(5)
  integer :: idx(3) = [10, 1, 5]

  a = [(i, i = 1, n)]
  b = 0
  write(*,'(A,10I4)') 'a          :', a
  write(*,'(A,5I4)')  'a(1:n:2)   :', a(1:n:2)
  write(*,'(A,5I4)')  'a(2::2)    :', a(2::2)
  write(*,'(A,10I4)') 'a(n:1:-1)  :', a(n:1:-1)
  write(*,'(A,3I4)')  'a(:3)      :', a(:3)
  write(*,'(A,3I4)')  'a(8:)      :', a(8:)
  write(*,'(A,3I4)')  'a(idx)     :', a(idx)

  b(1:n:2) = a(2:n:2)
  b(2:n:2) = -a(1:n:2)
  write(*,'(A,10I4)') 'interleaved:', b
  b = a * 2 + 1
  write(*,'(A,10I4)') 'a*2+1      :', b
  b = a * b - 3
  write(*,'(A,10I5)') 'a*b-3      :', b
  a(2:n) = a(1:n-1)
  write(*,'(A,10I4)') 'shifted    :', a
  write(*,'(A,I0,A,I0)') 'empty section size ', size(a(5:4)), &
    ' full size ', size(a(:))

  do i = 1, 4
    m(i, :) = [(real(i + 10 * i * k), k = 1, 5)]
  end do
  write(*,'(A)') 'matrix m:'
  do i = 1, 4
    write(*,'(5F8.1)') m(i, :)
  end do
  write(*,'(A,4F8.1)') 'column 3   :', m(:, 3)
  write(*,'(A,2F8.1)') 'm(2:3, 5)  :', m(2:3, 5)
  write(*,'(A,4F8.1)') 'm(1:4:3, 2:4:2):', m(1:4:3, 2:4:2)
  v = m(4, :) - m(1, :)
  write(*,'(A,5F8.1)') 'row4-row1  :', v
  m(:, 1) = 0.0
  m(2:3, 2:3) = -1.0
  write(*,'(A,F10.1)') 'sum(m)     :', sum(m)
  write(*,'(A,2I3)') 'shape(m(2:4,1:5:2)):', shape(m(2:4, 1:5:2))
end program array_sections
