! I/O statements whose control part ends a line: the item list continues on the
! next line (`write (msg, fmt) &`), with a comment after the `&`, a leading `&`
! on the continued line, and READ/PRINT continued the same way.
program continued_io_items
  implicit none
  character(len=40) :: msg
  integer :: n, k
  real :: r
  n = 3
  write(msg,'(a,i0)') &
       'value: ', n
  print '(a)', trim(msg)
  write(*,'(a,i0,a,i0)') & ! items on the next line
       'pair: ', n, &
       ' and ', 2*n
  write(msg,'(i4,f8.3)') &
     & 17, 2.5
  read(msg,'(i4,f8.3)') &
       k, r
  print '(a,i0,f8.3)', &
       'read back: ', k, r
  print *, &
       'list-directed', n + k
end program continued_io_items
