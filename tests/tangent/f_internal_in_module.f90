! radtap: -head im_top -vars "x" -outvars "z"
! sizes:
! Issue 19 item 14: an internal procedure of a module procedure writes the host's dummy `y`
! from its dummy `x` by host association (the tangent was 0). `im_top` calls the host, so
! the call's effect goes through the host's argument mapping too.
module im_mod
  implicit none
contains
  subroutine foo(x, y)
    real(8), intent(in) :: x
    real(8), intent(out) :: y
    call bar()
  contains
    subroutine bar()
      y = sin(x)
    end subroutine bar
  end subroutine foo
  subroutine im_top(x, z)
    real(8), intent(in) :: x(2)
    real(8), intent(out) :: z(2)
    real(8) :: t
    call foo(x(1), t)
    z(1) = t*x(2)
    call foo(x(2)*t, z(2))
  end subroutine im_top
end module im_mod
