! radtap: -head "filt.top(y)/(x)"
! sizes: n=4
! A saved allocatable work array carrying a derivative from one call to the next: the
! adjoint allocated it again and freed it backwards, dropping the adjoint carried to the
! previous call (a wrong gradient, no message). Refused in adjoint mode; the tangent is
! right (its saved derivative is zeroed once per run, only when allocated).
module filt
  implicit none
contains
  subroutine step(n, x, y, reset)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    real(8), intent(out) :: y(n)
    logical, intent(in) :: reset
    real(8), allocatable, save :: s(:)
    if (.not. allocated(s)) then
      allocate(s(n))
      s = 0d0
    end if
    if (reset) s = 0d0
    s = 0.5d0*s + sin(x)
    y = s
  end subroutine
  subroutine top(n, x, y)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    real(8), intent(out) :: y(n)
    call step(n, x, y, .true.)
    call step(n, x, y, .false.)
  end subroutine
end module
