! radtap: -head f -vars "x" -outvars "y"
! sizes:
! A module work array allocated on first use (`if (.not. allocated(w)) allocate(w(2))`):
! once a primal run has allocated `w`, the derivative never passes the ALLOCATE, so the
! head allocates `wd`/`wb` with `w`'s bounds on entry (it crashed in `wd(1) = ...`).
module mag
  implicit none
  real(8), allocatable :: w(:)
contains
  subroutine f(x, y)
    real(8), intent(in) :: x
    real(8), intent(out) :: y
    if (.not. allocated(w)) allocate(w(2))
    w(1) = x * x
    w(2) = sin(x)
    y = w(1) * x + w(2)
  end subroutine f
end module mag
