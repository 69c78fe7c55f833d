! radtap: -head f -vars "x" -outvars "y"
! sizes:
! A module that hides everything but its entry point, a derived type included: the
! derivative module declares variables of the type (`type(pair_t) :: p` in `f_d`) but
! cannot see it (the output did not compile). Refused at the first procedure using it.
module pairs
  implicit none
  private
  public :: f
  type :: pair_t
     real(8) :: a, b
  end type pair_t
contains
  subroutine fill(x, p)
    real(8), intent(in) :: x
    type(pair_t), intent(out) :: p
    p%a = x * x
    p%b = sin(x)
  end subroutine fill

  subroutine f(x, y)
    real(8), intent(in) :: x
    real(8), intent(out) :: y
    type(pair_t) :: p
    call fill(x, p)
    y = p%a * p%b
  end subroutine f
end module pairs
