! radtap: -head euler_residual -vars "rho mom ener" -outvars "res"
! sizes: n=6
! Residual of the 1-D Euler equations in a module procedure with internal procedures,
! as in a compact CFD solver: the primitive variables are recovered by an internal
! function called for each cell in a loop (pressure from the host's gamma), the Roe-
! averaged sound speed and a Rusanov interface flux are internal procedures writing the
! host's flux array, and a periodic residual is formed.
module euler1d
  use iso_fortran_env, only: dp => real64
  implicit none
  real(dp), parameter :: gam = 1.4_dp
contains
  subroutine euler_residual(n, rho, mom, ener, res)
    integer, intent(in) :: n
    real(dp), intent(in) :: rho(n), mom(n), ener(n)
    real(dp), intent(out) :: res(3, n)
    real(dp) :: flux(3, 0:n), p(n), u(n), c(n)
    real(dp) :: dx
    integer :: i
    dx = 1.0_dp/n
    do i = 1, n
      u(i) = mom(i)/rho(i)
      p(i) = pressure(rho(i), mom(i), ener(i))
      c(i) = sqrt(gam*p(i)/rho(i))
    end do
    do i = 0, n
      call interface_flux(i)
    end do
    do i = 1, n
      res(:, i) = -(flux(:, i) - flux(:, i - 1))/dx
    end do
  contains
    function pressure(r, m, e) result(pr)
      real(dp), intent(in) :: r, m, e
      real(dp) :: pr
      pr = (gam - 1.0_dp)*(e + 2.0_dp - 0.5_dp*m*m/r)
    end function pressure

    subroutine interface_flux(iface)
      integer, intent(in) :: iface
      integer :: l, r
      real(dp) :: fl(3), fr(3), smax, el, er
      l = iface
      r = iface + 1
      if (l < 1) l = n
      if (r > n) r = 1
      el = ener(l) + 2.0_dp
      er = ener(r) + 2.0_dp
      fl(1) = mom(l)
      fl(2) = mom(l)*u(l) + p(l)
      fl(3) = u(l)*(el + p(l))
      fr(1) = mom(r)
      fr(2) = mom(r)*u(r) + p(r)
      fr(3) = u(r)*(er + p(r))
      smax = roe_speed(l, r)
      flux(1, iface) = 0.5_dp*(fl(1) + fr(1)) - 0.5_dp*smax*(rho(r) - rho(l))
      flux(2, iface) = 0.5_dp*(fl(2) + fr(2)) - 0.5_dp*smax*(mom(r) - mom(l))
      flux(3, iface) = 0.5_dp*(fl(3) + fr(3)) - 0.5_dp*smax*(er - el)
    end subroutine interface_flux

    function roe_speed(l, r) result(s)
      integer, intent(in) :: l, r
      real(dp) :: s, wl, wr
      wl = sqrt(rho(l))
      wr = sqrt(rho(r))
      s = abs((wl*u(l) + wr*u(r))/(wl + wr)) + 0.5_dp*(c(l) + c(r))
    end function roe_speed
  end subroutine euler_residual
end module euler1d
