program missing_end_select
  implicit none
  integer :: k
  k = 2
  select case (k)
  case (1)
    print *, 'one'
  case default
    print *, 'other'
end program missing_end_select
