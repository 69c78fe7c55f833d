! radtap: -head goto_free -vars "x" -outvars "s"
! sizes: n=6
! A loop built from labels and GOTO in free form: test at label 10 on an
! integer counter, backward GOTO 10, a forward GOTO 15 skipping a statement
! on odd i, and exit to label 20.
subroutine goto_free(n, x, s)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: s
  integer :: i
  s = 1.0d0
  i = 1
10 continue
  if (i > n) goto 20
  s = s*0.9d0 + x(i)*cos(0.5d0*s)
  if (mod(i, 2) == 1) goto 15
  s = s + 0.1d0*x(i)**2
15 continue
  i = i + 1
  goto 10
20 continue
  s = s + 1.0d0
end subroutine goto_free
