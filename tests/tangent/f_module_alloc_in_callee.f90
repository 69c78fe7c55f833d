! radtap: -head f -vars "x" -outvars "s"
! sizes: n=4
! A module work array allocated on first use by the callee (`if (.not. allocated(a))
! allocate(a(n))`): the checkpoint of the call pushed `a` before anything had allocated it
! (a crash). Its snapshot now records whether it was allocated, and only then its values.
module work_mod
  implicit none
  real(8), allocatable :: a(:)
contains
  subroutine setup(n, x)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    if (.not. allocated(a)) allocate(a(n))
    a = x * x
  end subroutine setup

  subroutine f(n, x, s)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    real(8), intent(out) :: s
    call setup(n, x)
    s = sum(sin(a) * x)
    call setup(n, x(n:1:-1))
    s = s + sum(a**2)
  end subroutine f
end module work_mod
