! radtap: -head "user_quad.integrate_ags(res)/(k b)"
! sizes:
! QUADPACK's usual layout (jacobwilliams/quadpack's dqags): the library module is PRIVATE
! by default, takes its kind from `iso_fortran_env` (`wp => real64`), keeps machine
! constants PRIVATE (one built from another), a PRIVATE abstract interface `func`, a
! PRIVATE helper with a derivative (the epsilon-extrapolation's `dqelg`) and a PRIVATE one
! without (the sort `dqpsrt`); a public driver passes `f` on to a public rule. The user's
! module comes after the library and uses it, and holds both the integrand (reading a
! module variable) and the head. The driver and the rule are specialised for the integrand
! in the user's module, where they name the library's PRIVATE entities: the derivative
! module copies them there *(fixed: refused, the specialised copies naming private names
! were not made, so the calls through the dummy procedure stayed out of reach)*.
module quad_lib
  use iso_fortran_env, only: wp => real64
  implicit none
  private
  real(wp), dimension(3), parameter, private :: d1mach = [tiny(1.0_wp), huge(1.0_wp), &
                                                          epsilon(1.0_wp)]
  real(wp), parameter, private :: uflow = d1mach(1)
  real(wp), parameter, private :: epmach = d1mach(3)
  integer, parameter, private :: nrule = 3
  abstract interface
    real(wp) function func(x)
      import :: wp
      implicit none
      real(wp), intent(in) :: x
    end function func
  end interface
  public :: qags, qrule
contains
  subroutine qags(f, a, b, result, abserr)
    procedure(func) :: f
    real(wp), intent(in) :: a, b
    real(wp), intent(out) :: result, abserr
    real(wp) :: parts(4), errs(4), h
    integer :: k, order(4)
    h = 0.25_wp*(b - a)
    do k = 1, 4
      call qrule(f, a + (k - 1)*h, a + k*h, parts(k), errs(k))
      order(k) = k
    end do
    call qsort4(errs, order)
    call qextrap(parts, result)
    abserr = max(errs(order(1)), 50.0_wp*epmach*abs(result))
  end subroutine qags

  subroutine qrule(f, a, b, result, abserr)
    procedure(func) :: f
    real(wp), intent(in) :: a, b
    real(wp), intent(out) :: result, abserr
    real(wp), parameter :: xk(nrule) = [0.0_wp, 0.7745966692414834_wp, &
                                        -0.7745966692414834_wp]
    real(wp), parameter :: wk(nrule) = [0.8888888888888888_wp, 0.5555555555555556_wp, &
                                        0.5555555555555556_wp]
    real(wp) :: centr, hlgth
    integer :: j
    centr = 0.5_wp*(a + b)
    hlgth = 0.5_wp*(b - a)
    result = 0.0_wp
    do j = 1, nrule
      result = result + wk(j)*f(centr + hlgth*xk(j))
    end do
    result = result*hlgth
    abserr = max(abs(result - 2.0_wp*hlgth*f(centr)), uflow)
  end subroutine qrule

  subroutine qextrap(parts, result)
    real(wp), intent(in) :: parts(4)
    real(wp), intent(out) :: result
    real(wp) :: s2, s4
    s2 = (parts(1) + parts(2)) + (parts(3) + parts(4))
    s4 = parts(1) + parts(2)*1.0_wp + parts(3) + parts(4)
    result = s4 + (s4 - s2)/15.0_wp + epmach*s2*s2
  end subroutine qextrap

  subroutine qsort4(errs, order)
    real(wp), intent(in) :: errs(4)
    integer, intent(inout) :: order(4)
    integer :: i, j, t
    do i = 1, 3
      do j = i + 1, 4
        if (errs(order(j)) > errs(order(i))) then
          t = order(i)
          order(i) = order(j)
          order(j) = t
        end if
      end do
    end do
  end subroutine qsort4
end module quad_lib

module user_quad
  use quad_lib, only: qags
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  real(dp) :: rate = 1.0_dp
contains
  real(dp) function decay(x)
    real(dp), intent(in) :: x
    decay = exp(-rate*x)*cos(2.0_dp*x) + rate*x*x
  end function decay

  subroutine integrate_ags(k, b, res)
    real(dp), intent(in) :: k, b
    real(dp), intent(out) :: res
    real(dp) :: err
    rate = k
    call qags(decay, 0.0_dp, b, res, err)
  end subroutine integrate_ags
end module user_quad
