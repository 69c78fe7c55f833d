! radtap: -head poly_lsq -vars "yobs" -outvars "coef res"
! sizes: m=8 n=3
! Polynomial least squares by Householder QR, as a modern numerics module writes it:
! assumed-shape matrix dummies, the Householder vector built with SIGN and NORM-free
! sqrt(dot_product(...)), reflections applied with DOT_PRODUCT over sections `a(k:m, j)`,
! back substitution on the triangle, and the residual norm from the trailing part of
! Q^T y. The design matrix (Vandermonde on passive abscissae) is well conditioned and
! the reflector signs are decided (the pivot column entries stay positive).
module qr_mod
  use iso_fortran_env, only: wp => real64
  implicit none
contains
  subroutine householder_qr(a, tau)
    real(wp), intent(inout) :: a(:, :)
    real(wp), intent(out) :: tau(:)
    integer :: m, n, k, j
    real(wp) :: alpha, vnorm, beta
    m = size(a, 1)
    n = size(a, 2)
    do k = 1, n
      vnorm = sqrt(dot_product(a(k:m, k), a(k:m, k)))
      alpha = -sign(vnorm, a(k, k))
      beta = a(k, k) - alpha
      a(k+1:m, k) = a(k+1:m, k)/beta
      tau(k) = -beta/alpha
      a(k, k) = alpha
      do j = k + 1, n
        call apply_reflector(a(k:m, k), tau(k), a(k:m, j))
      end do
    end do
  end subroutine householder_qr

  subroutine apply_reflector(v, t, x)
    real(wp), intent(in) :: v(:), t
    real(wp), intent(inout) :: x(:)
    real(wp) :: s
    ! v(1) is implicitly 1
    s = x(1) + dot_product(v(2:), x(2:))
    s = t*s
    x(1) = x(1) - s
    x(2:) = x(2:) - s*v(2:)
  end subroutine apply_reflector
end module qr_mod

subroutine poly_lsq(m, n, yobs, coef, res)
  use iso_fortran_env, only: wp => real64
  use qr_mod, only: householder_qr, apply_reflector
  implicit none
  integer, intent(in) :: m, n
  real(wp), intent(in) :: yobs(m)
  real(wp), intent(out) :: coef(n), res
  real(wp) :: a(m, n), tau(n), y(m), t
  integer :: i, j, k
  do i = 1, m
    t = 0.2_wp*real(i, wp)
    do j = 1, n
      a(i, j) = t**(j - 1)
    end do
    y(i) = yobs(i) + sin(t)
  end do
  call householder_qr(a, tau)
  do k = 1, n
    call apply_reflector(a(k:m, k), tau(k), y(k:m))
  end do
  do i = n, 1, -1
    coef(i) = (y(i) - dot_product(a(i, i+1:n), coef(i+1:n)))/a(i, i)
  end do
  res = sqrt(sum(y(n+1:m)**2))
end subroutine poly_lsq
