! radtap: -head kalman_track -vars "q r x0" -outvars "xest trace_p"
! sizes: nobs=6
! A constant-velocity Kalman filter as in a tracking code: 2x2 state covariance, the
! predict step with MATMUL and TRANSPOSE of the transition matrix, the update with the
! innovation covariance inverted in closed form, DOT_PRODUCT for the gain, the state
! carried intent(inout) through predict/update routines in the observation loop.
module kalman2
  use iso_fortran_env, only: wp => real64
  implicit none
contains
  subroutine predict(x, p, f, qn)
    real(wp), intent(inout) :: x(2), p(2, 2)
    real(wp), intent(in) :: f(2, 2), qn
    real(wp) :: g(2, 2)
    x = matmul(f, x)
    p = matmul(matmul(f, p), transpose(f))
    g(1, 1) = 0.25_wp
    g(1, 2) = 0.5_wp
    g(2, 1) = 0.5_wp
    g(2, 2) = 1.0_wp
    p = p + qn*g
  end subroutine predict

  subroutine update(x, p, z, rn)
    real(wp), intent(inout) :: x(2), p(2, 2)
    real(wp), intent(in) :: z, rn
    real(wp) :: h(2), s, k(2), innov, ph(2)
    integer :: i, j
    h(1) = 1.0_wp
    h(2) = 0.0_wp
    ph = matmul(p, h)
    s = dot_product(h, ph) + rn
    k = ph/s
    innov = z - dot_product(h, x)
    x = x + k*innov
    do j = 1, 2
      do i = 1, 2
        p(i, j) = p(i, j) - k(i)*ph(j)
      end do
    end do
  end subroutine update
end module kalman2

subroutine kalman_track(nobs, q, r, x0, xest, trace_p)
  use kalman2
  implicit none
  integer, intent(in) :: nobs
  real(wp), intent(in) :: q, r, x0(2)
  real(wp), intent(out) :: xest(2), trace_p
  real(wp) :: x(2), p(2, 2), f(2, 2), z, dt
  integer :: k
  dt = 0.5_wp
  f = reshape([1.0_wp, 0.0_wp, dt, 1.0_wp], [2, 2])
  x = x0
  p = 0.0_wp
  p(1, 1) = 1.0_wp
  p(2, 2) = 1.0_wp
  do k = 1, nobs
    call predict(x, p, f, 0.1_wp*q)
    z = 0.3_wp*k*dt + 0.05_wp*sin(real(k, wp))
    call update(x, p, z, r)
  end do
  xest = x
  trace_p = 10.0_wp*(p(1, 1) + p(2, 2))
end subroutine kalman_track
