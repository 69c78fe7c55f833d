! radtap: -head "user_quad.integrate(res)/(k b)"
! sizes:
! The library layout of f_library_private_user_module.f90, but the library's rule counts
! its calls in a PRIVATE module variable: the copy of the rule specialised for the user's
! integrand would live in the user's module, where that variable cannot be named and a
! copy of it would be another counter. Not specialised: the call through the dummy
! procedure stays refused at its line.
module quad_lib
  use iso_fortran_env, only: wp => real64
  implicit none
  private
  integer, private :: ncalls = 0
  abstract interface
    real(wp) function func(x)
      import :: wp
      implicit none
      real(wp), intent(in) :: x
    end function func
  end interface
  public :: qrule
contains
  subroutine qrule(f, a, b, result)
    procedure(func) :: f
    real(wp), intent(in) :: a, b
    real(wp), intent(out) :: result
    ncalls = ncalls + 1
    result = 0.5_wp*(b - a)*(f(a) + f(b))
  end subroutine qrule
end module quad_lib

module user_quad
  use quad_lib, only: qrule
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  real(dp) :: rate = 1.0_dp
contains
  real(dp) function decay(x)
    real(dp), intent(in) :: x
    decay = exp(-rate*x) + x
  end function decay

  subroutine integrate(k, b, res)
    real(dp), intent(in) :: k, b
    real(dp), intent(out) :: res
    rate = k
    call qrule(decay, 0.0_dp, b, res)
  end subroutine integrate
end module user_quad
