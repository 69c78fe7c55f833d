! radtap: -head cfres -vars "x" -outvars "y"
! sizes:
! A complex function result read only through aimag/real in an expression: the caller names
! no complex variable, only the function (its hoisted result and derivative are complex).
module cfres_m
  implicit none
contains
  function f(a, b) result(z)
    real(8), intent(in) :: a, b
    complex(8) :: z
    z = cmplx(a, b, 8)**2
  end function f
end module cfres_m
subroutine cfres(x, y)
  use cfres_m
  implicit none
  real(8), intent(in) :: x(2)
  real(8), intent(out) :: y
  y = aimag(f(x(1), x(2))) + real(f(x(2), x(1)))*x(1)
end subroutine cfres
