! radtap: -head val_top -vars "x" -outvars "y"
! sizes:
! A VALUE dummy modified inside the callee: the caller's variable is unchanged.
module val_m
  implicit none
contains
  function twice(t) result(r)
    real(8), value :: t
    real(8) :: r
    t = t*t
    r = t + 1.0d0
  end function twice

  subroutine acc(t, s)
    real(8), value :: t
    real(8), intent(inout) :: s
    t = t*2.0d0
    s = s + t*t
  end subroutine acc

  subroutine val_top(x, y)
    real(8), intent(in) :: x
    real(8), intent(out) :: y
    real(8) :: a
    a = x
    y = twice(a) + a
    call acc(a, y)
    y = y*a
  end subroutine val_top
end module val_m
