! radtap: -head imod_head -vars "x" -outvars "y s"
! sizes: n=4
! Intrinsic modules: kinds from iso_fortran_env renamed in a kinds module (`wp => real64`)
! and seen through it (a rename of a rename), iso_c_binding's c_double and c_int with
! `only:`, and the whole of iso_fortran_env without `only:`.
module imod_kinds
  use, intrinsic :: iso_fortran_env, only: wp => real64, ik => int32
  implicit none
  real(wp), parameter :: half = 0.5_wp
end module imod_kinds

subroutine imod_head(n, x, y, s)
  use imod_kinds
  use iso_c_binding, only: c_double, c_int
  use iso_fortran_env
  implicit none
  integer(ik), intent(in) :: n
  real(wp), intent(in) :: x(n)
  real(c_double), intent(out) :: y(n)
  real(real64), intent(out) :: s
  integer(c_int) :: i
  s = 0.0_wp
  do i = 1, n
    y(i) = half*x(i)**2 + sin(x(i))
    s = s + y(i)*x(i)
  end do
end subroutine imod_head
