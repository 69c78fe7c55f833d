! radtap: -head ia_head -vars "x" -outvars "y"
! sizes: n=5
! An internal procedure that reads and overwrites a host array `w` by host association: the
! adjoint must record `w` around each call (each sweep reads the values the call overwrites).
subroutine ia_head(x, y, n)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y
  real(8) :: w(n)
  integer :: it
  w = x
  do it = 1, 3
    call smooth()
  end do
  y = sum(w*w)
contains
  subroutine smooth()
    integer :: i
    do i = 2, n
      w(i) = 0.5d0*w(i)*w(i-1) + sin(w(i))
    end do
    w(1) = w(1)*w(n)
  end subroutine smooth
end subroutine ia_head
