! Chain of m pendulums coupled by nonlinear (sine) springs, with light damping, integrated by
! classical RK4: nsteps steps of size h. State y = (theta(1:m), omega(1:m)).
! Differentiated w.r.t. the initial state y; the dependent is the final state y.
subroutine chain_rhs(m, y, f)
  implicit none
  integer, intent(in) :: m
  real(8), intent(in) :: y(2*m)
  real(8), intent(out) :: f(2*m)
  real(8), parameter :: g = 9.81d0, k = 2.5d0, damp = 0.05d0
  real(8) :: acc
  integer :: i
  do i = 1, m
    f(i) = y(m + i)
    acc = -g*sin(y(i)) - damp*y(m + i)
    if (i > 1) acc = acc - k*sin(y(i) - y(i - 1))
    if (i < m) acc = acc + k*sin(y(i + 1) - y(i))
    f(m + i) = acc
  end do
end subroutine chain_rhs

subroutine ode(m, nsteps, h, y)
  implicit none
  integer, intent(in) :: m, nsteps
  real(8), intent(in) :: h
  real(8), intent(inout) :: y(2*m)
  real(8) :: k1(2*m), k2(2*m), k3(2*m), k4(2*m), yt(2*m)
  integer :: step, i
  do step = 1, nsteps
    call chain_rhs(m, y, k1)
    do i = 1, 2*m
      yt(i) = y(i) + 0.5d0*h*k1(i)
    end do
    call chain_rhs(m, yt, k2)
    do i = 1, 2*m
      yt(i) = y(i) + 0.5d0*h*k2(i)
    end do
    call chain_rhs(m, yt, k3)
    do i = 1, 2*m
      yt(i) = y(i) + h*k3(i)
    end do
    call chain_rhs(m, yt, k4)
    do i = 1, 2*m
      y(i) = y(i) + h/6.0d0*(k1(i) + 2.0d0*k2(i) + 2.0d0*k3(i) + k4(i))
    end do
  end do
end subroutine ode
