! radtap: -head do_exit -vars "x" -outvars "y"
! sizes: n=8
! The 4-line DO with EXIT of issue 21 item 8: its adjoint keeps the loop (no
! GOTO), one control bit per iteration says whether the rest of the body ran.
subroutine do_exit(n, x, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y
  integer :: i
  y = 1.0d0
  do i = 1, n
    y = y*(1.0d0 + 0.2d0*sin(x(i)))
    if (i > n - 3) exit
    y = y + 0.1d0*x(i)*y
  end do
end subroutine do_exit
