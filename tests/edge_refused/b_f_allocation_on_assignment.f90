! radtap: -head "f(s)/(x)"
! sizes: n=4
! A local allocatable allocated by its first assignment (F2003 allocation on assignment):
! its adjoint `tb` was never allocated and the adjoint crashed. Refused at the assignment.
subroutine f(n, x, s)
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: s
  real(8), allocatable :: t(:)
  t = x*2.0d0
  s = sum(sin(t))
end subroutine f
