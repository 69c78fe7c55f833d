! radtap: -head omp_sections -vars "x" -outvars "y"
! sizes: n=4
! `!$omp parallel sections … !$omp section … !$omp end parallel sections` (issue 45):
! the first section without its `!$omp section` line, each writing its own elements of y
! and a private temporary t. The tangent keeps each section's derivative statements in its
! section; the adjoint reverses the construct as sections, each backward section
! recomputing its t on its own thread, the increments to x̄(1), x̄(2) and x̄(4), which
! several sections read, atomic.
subroutine omp_sections(n, x, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y(3)
  real(8) :: t
  !$omp parallel sections private(t)
  t = sin(x(1)) * x(2)
  y(1) = t * t
  !$omp section
  t = cos(x(3)) + x(1)
  y(2) = exp(t) * x(4)
  !$omp section
  y(3) = x(2) * x(4) + x(1)
  !$omp end parallel sections
end subroutine omp_sections
