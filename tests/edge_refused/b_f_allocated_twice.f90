! radtap: -head "f(s)/(x)"
! sizes: n=4
! A local allocatable deallocated and allocated again: the adjoint delays the DEALLOCATE
! to the backward sweep, so the second ALLOCATE found the array allocated (a run-time
! error). Refused at the second ALLOCATE.
subroutine f(n, x, s)
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: s
  real(8), allocatable :: w(:)
  allocate(w(n))
  w = x**2
  s = sum(w)
  deallocate(w)
  allocate(w(n))
  w = sin(x)
  s = s + sum(w*w)
  deallocate(w)
end subroutine f
