! radtap: -head "m.run(y)/(x)"
! sizes: n=3
! A SAVE table filled by a first call from an `init` routine (not differentiated: it calls
! the original `setk`), then read by the active calls: `setk_d` keeps its own copy of
! `memory`, never filled (tangent 0 instead of 62.97, no message). Refused at the call of the
! original.
module m
  implicit none
contains
  subroutine setk(k, first)
    real(8), intent(inout) :: k
    logical, intent(in) :: first
    real(8), save :: memory
    if (first) memory = 2d0
    memory = memory*k
    k = memory
  end subroutine setk
  subroutine init()
    real(8) :: c
    c = 1.5d0
    call setk(c, .true.)
  end subroutine init
  subroutine run(x, n, y)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    real(8), intent(out) :: y
    real(8) :: c
    integer :: i
    call init()
    y = 0d0
    do i = 1, n
      c = x(i)
      call setk(c, .false.)
      y = y + c**2
    end do
  end subroutine run
end module m
