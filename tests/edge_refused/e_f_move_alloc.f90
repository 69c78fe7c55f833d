! radtap: -head "f(s)/(x)"
! `call move_alloc(b, a)` with active arrays: the call was taken as an intrinsic giving `a`
! values with no derivative, and the tangent kept `a`'s old derivative (silently wrong; the
! adjoint deallocated the moved-from `b`, a run-time error). Refused at the call.
subroutine f(n, x, s)
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: s
  real(8), allocatable :: a(:), b(:)
  allocate(a(n), b(n))
  a = x**2
  b = sin(x)
  call move_alloc(b, a)
  s = sum(a*a)
end subroutine f
