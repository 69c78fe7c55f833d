! radtap: -head f -vars "x" -outvars "y"
! A structure constructor with an active component: refused as such (it was taken for a
! function with no body, "add its source file").
module mc
  implicit none
  type pt
    real(8) :: a, b
  end type pt
contains
  subroutine f(x, y)
    real(8), intent(in) :: x
    real(8), intent(out) :: y
    type(pt) :: p
    p = pt(x, 2.0d0)
    y = p%a*p%b
  end subroutine f
end module mc
