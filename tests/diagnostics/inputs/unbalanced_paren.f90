program unbalanced_paren
  implicit none
  real :: y
  y = (1.0 + (2.0 * 3.0)
  print *, y
end program unbalanced_paren
