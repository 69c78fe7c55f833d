! radtap: -head muscl_residual -vars "q gam" -outvars "res"
! sizes: n=8
! A 1-D finite-volume residual in the style of an Euler/advection code: MUSCL
! reconstruction of the cell values with a minmod limiter written with MIN/MAX/SIGN/ABS
! (the slopes grow along the mesh, so every choice is the same over the input box), the
! van Albada limiter (smooth), a Rusanov flux with the wave speed MAX(|a_L|, |a_R|), and
! ghost cells by extrapolation. The state is q(i) + 2 i^2, increasing and convex.
module fv_limiters
  use iso_fortran_env, only: wp => real64
  implicit none
  real(wp), parameter :: eps_lim = 1.0e-12_wp
contains
  pure function minmod(a, b) result(m)
    real(wp), intent(in) :: a, b
    real(wp) :: m
    m = sign(1.0_wp, a)*max(0.0_wp, min(abs(a), sign(1.0_wp, a)*b))
  end function minmod

  pure function van_albada(a, b) result(m)
    real(wp), intent(in) :: a, b
    real(wp) :: m
    m = (a*(b**2 + eps_lim) + b*(a**2 + eps_lim))/(a**2 + b**2 + 2.0_wp*eps_lim)
  end function van_albada

  pure function flux(u, g) result(f)
    real(wp), intent(in) :: u, g
    real(wp) :: f
    f = 0.5_wp*g*u**2
  end function flux
end module fv_limiters

subroutine muscl_residual(n, q, gam, res)
  use iso_fortran_env, only: wp => real64
  use fv_limiters, only: minmod, van_albada, flux
  implicit none
  integer, intent(in) :: n
  real(wp), intent(in) :: q(n), gam
  real(wp), intent(out) :: res(n)
  real(wp) :: u(0:n+1), slope(0:n+1), fl(0:n)
  real(wp) :: ul, ur, al, ar, smax, dx
  integer :: i
  dx = 1.0_wp/real(n, wp)
  do i = 1, n
    u(i) = q(i) + 2.0_wp*real(i, wp)**2
  end do
  u(0) = 2.0_wp*u(1) - u(2) - 1.0_wp
  u(n+1) = 2.0_wp*u(n) - u(n-1) + 3.0_wp
  slope(0) = 0.0_wp
  slope(n+1) = 0.0_wp
  do i = 1, n
    if (mod(i, 2) == 0) then
      slope(i) = minmod(u(i) - u(i-1), u(i+1) - u(i))
    else
      slope(i) = van_albada(u(i) - u(i-1), u(i+1) - u(i))
    end if
  end do
  do i = 0, n
    ul = u(i) + 0.5_wp*slope(i)
    ur = u(i+1) - 0.5_wp*slope(i+1)
    al = abs(gam*ul)
    ar = abs(gam*ur)
    smax = max(al, ar)
    fl(i) = 0.5_wp*(flux(ul, gam) + flux(ur, gam)) - 0.5_wp*smax*(ur - ul)
  end do
  do i = 1, n
    res(i) = -(fl(i) - fl(i-1))/dx*1.0e-3_wp
  end do
end subroutine muscl_residual
