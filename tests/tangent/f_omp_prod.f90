! radtap: -head omp_likelihood -vars "x mu s" -outvars "lik peak"
! sizes: n=13
! A Gaussian likelihood as a product of densities and the largest density, reduced in
! parallel by `reduction(*: p)` and `reduction(max: peak)` (issue 45, refused before).
subroutine omp_likelihood(n, x, mu, s, lik, peak)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n), mu, s
  real(8), intent(out) :: lik, peak
  real(8) :: p, z, g
  integer :: i
  p = 1.0d0
  peak = 0.0d0
  !$omp parallel do private(z, g) reduction(*: p) reduction(max: peak)
  do i = 1, n
     z = (x(i) - mu) / s
     g = exp(-0.5d0 * z * z) / (1.0d0 + s * s)
     p = p * (0.5d0 + g)
     peak = max(peak, g)
  end do
  !$omp end parallel do
  lik = p
end subroutine omp_likelihood
