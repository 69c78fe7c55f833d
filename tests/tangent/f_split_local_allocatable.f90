! radtap: -head h -vars "x" -outvars "y"
! sizes: n=5
! A local ALLOCATABLE work array whose values the backward sweep reads (sin of it). In
! split mode (-nocheckpoint) g_fwd and g_bwd are two procedures: g_bwd now allocates the
! array and its adjoint with the bounds g_fwd pushed, before popping the values into it
! (refused before: "ALLOCATE of a local array in a procedure differentiated in split mode").
module sa
  implicit none
contains
  subroutine g(x, n)
    integer, intent(in) :: n
    real(8), intent(inout) :: x(n)
    real(8), allocatable :: buf(:)
    allocate(buf(n))
    buf = x*x
    x = sin(buf)
    deallocate(buf)
  end subroutine g
  subroutine h(x, y, n)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    real(8), intent(out) :: y
    real(8) :: w(n)
    w = x
    call g(w, n)
    y = sum(w)
  end subroutine h
end module sa
