subroutine dup(n)
  implicit none
  integer, intent(in) :: n
  real :: a
  real :: a
  a = real(n)
end subroutine dup
