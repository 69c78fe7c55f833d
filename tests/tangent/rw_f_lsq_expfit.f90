! radtap: -head expfit_cost -vars "p" -outvars "cost grad"
! sizes: m=7
! A least-squares objective in the style of a modern fitting library: a kinds module
! (iso_fortran_env), an abstract interface for the model y = f(t; p) and its gradient in
! p, the model passed as a `procedure(model_iface)` argument, an OPTIONAL weight array
! tested with PRESENT, and the Gauss-Newton gradient J^T r accumulated from the model's
! partials. The head calls the objective twice, with and without weights.
module lsq_kinds
  use iso_fortran_env, only: real64, int32
  implicit none
  integer, parameter :: wp = real64
  integer, parameter :: ik = int32
end module lsq_kinds

module lsq_models
  use lsq_kinds, only: wp, ik
  implicit none
  private
  public :: model_iface, two_exp_model, lsq_objective
  abstract interface
    subroutine model_iface(t, p, f, dfdp)
      import :: wp
      real(wp), intent(in) :: t
      real(wp), intent(in) :: p(:)
      real(wp), intent(out) :: f
      real(wp), intent(out) :: dfdp(:)
    end subroutine model_iface
  end interface
contains
  subroutine two_exp_model(t, p, f, dfdp)
    real(wp), intent(in) :: t
    real(wp), intent(in) :: p(:)
    real(wp), intent(out) :: f
    real(wp), intent(out) :: dfdp(:)
    real(wp) :: e1, e2
    e1 = exp(-p(2)*t)
    e2 = exp(-p(4)*t)
    f = p(1)*e1 + p(3)*e2
    dfdp(1) = e1
    dfdp(2) = -p(1)*t*e1
    dfdp(3) = e2
    dfdp(4) = -p(3)*t*e2
  end subroutine two_exp_model

  subroutine lsq_objective(model, tdat, ydat, p, cost, grad, weights)
    procedure(model_iface) :: model
    real(wp), intent(in) :: tdat(:), ydat(:)
    real(wp), intent(in) :: p(:)
    real(wp), intent(out) :: cost
    real(wp), intent(out) :: grad(:)
    real(wp), intent(in), optional :: weights(:)
    real(wp) :: f, r, w
    real(wp) :: dfdp(size(p))
    integer(ik) :: i
    cost = 0.0_wp
    grad = 0.0_wp
    do i = 1, size(tdat)
      call model(tdat(i), p, f, dfdp)
      r = f - ydat(i)
      w = 1.0_wp
      if (present(weights)) w = weights(i)
      cost = cost + 0.5_wp*w*r**2
      grad = grad + w*r*dfdp
    end do
  end subroutine lsq_objective
end module lsq_models

subroutine expfit_cost(m, p, cost, grad)
  use lsq_kinds, only: wp
  use lsq_models, only: two_exp_model, lsq_objective
  implicit none
  integer, intent(in) :: m
  real(wp), intent(in) :: p(4)
  real(wp), intent(out) :: cost
  real(wp), intent(out) :: grad(4)
  real(wp) :: t(m), y(m), w(m), c2, g2(4)
  integer :: i
  do i = 1, m
    t(i) = 0.3_wp*real(i - 1, wp)
    y(i) = 2.0_wp*exp(-0.7_wp*t(i)) + 0.5_wp*exp(-0.1_wp*t(i))
    w(i) = 1.0_wp/(1.0_wp + 0.2_wp*real(i, wp))
  end do
  call lsq_objective(two_exp_model, t, y, p, cost, grad)
  call lsq_objective(two_exp_model, t, y, p, c2, g2, weights=w)
  cost = cost + c2
  grad = grad + 0.5_wp*g2
end subroutine expfit_cost
