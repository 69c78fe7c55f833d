! radtap: -head p1 -vars "x" -outvars "y"
! A function reference omitting an OPTIONAL argument: the derivative result would land in the optional dummy.
module p1m
  implicit none
contains
  function g(a, w) result(r)
    real(8), intent(in) :: a
    real(8), intent(in), optional :: w
    real(8) :: r
    r = a*a
    if (present(w)) r = r*w
  end function g
  subroutine p1(x, y)
    real(8), intent(in) :: x(2)
    real(8), intent(out) :: y
    y = g(x(1), x(2)) + g(x(2))
  end subroutine p1
end module p1m
