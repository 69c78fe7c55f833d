! radtap: -head f -vars "x" -outvars "y"
! sizes: x=2 y=1
! A function whose result is of derived type (the result temporaries would be real
! scalars: the output did not compile).
module vecs
  implicit none
  type vec2
    real(8) :: a, b
  end type
contains
  function mk(x) result(v)
    real(8), intent(in) :: x(2)
    type(vec2) :: v
    v%a = x(1) * x(2)
    v%b = sin(x(1))
  end function
  subroutine f(x, y)
    real(8), intent(in) :: x(2)
    real(8), intent(out) :: y
    type(vec2) :: v
    v = mk(x)
    y = v%a + v%b * v%a
  end subroutine
end module
