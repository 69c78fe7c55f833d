! radtap: -head "omp_sec(y)/(x)"
! `!$omp sections` inside an `!$omp parallel` region (issue 45; `parallel sections` is
! differentiated): refused at its line in every mode.
subroutine omp_sec(x, y)
  implicit none
  real(8), intent(in) :: x(2)
  real(8), intent(out) :: y(2)
  !$omp parallel
  !$omp sections
  !$omp section
  y(1) = sin(x(1))
  !$omp section
  y(2) = cos(x(2))
  !$omp end sections
  !$omp end parallel
end subroutine omp_sec
