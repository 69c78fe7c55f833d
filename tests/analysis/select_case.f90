! radtap: -head pick -vars "x" -outvars "y"
! SELECT CASE on integer mode with real computations in the branches. Case 3
! and default set t from constants (not varied on those paths, implicit-zero
! derivative that must be reset before the merge); after END SELECT t is
! varied (union) and active. mode is non-differentiable but diff-live control.
subroutine pick(mode, x, y)
  implicit none
  integer, intent(in) :: mode
  real(8), intent(in) :: x
  real(8), intent(out) :: y
  real(8) :: t
  select case (mode)
  case (1)
    t = x*x
  case (2, 4:6)
    t = exp(x)
  case (3)
    t = 7.0d0
  case default
    t = 0.0d0
  end select
  y = 2.0d0*t + x
end subroutine pick
