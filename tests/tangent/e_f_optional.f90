! radtap: -head opt_top -vars "x" -outvars "y"
! sizes:
! OPTIONAL dummies tested with present(): a call with and one without the
! optional real argument.
module opt_m
  implicit none
contains
  subroutine scale(a, r, w)
    real(8), intent(in) :: a
    real(8), intent(out) :: r
    real(8), intent(in), optional :: w
    if (present(w)) then
      r = a*w
    else
      r = a*a
    end if
  end subroutine scale

  subroutine opt_top(x, y)
    real(8), intent(in) :: x(2)
    real(8), intent(out) :: y
    real(8) :: r1, r2
    call scale(x(1), r1, x(2))
    call scale(x(2), r2)
    y = r1 + r2*r1
  end subroutine opt_top
end module opt_m
