! radtap: -head moment_fit -vars "a b" -outvars "m0 m1"
! sizes: npan=5
! An integration library in the style of QUADPACK wrappers: an abstract interface for
! the integrand with the parameters passed through a real array, a composite two-point
! Gauss rule taking `procedure(integrand_iface)` as a dummy, and a user module whose
! density function is passed to it; the zeroth and first moments of the density. The
! library cannot reach the user's module: `gauss2_composite` is specialised for the
! density in the user's module (it was refused, AD020 at the call through the dummy).
module quad_lib
  use iso_fortran_env, only: wp => real64
  implicit none
  abstract interface
    function integrand_iface(x, par) result(f)
      import :: wp
      real(wp), intent(in) :: x, par(:)
      real(wp) :: f
    end function integrand_iface
  end interface
contains
  subroutine gauss2_composite(f, par, xlo, xhi, npan, weight_power, total)
    procedure(integrand_iface) :: f
    real(wp), intent(in) :: par(:), xlo, xhi
    integer, intent(in) :: npan, weight_power
    real(wp), intent(out) :: total
    real(wp), parameter :: g = 0.5773502691896257_wp
    real(wp) :: h, xm, x1, x2
    integer :: k
    h = (xhi - xlo)/npan
    total = 0.0_wp
    do k = 1, npan
      xm = xlo + (k - 0.5_wp)*h
      x1 = xm - 0.5_wp*h*g
      x2 = xm + 0.5_wp*h*g
      total = total + 0.5_wp*h*(x1**weight_power*f(x1, par) + x2**weight_power*f(x2, par))
    end do
  end subroutine gauss2_composite
end module quad_lib

module density_model
  use iso_fortran_env, only: wp => real64
  implicit none
contains
  function gamma_like(x, par) result(f)
    real(wp), intent(in) :: x, par(:)
    real(wp) :: f
    f = par(1)*x**1.5_wp*exp(-par(2)*x)
  end function gamma_like
end module density_model

subroutine moment_fit(npan, a, b, m0, m1)
  use quad_lib
  use density_model
  implicit none
  integer, intent(in) :: npan
  real(wp), intent(in) :: a, b
  real(wp), intent(out) :: m0, m1
  real(wp) :: par(2)
  par(1) = a
  par(2) = b
  call gauss2_composite(gamma_like, par, 0.0_wp, 3.0_wp, npan, 0, m0)
  call gauss2_composite(gamma_like, par, 0.0_wp, 3.0_wp, npan, 1, m1)
  m1 = m1/m0
end subroutine moment_fit
