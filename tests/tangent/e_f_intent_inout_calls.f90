! radtap: -head iic -vars "x" -outvars "x"
! sizes: n=4
! A callee with two intent(inout) array elements receiving distinct elements
! of the same array, the same element twice to an (in, inout) pair through a
! copy.
module iic_m
  implicit none
contains
  subroutine swapmix(a, b)
    real(8), intent(inout) :: a, b
    real(8) :: t
    t = a
    a = a*b + 0.1d0
    b = t*t
  end subroutine swapmix

  subroutine iic(n, x)
    integer, intent(in) :: n
    real(8), intent(inout) :: x(n)
    real(8) :: c
    integer :: i
    do i = 1, n - 1
      call swapmix(x(i), x(i + 1))
    end do
    c = x(2)
    call swapmix(x(2), c)
    x(1) = x(1) + c
  end subroutine iic
end module iic_m
