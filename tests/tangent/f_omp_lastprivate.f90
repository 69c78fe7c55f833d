! radtap: -head omp_flux -vars "u" -outvars "f"
! sizes: n=11
! Face values of a 1-D finite-volume sweep, the last face's value kept by `lastprivate(q)`
! for the boundary flux after the loop (issue 45: refused in the adjoint before).
subroutine omp_flux(n, u, f)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: u(n)
  real(8), intent(out) :: f(n)
  real(8) :: q
  integer :: i
  q = 0.0d0
  !$omp parallel do lastprivate(q)
  do i = 1, n - 1
     q = 0.5d0 * (u(i) + u(i + 1)) + 0.1d0 * u(i) * u(i + 1)
     f(i) = q * q
  end do
  !$omp end parallel do
  f(n) = 2.0d0 * q + u(1) * q
end subroutine omp_flux
