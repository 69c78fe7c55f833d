! radtap: -head iread -vars "x" -outvars "y"
! sizes: n=3
! An internal READ overwrites an active variable with a constant (its derivative must be
! reset, not left stale), and a PARAMETER divided by an active value.
subroutine iread(n, x, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y
  real(8), parameter :: ea = 2.5d0
  character(len=8) :: buf
  real(8) :: t
  integer :: i
  y = 0.0d0
  do i = 1, n
    t = x(i)**2
    y = y + t
    if (i == 2) then
      buf = '  0.75'
      read (buf, *) t
    end if
    y = y + t*x(i) + ea/(1.0d0 + t*t)
  end do
end subroutine iread
