subroutine f(x, y)
  real(8), intent(in) :: x
  real(8), intent(inout) :: y
  y = 2*y
#include "step.inc"
  y = sin(y)
end subroutine f
