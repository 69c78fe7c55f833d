! radtap: -head pscal -vars "x" -outvars "y"
! sizes: n=4 x=n
! A local scalar POINTER and a scalar ALLOCATABLE (allocate, assign, read,
! deallocate): in vector mode their derivatives are rank 1, allocated with nbdirsmax.
subroutine pscal(n, x, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y
  real(8), pointer :: a
  real(8), allocatable :: b
  allocate(a)
  allocate(b)
  a = sum(x*x)
  b = a*x(1)
  y = sin(a) + a*b
  deallocate(b)
  deallocate(a)
end subroutine pscal
