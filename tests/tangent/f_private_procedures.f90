! radtap: -head energy -vars "x" -outvars "e"
! sizes: x=4
! A module that makes everything PRIVATE but its entry point, as libraries do: the
! adjoint's forward sweep calls the primal of the private `bond` (checkpointed), which the
! derivative module outside `springs` could not reach (the adjoint did not compile).
module springs
  implicit none
  private
  public :: energy
  real(8), parameter :: stiffness = 1.5d0
contains
  subroutine bond(a, b, w)
    real(8), intent(in) :: a, b
    real(8), intent(out) :: w
    w = stiffness * (b - a)**2 + sin(a * b)
  end subroutine bond

  subroutine energy(x, e)
    real(8), intent(in) :: x(4)
    real(8), intent(out) :: e
    real(8) :: w
    integer :: i
    e = 0d0
    do i = 1, 3
       call bond(x(i), x(i + 1), w)
       e = e + w * x(i)
    end do
  end subroutine energy
end module springs
