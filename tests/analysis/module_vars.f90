! radtap: -head mstep -vars "x" -outvars "y"
! Module variable g carries the derivative: set from x in mstep and read by
! the module procedure addg to produce y, so g is active across the call.
! Module variable scal is passive: only assigned constants (useful, never
! varied), and the integer ncall is never active.
module mstate
  implicit none
  real(8) :: g = 0.0d0
  real(8) :: scal = 1.5d0
  integer :: ncall = 0
contains
  subroutine addg(y)
    real(8), intent(out) :: y
    ncall = ncall + 1
    y = scal*g + g**2
  end subroutine addg
end module mstate

subroutine mstep(x, y)
  use mstate
  implicit none
  real(8), intent(in) :: x
  real(8), intent(out) :: y
  scal = 2.0d0
  g = sin(x)
  call addg(y)
end subroutine mstep
