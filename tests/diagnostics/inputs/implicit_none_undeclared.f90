program implicit_none_undeclared
  implicit none
  real :: y
  y = z + 1
  print *, y
end program implicit_none_undeclared
