! radtap: -head relax -vars "y" -outvars "y"
! sizes: y=2
! A pointer component associated with an active array (`w%p => y`), then written through
! in a callee: the analyses took the write for one of the record `w`, so the tangent left
! `y` alone (validate failed). Refused at the pointer assignment.
module views
  implicit none
  type view
    real(8), pointer :: p(:)
    integer :: n
  end type view
contains
  subroutine step(w)
    type(view), intent(inout) :: w
    w%p(2) = w%p(2) - 0.5d0 * w%p(1) * w%p(2)
  end subroutine step

  subroutine relax(y)
    real(8), target, intent(inout) :: y(2)
    type(view) :: w
    w%p => y
    w%n = 2
    call step(w)
  end subroutine relax
end module views
