! radtap: -head gp_loglik -vars "theta y" -outvars "nll"
! sizes: n=6
! A Gaussian-process negative log-likelihood as a statistics code computes it: the
! covariance K = s^2 exp(-(ti-tj)^2/(2 l^2)) + sigma^2 I built in a work array with a
! leading dimension LDA larger than N (LAPACK convention, explicit-shape `a(lda,*)`),
! an unblocked Cholesky factorisation in the DPOTF2 style (upper-triangle `U^T U`, with
! a column DOT product through an assumed-size dummy), forward and back substitution,
! and the log-determinant from the diagonal.
module gp_linalg
  use iso_fortran_env, only: dp => real64
  implicit none
contains
  function ddot_cols(n, x, y) result(s)
    integer, intent(in) :: n
    real(dp), intent(in) :: x(*), y(*)
    real(dp) :: s
    integer :: i
    s = 0.0_dp
    do i = 1, n
      s = s + x(i)*y(i)
    end do
  end function ddot_cols

  subroutine potf2_upper(n, a, lda, info)
    integer, intent(in) :: n, lda
    real(dp), intent(inout) :: a(lda, *)
    integer, intent(out) :: info
    integer :: j, i
    real(dp) :: ajj
    info = 0
    do j = 1, n
      ajj = a(j, j) - ddot_cols(j - 1, a(1, j), a(1, j))
      if (ajj <= 0.0_dp) then
        info = j
        return
      end if
      ajj = sqrt(ajj)
      a(j, j) = ajj
      do i = j + 1, n
        a(j, i) = (a(j, i) - ddot_cols(j - 1, a(1, j), a(1, i)))/ajj
      end do
    end do
  end subroutine potf2_upper

  subroutine potrs_upper(n, a, lda, b)
    integer, intent(in) :: n, lda
    real(dp), intent(in) :: a(lda, *)
    real(dp), intent(inout) :: b(n)
    integer :: i, k
    ! U^T z = b
    do i = 1, n
      do k = 1, i - 1
        b(i) = b(i) - a(k, i)*b(k)
      end do
      b(i) = b(i)/a(i, i)
    end do
    ! U x = z
    do i = n, 1, -1
      do k = i + 1, n
        b(i) = b(i) - a(i, k)*b(k)
      end do
      b(i) = b(i)/a(i, i)
    end do
  end subroutine potrs_upper
end module gp_linalg

subroutine gp_loglik(n, theta, y, nll)
  use iso_fortran_env, only: dp => real64
  use gp_linalg, only: potf2_upper, potrs_upper
  implicit none
  integer, intent(in) :: n
  real(dp), intent(in) :: theta(3), y(n)
  real(dp), intent(out) :: nll
  integer, parameter :: lda = 16
  real(dp) :: k(lda, lda), alpha(n), t(n), s2, ell, sig2
  real(dp), parameter :: pi = 3.141592653589793_dp
  integer :: i, j, info
  s2 = theta(1)**2
  ell = theta(2)
  sig2 = 0.1_dp*theta(3)**2
  do i = 1, n
    t(i) = 0.4_dp*real(i, dp)
  end do
  do j = 1, n
    do i = 1, j
      k(i, j) = s2*exp(-(t(i) - t(j))**2/(2.0_dp*ell**2))
    end do
    k(j, j) = k(j, j) + sig2
  end do
  call potf2_upper(n, k, lda, info)
  alpha = y
  call potrs_upper(n, k, lda, alpha)
  nll = 0.5_dp*dot_product(y, alpha) + 0.5_dp*real(n, dp)*log(2.0_dp*pi)
  do i = 1, n
    nll = nll + log(k(i, i))
  end do
end subroutine gp_loglik
