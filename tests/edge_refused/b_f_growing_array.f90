! radtap: -head "f(s)/(x)"
! sizes: n=4
! The growing-array idiom `acc = [acc, v]`: each assignment reallocates `acc` with one
! more element. The adjoint of `acc` keeps its first shape (size 0): the forward sweep lost
! the values and the gradient was 0. Refused at the assignment.
subroutine f(n, x, s)
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: s
  real(8), allocatable :: acc(:)
  integer :: i
  allocate(acc(0))
  do i = 1, n
    acc = [acc, x(i)**2]
  end do
  s = sum(acc)
end subroutine f
