! radtap: -head poisson_jacobi -vars "src kappa" -outvars "phi resid"
! sizes: n=10 nsweep=6
! Weighted Jacobi sweeps for a 1-D variable-coefficient Poisson problem as in a multigrid
! smoother: the head ALLOCATEs its work arrays from n, a module procedure applies the
! operator, the sweeps update the iterate in whole-array form with shifted sections, and
! the residual norm is reduced with SUM and MAXVAL before the work is DEALLOCATEd.
module poisson_ops
  use iso_fortran_env, only: dp => real64
  implicit none
  real(dp), parameter :: omega = 2.0_dp/3.0_dp
contains
  subroutine apply_op(n, h, kf, u, au)
    integer, intent(in) :: n
    real(dp), intent(in) :: h, kf(0:n), u(0:n + 1)
    real(dp), intent(out) :: au(n)
    integer :: i
    do i = 1, n
      au(i) = -(kf(i)*(u(i + 1) - u(i)) - kf(i - 1)*(u(i) - u(i - 1)))/h**2
    end do
  end subroutine apply_op
end module poisson_ops

subroutine poisson_jacobi(n, nsweep, src, kappa, phi, resid)
  use poisson_ops
  implicit none
  integer, intent(in) :: n, nsweep
  real(dp), intent(in) :: src(n), kappa
  real(dp), intent(out) :: phi(n), resid
  real(dp), allocatable :: u(:), kf(:), au(:), diag(:)
  real(dp) :: h
  integer :: i, isweep
  allocate(u(0:n + 1), kf(0:n), au(n), diag(n))
  h = 1.0_dp/(n + 1)
  do i = 0, n
    kf(i) = kappa*(1.0_dp + 0.5_dp*sin(3.0_dp*(i + 0.5_dp)*h))
  end do
  diag = (kf(1:n) + kf(0:n - 1))/h**2
  u = 0.0_dp
  do isweep = 1, nsweep
    call apply_op(n, h, kf, u, au)
    u(1:n) = u(1:n) + omega*(src - au)/diag
  end do
  call apply_op(n, h, kf, u, au)
  phi = 100.0_dp*u(1:n)
  resid = sqrt(sum((src - au)**2)/n) + 0.1_dp*maxval(abs(src - au))
  deallocate(u, kf, au, diag)
end subroutine poisson_jacobi
