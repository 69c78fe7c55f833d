! radtap: -head "fit(c)/(f)"
! sizes: n=5
! An allocatable work array passed whole to a procedure whose dummy for it has a derivative,
! in the shape of bspline-fortran's `db1ink` (`allocate(work(...)); call dbtpcf(..., work,
! iflag)`): `work` is inactive in the caller, so its derivative is a zero temporary like
! it, which was declared `real(8) :: dummyzerod(:)` (deferred shape without ALLOCATABLE: the
! tangent did not compile). It is now allocatable, allocated with `work`'s bounds before the
! call. In `fit2` the array is an assumed-shape dummy.
module fit_work
  implicit none
  private
  public :: fit, fit2
contains
  subroutine fit(n, x, f, c)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n), f(n)
    real(8), intent(out) :: c(n)
    real(8), allocatable :: work(:)
    allocate(work(2*n))
    call smooth(n, x, f, c, work)
    deallocate(work)
  end subroutine fit

  subroutine fit2(n, x, f, c, work)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n), f(n)
    real(8), intent(out) :: c(n)
    real(8), intent(inout) :: work(:)
    call smooth(n, x, f, c, work)
  end subroutine fit2

  subroutine smooth(n, x, f, c, work)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n), f(n)
    real(8), intent(out) :: c(n)
    real(8), intent(out) :: work(*)
    integer :: i
    do i = 1, n
      work(i) = f(i)*x(i)
      work(n + i) = sin(f(i))
    end do
    do i = 1, n
      c(i) = work(i) + work(n + mod(i, n) + 1)**2
    end do
  end subroutine smooth
end module fit_work
