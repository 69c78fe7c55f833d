! Formatted output: character format strings, format variables,
! repeat counts, nested groups, implied-do output lists, I0/F0.d,
! ES/EN descriptors, tabs, slashes, colon editing and non-advancing I/O.
program formatted_output
  implicit none
  integer, parameter :: n = 5
  integer :: i, j
  real :: a(n), m(3, 3)
  double precision :: d
  character(len=32) :: fmt
  character(len=40) :: line

  a = [(1.5 * real(i), i = 1, n)]
  d = 12345.6789d0
  m = reshape([(real(i), i = 1, 9)], [3, 3])

  print *, 'list-directed print of integers:', 1, 22, 333
  write(*,*) 'list-directed write, implied do:', (a(i), i = 1, 3)
  write(*,'(A,F10.4)') 'A,F10.4  :', a(1)
  write(*,'(A,5F7.2)') 'array    :', a
  write(*,'(A,*(I3))') 'star rep :', (i * i, i = 1, 6)
  write(*,'(A,I0,A,F0.3)') 'I0/F0.3  : ', 42, ' and ', 3.14159
  write(*,'(A,ES16.8)') 'ES16.8   :', d
  write(*,'(A,EN14.4)') 'EN14.4   :', d
  write(*,'(A,E14.6E3)') 'E14.6E3  :', d
  write(*,'(A,G14.6)') 'G14.6    :', d
  write(*,'(A,I8.5,A,B8.8,A,O4,A,Z4)') 'I8.5=', 42, ' B8.8=', 42, &
    ' O4=', 42, ' Z4=', 42

  write(*,'(3(A,I2,:,", "))') 'x', 1, 'y', 2, 'z', 3
  write(*,'(2(I3,1X),/,2(I3,1X))') 10, 20, 30, 40
  write(*,'(A,T20,A,TL5,A)') 'start', 'col20', '<<'
  write(*,'(3(F5.1,2X))') ((m(i, j), j = 1, 3), i = 1, 3)
  write(*,'(A)') 'matrix by rows with implied do:'
  do i = 1, 3
    write(*,'(3F6.1)') (m(i, j), j = 1, 3)
  end do

  fmt = '(A,I4,A,F8.3)'
  do i = 1, 3
    write(*,fmt) 'row', i, ' value', a(i) ** 2
  end do
  write(fmt, '(A,I0,A)') '(A,', n, 'I4)'
  write(*,fmt) 'built fmt:', (i * 10, i = 1, n)

  write(line, '(A,I3.3,A)') 'item-', 7, '.dat'
  write(*,'(A)') 'internal write -> ' // trim(line)

  write(*,'(A)', advance='no') 'no advance: '
  do i = 1, n
    write(*,'(I2)', advance='no') i
  end do
  write(*,'(A)') ' done'
  write(*,100) 'labelled format', d
100 format (1X, A, ' -> ', F12.3)
  write(*,'(L1,1X,L5)') .true., .false.
  write(*,'(A,SP,I5,SS,I5)') 'sign control:', 7, 7
  write(*,'("literal in format ",I0)') 99
end program formatted_output
