! radtap: -head gk_head -vars "x" -outvars "y"
! sizes:
! A modern numerics module: iso_fortran_env kinds renamed in a kinds module, a generic
! interface with a real64 and an integer specific resolved by argument type, PRIVATE by
! default with PUBLIC generics, named constants of kind wp.
module gk_kinds
  use iso_fortran_env, only: wp => real64, ip => int32
  implicit none
  real(wp), parameter :: half = 0.5_wp, tiny_shift = 1.0e-3_wp
end module gk_kinds

module gk_ops
  use gk_kinds
  implicit none
  private
  public :: softplus, norm2w
  interface softplus
    module procedure softplus_s, softplus_i
  end interface softplus
contains
  pure function softplus_s(x) result(r)
    real(wp), intent(in) :: x
    real(wp) :: r
    r = log(1.0_wp + exp(x))
  end function softplus_s
  pure function softplus_i(k) result(r)
    integer(ip), intent(in) :: k
    integer(ip) :: r
    r = max(k, 0_ip)
  end function softplus_i
  pure function norm2w(x, w) result(r)
    real(wp), intent(in) :: x(:), w(:)
    real(wp) :: r
    r = sqrt(sum(w*x**2) + tiny_shift)
  end function norm2w
end module gk_ops

module gk_model
  use gk_kinds
  use gk_ops
  implicit none
contains
  subroutine gk_head(x, y)
    real(wp), intent(in) :: x(4)
    real(wp), intent(out) :: y(2)
    real(wp) :: t(4)
    integer(ip) :: k
    k = softplus(3_ip)
    t = x*softplus(x(4))
    y(1) = softplus(x(1)*x(2)) + half*real(k, wp)
    y(2) = norm2w(t, x)
  end subroutine gk_head
end module gk_model
