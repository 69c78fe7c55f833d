! radtap: -head ra_head -vars "x" -outvars "y"
! sizes:
! Issue 19 item 5: a derived-type local passed to a routine that overwrites its components
! (a logical flag, a real, a real array component) is recorded component by component in the
! adjoint; an array of records records a scalar component as the section `p%m`.
module ra_mod
  implicit none
  type state
    logical :: first
    real(8) :: v
    real(8) :: w(3)
  end type state
  type part
    real(8) :: m
    integer :: id
  end type part
contains
  subroutine upd(s, x)
    type(state), intent(inout) :: s
    real(8), intent(in) :: x
    if (s%first) then
      s%v = s%v*sin(x)
    else
      s%v = s%v*cos(x) + s%w(1)
    end if
    s%first = .false.
    s%w(2) = s%w(2)*s%v
  end subroutine upd
  subroutine scale_parts(p, x)
    type(part), intent(inout) :: p(:)
    real(8), intent(in) :: x
    integer :: i
    do i = 1, size(p)
      p(i)%m = p(i)%m*p(i)%m*x
    end do
  end subroutine scale_parts
  subroutine ra_head(x, y)
    real(8), intent(in) :: x(3)
    real(8), intent(out) :: y
    type(state) :: s
    type(part) :: p(2)
    s%first = .true.
    s%v = x(1)
    s%w = x
    y = s%v*s%w(2)
    call upd(s, x(2))
    y = y + s%v*s%w(2)
    call upd(s, x(3))
    y = y + s%v*s%w(2)
    p(1)%m = x(1)
    p(2)%m = x(2)
    p(1)%id = 1
    p(2)%id = 2
    call scale_parts(p, x(3))
    call scale_parts(p, x(1))
    y = y + p(1)%m + p(2)%m*dble(p(2)%id)
  end subroutine ra_head
end module ra_mod
