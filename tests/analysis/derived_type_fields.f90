! radtap: -head tstep -vars "x p" -outvars "p"
! Type particle has real components pos, vel, mass and integer id. Only p%pos
! is active: p%mass and p%vel are overwritten from constants (varied at entry,
! but killed, so not active there), p%id is an integer. Fields are kept
! distinct: activity of p%pos does not spread to p%vel or p%mass.
module ptypes
  implicit none
  type particle
    real(8) :: pos, vel, mass
    integer :: id
  end type particle
end module ptypes

subroutine tstep(x, p)
  use ptypes
  implicit none
  real(8), intent(in) :: x
  type(particle), intent(inout) :: p
  p%id = p%id + 1
  p%mass = 2.0d0
  p%vel = p%mass*3.0d0
  p%pos = p%pos + p%vel*x + x*x
end subroutine tstep
