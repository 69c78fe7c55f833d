program missing_end_if
  implicit none
  integer :: x
  x = 3
  if (x > 2) then
    print *, 'big'
end program missing_end_if
