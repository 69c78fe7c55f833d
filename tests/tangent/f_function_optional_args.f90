! radtap: -head foa_head -vars "x" -outvars "y"
! sizes:
! References to module functions with an OPTIONAL argument omitted or given by keyword,
! inside expressions (the staggered-grid mean of an ice-sheet model, `stag_mean(a, b)`):
! the hoisted derivative call passes the result (and its derivative, and `nbdirs`) by
! keyword. They were refused ("pass every argument by position").
module foa_mod
  implicit none
contains
  function stag_mean(a, b, weight) result(m)
    real(8), intent(in) :: a, b
    real(8), intent(in), optional :: weight
    real(8) :: m
    real(8) :: w
    w = 0.5d0
    if (present(weight)) w = weight
    m = w*a*a + (1.0d0 - w)*sin(b)
  end function stag_mean

  real(8) function scaled(u, factor, shift)
    real(8), intent(in) :: u
    real(8), intent(in), optional :: factor, shift
    scaled = u*u
    if (present(factor)) scaled = scaled*factor
    if (present(shift)) scaled = scaled + shift
  end function scaled

  subroutine foa_head(x, y)
    real(8), intent(in) :: x(4)
    real(8), intent(out) :: y(3)
    y(1) = stag_mean(x(1), x(2)) + stag_mean(x(3), x(4), 0.3d0)
    y(2) = stag_mean(x(2), b=x(3), weight=x(1)) * scaled(x(4), shift=x(1))
    y(3) = scaled(scaled(x(3), factor=x(2)), x(4)) + stag_mean(b=x(1), a=x(4))
  end subroutine foa_head
end module foa_mod
