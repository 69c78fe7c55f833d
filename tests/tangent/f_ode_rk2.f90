! radtap: -head ode_rk2 -vars "u0 p" -outvars "u"
! sizes:
! Explicit RK2 (Heun), 20 steps of h = 0.05, for a cooperative 3-species
! system du/dt = rhs(u, p) (nonlinear); state vector and rates are active.
subroutine rhs(u, p, f)
  implicit none
  real(8), intent(in) :: u(3), p(3)
  real(8), intent(out) :: f(3)
  f(1) = p(1)*u(2) - 0.5d0*u(1)**2
  f(2) = 0.5d0*p(2)*u(1)*u(3) - u(2)
  f(3) = 0.3d0*p(3)*u(1) + 0.1d0*u(2)**2 - 0.4d0*u(3)
end subroutine rhs

subroutine ode_rk2(u0, p, u)
  implicit none
  real(8), intent(in) :: u0(3), p(3)
  real(8), intent(out) :: u(3)
  real(8) :: k1(3), k2(3), ut(3), h
  integer :: i
  h = 0.05d0
  u = u0
  do i = 1, 20
    call rhs(u, p, k1)
    ut = u + h*k1
    call rhs(ut, p, k2)
    u = u + 0.5d0*h*(k1 + k2)
  end do
end subroutine ode_rk2
