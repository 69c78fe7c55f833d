! radtap: -head omp_region -vars "x w" -outvars "y s"
! sizes: n=8
! A parallel region whose work is one `!$omp do` loop with private temporaries and a
! reduction (issue 45): each backward iteration recomputes t and u on its thread.
subroutine omp_region(n, x, w, y, s)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n), w(n)
  real(8), intent(out) :: y(n), s
  integer :: i
  real(8) :: t, u
  s = 0.0d0
  !$omp parallel private(t, u) shared(x, w, y)
  !$omp do reduction(+: s) &
  !$omp& schedule(static)
  do i = 1, n
    t = exp(0.3d0 * x(i))
    u = t * w(i)
    if (u > 1.0d0) u = sqrt(u)
    y(i) = u * u + t * x(i)
    s = s + t * w(i)
  end do
  !$omp end do
  !$omp end parallel
end subroutine omp_region
