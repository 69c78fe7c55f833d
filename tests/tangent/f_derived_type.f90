! radtap: -head ts_step -vars "s dt" -outvars "s e"
! sizes:
! Derived-type argument type(state) with real(8) components pos, vel(3), mass
! and an integer component nstep (written only). Inputs and outputs go through
! the components; vel(3) is updated elementwise and through sum/dot_product.
module state_mod
  implicit none
  type state
    real(8) :: pos
    real(8) :: vel(3)
    real(8) :: mass
    integer :: nstep
  end type state
end module state_mod

subroutine ts_step(s, dt, e)
  use state_mod
  implicit none
  type(state), intent(inout) :: s
  real(8), intent(in) :: dt
  real(8), intent(out) :: e
  integer :: i
  s%nstep = 0
  do i = 1, 3
    s%vel(i) = s%vel(i) - 0.05d0*dt*s%pos*dble(i)/(s%mass + 1.0d0)
  end do
  s%pos = s%pos + dt*sum(s%vel)
  s%nstep = s%nstep + 1
  e = 0.5d0*s%mass*dot_product(s%vel, s%vel) + 0.5d0*s%pos**2
end subroutine ts_step
