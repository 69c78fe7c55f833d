! radtap: -head heun_decay -vars "y0 rate" -outvars "y"
! sizes: n=4 nsteps=5
! Heun's method for a decay chain written the way textbook codes pass stage values: the
! predictor state is an array expression given directly as the actual argument
! (`call rhs(n, y + h*k1, rate, k2)`). The actual becomes a temporary assigned before
! the call (`il::hoist`), so both modes differentiate it like any array assignment.
module decay_rhs
  use iso_fortran_env, only: wp => real64
  implicit none
contains
  subroutine rhs(n, y, rate, dy)
    integer, intent(in) :: n
    real(wp), intent(in) :: y(n), rate
    real(wp), intent(out) :: dy(n)
    integer :: i
    dy(1) = -rate*y(1)
    do i = 2, n
      dy(i) = rate*(y(i - 1) - y(i))/i
    end do
  end subroutine rhs
end module decay_rhs

subroutine heun_decay(n, nsteps, y0, rate, y)
  use decay_rhs
  implicit none
  integer, intent(in) :: n, nsteps
  real(wp), intent(in) :: y0(n), rate
  real(wp), intent(out) :: y(n)
  real(wp) :: k1(n), k2(n), h
  integer :: it
  h = 0.1_wp
  y = y0
  do it = 1, nsteps
    call rhs(n, y, rate, k1)
    call rhs(n, y + h*k1, rate, k2)
    y = y + 0.5_wp*h*(k1 + k2)
  end do
end subroutine heun_decay
