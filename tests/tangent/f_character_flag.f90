! radtap: -head char_flag -vars "x" -outvars "y"
! sizes: n=4
! A character(len=3) module flag decides a branch in a callee that also changes
! it: the adjoint must restore the whole string (not its first byte) before the
! callee's recomputation in the backward sweep. Also a character array element
! and a substring overwritten inside a loop.
module char_flags
  implicit none
  character(len=3) :: mode = 'non'
  character(len=4) :: tags(3) = 'abcd'
contains
  subroutine step(x, y)
    real(8), intent(in) :: x
    real(8), intent(inout) :: y
    if (mode == 'yes') then
      y = y*x + sin(x)
    else
      y = y + 2.0d0*x
    end if
    mode = 'off'
  end subroutine step

  subroutine tagged(k, x, y)
    integer, intent(in) :: k
    real(8), intent(in) :: x
    real(8), intent(inout) :: y
    if (tags(k)(2:3) == 'on') then
      y = y*x*0.5d0 + x
    else
      y = y + cos(x)
    end if
    tags(k) = 'zzzz'
    tags(k)(2:3) = 'of'
  end subroutine tagged
end module char_flags

subroutine char_flag(n, x, y)
  use char_flags
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y
  integer :: i
  y = 1.0d0
  mode = 'yes'
  call step(x(1), y)
  tags = 'aonb'
  do i = 1, 3
    call tagged(i, x(i + 1), y)
    tags(i)(2:3) = 'on'
  end do
  y = y*x(n)
end subroutine char_flag
