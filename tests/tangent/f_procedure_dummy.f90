! radtap: -head pd_fit -vars "p" -outvars "cost"
! sizes:
! A least-squares library in the modern style: the user's residual (an external routine,
! MINPACK-like `fcn(m, n, p, r)`) and weight function are passed as `procedure(iface)` dummies
! whose abstract interfaces IMPORT the working kind from the host module. Each dummy receives
! one procedure, so the derivative calls the derivative of that procedure (`procedure(...)`
! and `import` were refused with AD020 before). A user function in a module the library
! does not use is refused (tests/fortran_refusals.rs).
module pd_kinds
  use iso_fortran_env, only: real64
  implicit none
  integer, parameter :: wp = real64
end module pd_kinds

module pd_lsq
  use pd_kinds, only: wp
  implicit none
  abstract interface
    subroutine residual_iface(m, n, p, r)
      import :: wp
      integer, intent(in) :: m, n
      real(wp), intent(in) :: p(n)
      real(wp), intent(out) :: r(m)
    end subroutine residual_iface
    function weight_iface(t, a) result(w)
      import :: wp
      real(wp), intent(in) :: t, a
      real(wp) :: w
    end function weight_iface
  end interface
contains
  subroutine wsum_squares(fcn, wfun, p, m, s)
    procedure(residual_iface) :: fcn
    procedure(weight_iface) :: wfun
    real(wp), intent(in) :: p(:)
    integer, intent(in) :: m
    real(wp), intent(out) :: s
    real(wp) :: r(m)
    integer :: i
    call fcn(m, size(p), p, r)
    s = 0.0_wp
    do i = 1, m
      s = s + wfun(real(i, wp), p(1))*r(i)**2
    end do
  end subroutine wsum_squares
end module pd_lsq

subroutine model_res(m, n, p, r)
  use pd_kinds, only: wp
  implicit none
  integer, intent(in) :: m, n
  real(wp), intent(in) :: p(n)
  real(wp), intent(out) :: r(m)
  integer :: i
  real(wp) :: t
  do i = 1, m
    t = 0.25_wp*real(i, wp)
    r(i) = p(1)*exp(-p(2)*t) + p(3)*t - (1.0_wp + 0.1_wp*t)
  end do
end subroutine model_res

function decay_weight(t, a) result(w)
  use pd_kinds, only: wp
  implicit none
  real(wp), intent(in) :: t, a
  real(wp) :: w
  w = 1.0_wp/(1.0_wp + 0.1_wp*a*t)
end function decay_weight

subroutine pd_fit(p, cost)
  use pd_kinds, only: wp
  use pd_lsq, only: wsum_squares
  implicit none
  real(wp), intent(in) :: p(3)
  real(wp), intent(out) :: cost
  external :: model_res
  real(wp), external :: decay_weight
  call wsum_squares(model_res, decay_weight, p, 5, cost)
  cost = 0.5_wp*cost + 0.01_wp*sum(p**2)
end subroutine pd_fit
