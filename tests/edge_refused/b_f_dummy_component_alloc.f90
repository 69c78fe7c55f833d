! radtap: -head f -vars "c" -outvars "s"
! sizes: n=4
! An allocatable component of a dummy argument allocated in the callee: the adjoint ran the
! ALLOCATE again in the callee's forward sweep and cleared the adjoint handed in (the
! caller's adjoint component was never allocated: a crash). Refused in adjoint mode.
module grid_mod
  implicit none
  type :: grid
     real(8), allocatable :: a(:)
  end type grid
contains
  subroutine init(g, n, c)
    type(grid), intent(out) :: g
    integer, intent(in) :: n
    real(8), intent(in) :: c
    allocate(g%a(n))
    g%a = c
  end subroutine init

  subroutine f(n, c, s)
    integer, intent(in) :: n
    real(8), intent(in) :: c
    real(8), intent(out) :: s
    type(grid) :: g
    call init(g, n, c)
    s = sum(g%a**2)
  end subroutine f
end module grid_mod
