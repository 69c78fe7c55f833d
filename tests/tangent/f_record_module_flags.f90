! radtap: -head rf_head -vars "x" -outvars "y"
! sizes:
! Issue 19 items 5/6: a derived-type module variable with a logical and a real component,
! read and set by a called routine: the adjoint records its components (`fc%first`,
! `fc%scale`) around the calls instead of refusing the whole derived-type variable.
module rf_mod
  implicit none
  type flags
    logical :: first
    integer :: count
    real(8) :: scale
  end type flags
  type(flags) :: fc
contains
  subroutine setf(x)
    real(8), intent(in) :: x
    if (fc%first) then
      fc%scale = fc%scale*x
      fc%first = .false.
    else
      fc%scale = fc%scale + sin(x)*fc%scale
    end if
    fc%count = fc%count + 1
  end subroutine setf
  subroutine rf_head(x, y)
    real(8), intent(in) :: x(2)
    real(8), intent(out) :: y
    fc%first = .true.
    fc%count = 0
    fc%scale = x(1)
    call setf(x(2))
    y = fc%scale*x(2)
    call setf(x(1))
    call setf(x(2))
    y = y + fc%scale*fc%scale + dble(fc%count)
  end subroutine rf_head
end module rf_mod
