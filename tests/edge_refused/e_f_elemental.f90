! radtap: -head elem_top -vars "x" -outvars "y z"
! sizes:
! An ELEMENTAL module function called with an array and with a scalar, and an
! elemental subroutine called on arrays.
module elem_m
  implicit none
contains
  elemental function sq(t) result(r)
    real(8), intent(in) :: t
    real(8) :: r
    r = t*t + 0.5d0*t
  end function sq

  elemental subroutine bump(a, b)
    real(8), intent(inout) :: a
    real(8), intent(in) :: b
    a = a*b + 0.1d0
  end subroutine bump

  subroutine elem_top(x, y, z)
    real(8), intent(in) :: x(4)
    real(8), intent(out) :: y(4), z
    y = sq(x)
    call bump(y, x)
    z = sq(x(2)) + sum(y)
  end subroutine elem_top
end module elem_m
