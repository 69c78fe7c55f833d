program double_equals
  implicit none
  integer :: x
  x = = 1
  print *, x
end program double_equals
