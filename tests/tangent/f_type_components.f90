! radtap: -head tc_head -vars "x" -outvars "y"
! sizes: n=3
! Component-level activity: only `pos` of type state is active (vel is a constant, temp_c is
! overwritten by a constant, n is an integer), so state_d holds `pos` alone.
module tc_types
  implicit none
  type state
    real(8) :: pos(3), vel, temp_c
    integer :: n
  end type state
end module tc_types

subroutine tc_energy(s, y)
  use tc_types
  implicit none
  type(state), intent(inout) :: s
  real(8), intent(out) :: y
  s%temp_c = 300.0d0
  y = s%vel*(s%pos(1)**2 + sin(s%pos(2))*s%pos(3)) + 1.0d-3*s%temp_c
end subroutine tc_energy

subroutine tc_head(n, x, y)
  use tc_types
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y
  type(state) :: s
  s%pos = x(1:3)*1.5d0
  s%vel = 2.0d0
  s%n = n
  call tc_energy(s, y)
end subroutine tc_head
