! radtap: -head f -vars "x" -outvars "y"
! sizes:
! A module PRIVATE by default whose kind parameter `dp` is private: the derivative module
! copies it, before the derivative variable `cd` and the derivative type that use it (it
! came after them: "Symbol 'dp' has no IMPLICIT type").
module pk
  implicit none
  private
  public :: f, c, st, s
  integer, parameter :: dp = kind(1.0d0)
  type st
    real(dp) :: a, b
  end type st
  real(dp) :: c = 2.0_dp
  type(st) :: s
contains
  subroutine f(x, y)
    real(dp), intent(in) :: x
    real(dp), intent(out) :: y
    c = x * 0.5_dp
    s%a = c * x
    s%b = 3.0_dp
    y = c * x * x + s%a * s%b
  end subroutine f
end module pk
