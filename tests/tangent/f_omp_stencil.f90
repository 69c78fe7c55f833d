! radtap: -head omp_stencil -vars "x a" -outvars "y"
! sizes: n=9
! An OpenMP stencil (issue 45): each iteration writes its own y(i) and reads its
! neighbours x(i-1), x(i+1); the adjoint loop is parallel too, its increments to the
! neighbours' adjoints atomic, the shared scalar a's adjoint a reduction.
subroutine omp_stencil(n, x, a, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n), a
  real(8), intent(out) :: y(n)
  integer :: i
  y(1) = x(1)
  y(n) = x(n)
  !$omp parallel do
  do i = 2, n - 1
    y(i) = a * x(i - 1) * x(i) + sin(x(i + 1)) - 0.5d0 * x(i)
  end do
  !$omp end parallel do
end subroutine omp_stencil
