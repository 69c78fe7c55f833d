! radtap: -head f -vars "x" -outvars "y"
! sizes: n=3
! An allocatable component of a local record allocated in the head: its adjoint component
! `ab%x` is allocated with it (the adjoint zeroed `ab%x` unallocated and crashed).
module mrac
  implicit none
  type t
    real(8), allocatable :: x(:)
  end type t
contains
  subroutine g(a, y)
    type(t), intent(in) :: a
    real(8), intent(out) :: y
    y = sum(a%x**2)
  end subroutine g
  subroutine f(n, x, y)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    real(8), intent(out) :: y
    type(t) :: a
    allocate(a%x(n))
    a%x = x
    call g(a, y)
    deallocate(a%x)
  end subroutine f
end module mrac
