! radtap: -head "omp_sec(y)/(x)"
! `!$omp sections` (issue 45): refused at its line in every mode.
subroutine omp_sec(x, y)
  implicit none
  real(8), intent(in) :: x(2)
  real(8), intent(out) :: y(2)
  !$omp parallel sections
  !$omp section
  y(1) = sin(x(1))
  !$omp section
  y(2) = cos(x(2))
  !$omp end parallel sections
end subroutine omp_sec
