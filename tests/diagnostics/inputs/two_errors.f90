program two_errors
  implicit none
  real :: x, y
  x = (1.0 + 2.0
  y = 3.0 +* 4.0
  print *, x, y
end program two_errors
