! radtap: -head branchy -vars "x" -outvars "y"
! Arithmetic IF on the varied real x - 1, computed GOTO on integer k, and a
! GOTO loop y = y*t. The branch t = 3.0d0 kills t's variedness on one path
! only, so t is varied at label 70 (union). y is TBR in the loop (y = y*t
! uses y in its derivative), so each overwrite is recorded; x is diff-live
! at the arithmetic IF because it controls active assignments.
subroutine branchy(x, k, m, y)
  implicit none
  real(8), intent(in) :: x
  integer, intent(in) :: k, m
  real(8), intent(out) :: y
  real(8) :: t
  integer :: i
  if (x - 1.0d0) 10, 20, 30
10 t = -x
  goto 40
20 t = 0.0d0
  goto 40
30 t = x*x
40 continue
  goto (50, 60) k
  t = t + 1.0d0
  goto 70
50 t = 2.0d0*t
  goto 70
60 t = 3.0d0
70 continue
  y = 1.0d0
  i = 0
80 if (i >= m) goto 90
  y = y*t
  i = i + 1
  goto 80
90 continue
end subroutine branchy
