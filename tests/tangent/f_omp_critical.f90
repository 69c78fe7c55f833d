! radtap: -head omp_critical -vars "x p" -outvars "y e"
! sizes: n=9
! `!$omp critical … !$omp end critical` in a parallel loop (issue 45): each iteration
! adds its share to the shared totals e and acc inside critical sections (one named, a
! sequence of two updates), with private temporaries. The tangent keeps the derivative
! updates inside the critical sections; the adjoint's critical sections read ē and acc̄
! and increment p̄ and the temporaries' adjoints, its iterations recomputed on their
! threads.
subroutine omp_critical(n, x, p, y, e)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n), p
  real(8), intent(out) :: y(n), e
  integer :: i
  real(8) :: t, u, acc
  e = 0.0d0
  acc = 0.0d0
  !$omp parallel do private(t, u)
  do i = 1, n
    t = x(i) * x(i)
    u = cos(t) * p
    y(i) = u + t * x(i)
    !$omp critical (energy)
    e = e + u * t
    e = e - 0.1d0 * p * x(i)
    !$omp end critical (energy)
    !$omp critical
    acc = acc + 0.5d0 * u + p * x(i)
    !$omp end critical
  end do
  !$omp end parallel do
  e = e + acc * acc
end subroutine omp_critical
