! radtap: -head fse -vars "x" -outvars "y"
! sizes:
! A function that modifies its intent(inout) argument, called as a whole
! right-hand side (not inside a larger expression).
module fse_m
  implicit none
contains
  function bump(t) result(r)
    real(8), intent(inout) :: t
    real(8) :: r
    t = t*t
    r = t + 1.0d0
  end function bump

  subroutine fse(x, y)
    real(8), intent(in) :: x
    real(8), intent(out) :: y
    real(8) :: a, b
    a = x
    b = bump(a)
    y = a*b
  end subroutine fse
end module fse_m
