! radtap: -head accumulate -vars "x" -outvars "s"
! sizes:
! A derived-type local filled by a callee inside a loop (intent(out), written whole each
! time): the tangent sets its derivative to zero before each call, component by component
! (`zd = 0.0_8` for the whole record did not compile).
module state_mod
  implicit none
  integer, parameter :: ng = 3
  type :: state
     real(8) :: a(ng)
     real(8) :: b(ng)
     integer :: tag
  end type state
contains
  subroutine fill(x, z)
    real(8), intent(in) :: x
    type(state), intent(out) :: z
    integer :: k
    do k = 1, ng
       z%a(k) = x * k
       z%b(k) = sin(x) * z%a(k)
    end do
    z%tag = ng
  end subroutine fill

  subroutine accumulate(x, s)
    real(8), intent(in) :: x
    real(8), intent(out) :: s
    type(state) :: z
    integer :: i
    s = 0d0
    do i = 1, 3
       call fill(x * i, z)
       s = s + sum(z%a) * z%b(1) + sum(z%b) / z%tag
    end do
  end subroutine accumulate
end module state_mod
