! radtap: -head "top(z)/(x)"
! sizes: n=4
! A saved filter state in a callee of a checkpointed call: the backward sweep runs `mid`
! (and so `step`) again, from the state the forward sweep left, so `y` was recomputed from
! the wrong state (dot-product test off by 15%). `s` is not visible in `mid` or `top`, so
! it cannot be recorded: refused (split mode, -nocheckpoint, is right).
module filt
  implicit none
contains
  subroutine step(x, y, reset)
    real(8), intent(in) :: x
    real(8), intent(out) :: y
    logical, intent(in) :: reset
    real(8), save :: s = 0.0d0
    if (reset) s = 0.0d0
    s = 0.5d0*s + sin(x)
    y = s
  end subroutine
  subroutine mid(x, z, reset)
    real(8), intent(in) :: x
    real(8), intent(out) :: z
    logical, intent(in) :: reset
    real(8) :: y
    call step(x, y, reset)
    z = y*y
  end subroutine
  subroutine top(n, x, z)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    real(8), intent(out) :: z(n)
    integer :: i
    do i = 1, n
      call mid(x(i), z(i), i == 1)
    end do
  end subroutine
end module
