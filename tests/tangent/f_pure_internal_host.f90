! radtap: -head "scale_sum(s)/(x)"
! sizes: n=4
! A PRIVATE pure procedure the head calls, with an internal pure procedure that reads a
! variable of its host, in the shape of bspline-fortran's `check_inputs` (its internal
! `check` reads `iknot` and `iex`): the copy in the derivative module receives the host's
! variables as arguments, which had no INTENT (a pure procedure's dummies need one: the
! tangent did not compile). They are INTENT(IN), as a pure procedure cannot define them.
module pure_host
  implicit none
  private
  public :: scale_sum
contains
  subroutine scale_sum(n, x, s)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    real(8), intent(out) :: s
    logical :: ok
    integer :: i
    call check(n, ok)
    s = 0.0d0
    if (ok) then
      do i = 1, n
        s = s + x(i)**2*cos(x(i))
      end do
    end if
  end subroutine scale_sum

  pure subroutine check(n, ok)
    integer, intent(in) :: n
    logical, intent(out) :: ok
    integer :: extra
    extra = 0
    if (n > 100) extra = 2
    call inner(ok)
  contains
    pure subroutine inner(ok)
      logical, intent(out) :: ok
      ok = n + extra > 0
    end subroutine inner
  end subroutine check
end module pure_host
