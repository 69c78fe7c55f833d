! radtap: -head "integrate_decay(res)/(k b)"
! sizes:
! QUADPACK's layout (jacobwilliams/quadpack): a library module PRIVATE by default whose
! machine constants are declared `, private` (and one built from another), a PRIVATE abstract
! interface `func` for the integrand, a public rule taking `procedure(func) :: f`; the
! integrand in a module before the library's, the head in a module using both. The rule is
! specialised for the integrand in the library's module, so its derivative module copies the
! constants and the abstract interface (fixed: the copies were declared private twice, and
! `func` was out of reach there: the output did not compile).
module decay_integrand
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  real(dp) :: rate = 1.0_dp
contains
  real(dp) function decay(x)
    real(dp), intent(in) :: x
    decay = exp(-rate*x)*cos(2.0_dp*x) + rate*x*x
  end function decay
end module decay_integrand

module gauss_rules
  implicit none
  private
  integer, parameter :: wp = kind(1.0d0)
  real(wp), dimension(3), parameter, private :: d1mach = [tiny(1.0_wp), huge(1.0_wp), &
                                                          epsilon(1.0_wp)]
  real(wp), parameter, private :: uflow = d1mach(1)
  real(wp), parameter, private :: epmach = d1mach(3)
  abstract interface
    real(wp) function func(x)
      import :: wp
      implicit none
      real(wp), intent(in) :: x
    end function func
  end interface
  public :: qgauss
contains
  subroutine qgauss(f, a, b, result, abserr)
    procedure(func) :: f
    real(wp), intent(in) :: a, b
    real(wp), intent(out) :: result, abserr
    real(wp), parameter :: xk(3) = [0.0_wp, 0.7745966692414834_wp, -0.7745966692414834_wp]
    real(wp), parameter :: wk(3) = [0.8888888888888888_wp, 0.5555555555555556_wp, &
                                    0.5555555555555556_wp]
    real(wp) :: centr, hlgth, resg, fv
    integer :: j, k
    result = 0.0_wp
    abserr = 0.0_wp
    hlgth = 0.125_wp*(b - a)
    if (abs(hlgth) <= uflow) return
    do k = 1, 4
      centr = a + (2*k - 1)*hlgth
      resg = 0.0_wp
      do j = 1, 3
        fv = f(centr + hlgth*xk(j))
        resg = resg + wk(j)*fv
      end do
      result = result + resg*hlgth
    end do
    abserr = max(50.0_wp*epmach*abs(result), uflow)
  end subroutine qgauss
end module gauss_rules

module decay_heads
  use gauss_rules, only: qgauss
  use decay_integrand
  implicit none
contains
  subroutine integrate_decay(k, b, res)
    real(dp), intent(in) :: k, b
    real(dp), intent(out) :: res
    real(dp) :: err
    rate = k
    call qgauss(decay, 0.0_dp, b, res, err)
  end subroutine integrate_decay
end module decay_heads
