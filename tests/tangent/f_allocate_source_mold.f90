! radtap: -head "f(s)/(x)"
! sizes: n=4
! ALLOCATE with SOURCE= and MOLD=: `allocate(u, source=x**2)` gave `u` no derivative (the
! value SOURCE= gives was not seen: a silently wrong tangent and adjoint, 3.78 instead of
! 11.34) and `allocate(w, mold=x)` became `allocate(wd)` with no shape (no compile). Both
! are now an ALLOCATE with the source's bounds, and for SOURCE= an assignment
! (`il::source_alloc`), here with a lower bound of 0 taken from the source.
module shapes
  implicit none
contains
  subroutine f(n, x, s)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    real(8), intent(out) :: s
    real(8), allocatable :: u(:), w(:), z(:)
    real(8) :: y(0:n-1)
    integer :: i
    y = x*1.5d0
    allocate(u, source=x**2)
    allocate(w, mold=x)
    allocate(z, source=y)
    do i = 1, n
      w(i) = u(i)*x(i) + z(i-1)
    end do
    s = sum(w) + z(0)*u(1)
    deallocate(u, w, z)
  end subroutine f
end module shapes
