! radtap: -head sv_top -vars "x" -outvars "y"
! sizes:
! An integer SAVE counter in a callee deciding a weight, and a local
! initialised in its declaration (implicitly SAVE) reset on every call.
module sv_m
  implicit none
contains
  function wsq(t) result(r)
    real(8), intent(in) :: t
    real(8) :: r
    integer, save :: calls = 0
    calls = mod(calls, 2) + 1
    r = dble(calls)*t*t
  end function wsq

  subroutine sv_top(x, y)
    real(8), intent(in) :: x
    real(8), intent(out) :: y
    y = wsq(x)
    y = y + wsq(x + 1.0d0)
  end subroutine sv_top
end module sv_m
