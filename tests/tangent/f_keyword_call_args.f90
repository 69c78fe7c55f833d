! radtap: -head kc_top -vars "x" -outvars "y"
! sizes: n=4
! Calls by keyword: `call fin(scale=2.0_wp, foo=...)` skips the OPTIONAL `extra` (the
! analyses mapped actuals to dummies by position, so `foo` looked untouched and its
! derivative was not scaled), a module function whose internal procedures use its result,
! a character local, an automatic array and a zero-based dummy by host association.
module kc_mod
  implicit none
  integer, parameter :: wp = kind(1.0d0)
contains
  subroutine fin(scale, extra, foo)
    real(wp), intent(in) :: scale
    real(wp), intent(in), optional :: extra
    real(wp), intent(inout) :: foo
    foo = foo*scale
    if (present(extra)) foo = foo + extra
  end subroutine fin
  real(wp) function foo(x, n)
    integer, intent(in) :: n
    real(wp), intent(in) :: x(0:n)
    character(len=4) :: tag
    real(wp) :: buf(n)
    integer :: i
    tag = 'abcd'
    foo = 0.0_wp
    do i = 1, n
      call acc(i)
    end do
    call twice(scale=1.5_wp)
  contains
    subroutine acc(k)
      integer, intent(in) :: k
      buf(k) = x(k)*x(k-1)
      if (tag(1:1) == 'a') foo = foo + buf(k)
    end subroutine acc
    subroutine twice(scale, extra)
      real(wp), intent(in) :: scale
      real(wp), intent(in), optional :: extra
      foo = foo*scale
      if (present(extra)) foo = foo + extra
    end subroutine twice
  end function foo
  subroutine kc_top(x, y, n)
    integer, intent(in) :: n
    real(wp), intent(in) :: x(0:n)
    real(wp), intent(out) :: y
    y = x(0)*x(1)
    call fin(scale=2.0_wp, foo=y)
    call fin(extra=x(2), scale=x(3), foo=y)
    y = y + foo(x, n)**2
  end subroutine kc_top
end module kc_mod
