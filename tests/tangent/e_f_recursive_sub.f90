! radtap: -head rsub_top -vars "x" -outvars "y"
! sizes:
! A RECURSIVE subroutine accumulating into an intent(inout) argument.
module rsub_m
  implicit none
contains
  recursive subroutine walk(t, k, s)
    real(8), intent(in) :: t
    integer, intent(in) :: k
    real(8), intent(inout) :: s
    if (k > 0) then
      s = s*t + 0.1d0
      call walk(t*0.9d0, k - 1, s)
    end if
  end subroutine walk

  subroutine rsub_top(x, y)
    real(8), intent(in) :: x
    real(8), intent(out) :: y
    y = 1.0d0
    call walk(x, 4, y)
  end subroutine rsub_top
end module rsub_m
