#define N 3
! the error below must be reported on line 6 of this file
#ifdef N
program cpp_line_map
  real :: x
  x = = N
#endif
end program cpp_line_map
