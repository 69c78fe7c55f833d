! radtap: -head integrate_lv -vars "y0 theta" -outvars "y obj"
! sizes: nsteps=6
! An explicit RK4 integrator module in the style of a small ODE library: module-level
! ALLOCATABLE work arrays (stage vectors) allocated by an init routine and freed by a
! finish routine, the right-hand side (a Lotka-Volterra predator-prey system with
! parameters theta) in its own module, a quadrature of the trajectory into an objective.
module lv_kinds
  use iso_fortran_env, only: real64
  implicit none
  integer, parameter :: rk = real64
end module lv_kinds

module lv_rhs
  use lv_kinds, only: rk
  implicit none
contains
  subroutine lotka_volterra(y, theta, dydt)
    real(rk), intent(in) :: y(:), theta(4)
    real(rk), intent(out) :: dydt(:)
    dydt(1) = theta(1)*y(1) - theta(2)*y(1)*y(2)
    dydt(2) = -theta(3)*y(2) + theta(4)*y(1)*y(2)
  end subroutine lotka_volterra
end module lv_rhs

module rk4_solver
  use lv_kinds, only: rk
  use lv_rhs, only: lotka_volterra
  implicit none
  real(rk), allocatable :: k1(:), k2(:), k3(:), k4(:), ytmp(:)
contains
  subroutine rk4_init(m)
    integer, intent(in) :: m
    allocate(k1(m), k2(m), k3(m), k4(m), ytmp(m))
  end subroutine rk4_init

  subroutine rk4_finish()
    deallocate(k1, k2, k3, k4, ytmp)
  end subroutine rk4_finish

  subroutine rk4_step(y, theta, h)
    real(rk), intent(inout) :: y(:)
    real(rk), intent(in) :: theta(4), h
    call lotka_volterra(y, theta, k1)
    ytmp = y + 0.5_rk*h*k1
    call lotka_volterra(ytmp, theta, k2)
    ytmp = y + 0.5_rk*h*k2
    call lotka_volterra(ytmp, theta, k3)
    ytmp = y + h*k3
    call lotka_volterra(ytmp, theta, k4)
    y = y + h/6.0_rk*(k1 + 2.0_rk*k2 + 2.0_rk*k3 + k4)
  end subroutine rk4_step
end module rk4_solver

subroutine integrate_lv(nsteps, y0, theta, y, obj)
  use lv_kinds, only: rk
  use rk4_solver, only: rk4_init, rk4_step, rk4_finish
  implicit none
  integer, intent(in) :: nsteps
  real(rk), intent(in) :: y0(2), theta(4)
  real(rk), intent(out) :: y(2), obj
  real(rk) :: h
  integer :: it
  h = 0.1_rk
  y = y0
  obj = 0.0_rk
  call rk4_init(2)
  do it = 1, nsteps
    call rk4_step(y, theta, h)
    obj = obj + h*(y(1)**2 + 0.5_rk*y(2)**2)
  end do
  call rk4_finish()
end subroutine integrate_lv
