! radtap: -head spline_misfit -vars "yk" -outvars "f"
! sizes: nk=7 nobs=9
! Natural cubic spline interpolation as in a data-assimilation or calibration code: the
! second derivatives from the tridiagonal system (the Numerical Recipes `spline` with
! its in-place decomposition in a work array `u`), evaluation by `splint` with a
! bisection search for the interval (knots and observation points are passive, so the
! search takes the same path everywhere), and a least-squares misfit plus a curvature
! penalty.
module spline_mod
  use iso_fortran_env, only: wp => real64
  implicit none
contains
  subroutine spline(x, y, n, y2)
    integer, intent(in) :: n
    real(wp), intent(in) :: x(n), y(n)
    real(wp), intent(out) :: y2(n)
    real(wp) :: u(n), sig, p
    integer :: i, k
    y2(1) = 0.0_wp
    u(1) = 0.0_wp
    do i = 2, n - 1
      sig = (x(i) - x(i-1))/(x(i+1) - x(i-1))
      p = sig*y2(i-1) + 2.0_wp
      y2(i) = (sig - 1.0_wp)/p
      u(i) = (6.0_wp*((y(i+1) - y(i))/(x(i+1) - x(i)) - (y(i) - y(i-1)) &
             /(x(i) - x(i-1)))/(x(i+1) - x(i-1)) - sig*u(i-1))/p
    end do
    y2(n) = 0.0_wp
    do k = n - 1, 1, -1
      y2(k) = y2(k)*y2(k+1) + u(k)
    end do
  end subroutine spline

  function splint(xa, ya, y2a, n, x) result(y)
    integer, intent(in) :: n
    real(wp), intent(in) :: xa(n), ya(n), y2a(n), x
    real(wp) :: y, h, a, b
    integer :: klo, khi, k
    klo = 1
    khi = n
    do while (khi - klo > 1)
      k = (khi + klo)/2
      if (xa(k) > x) then
        khi = k
      else
        klo = k
      end if
    end do
    h = xa(khi) - xa(klo)
    a = (xa(khi) - x)/h
    b = (x - xa(klo))/h
    y = a*ya(klo) + b*ya(khi) + ((a**3 - a)*y2a(klo) + (b**3 - b)*y2a(khi))*h**2/6.0_wp
  end function splint
end module spline_mod

subroutine spline_misfit(nk, nobs, yk, f)
  use iso_fortran_env, only: wp => real64
  use spline_mod, only: spline, splint
  implicit none
  integer, intent(in) :: nk, nobs
  real(wp), intent(in) :: yk(nk)
  real(wp), intent(out) :: f
  real(wp) :: xk(nk), y2(nk), xo, yo, ys
  integer :: i
  do i = 1, nk
    xk(i) = real(i - 1, wp)**1.2_wp
  end do
  call spline(xk, yk, nk, y2)
  f = 0.0_wp
  do i = 1, nobs
    xo = xk(nk)*(real(i, wp) - 0.5_wp)/real(nobs, wp)
    yo = sin(0.5_wp*xo) + 1.0_wp
    ys = splint(xk, yk, y2, nk, xo)
    f = f + (ys - yo)**2
  end do
  f = f + 1.0e-2_wp*sum(y2**2)
end subroutine spline_misfit
