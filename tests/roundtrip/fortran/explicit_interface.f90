! Explicit interface blocks for external procedures, including a
! procedure dummy argument described by an interface.
real function quad(x)
  implicit none
  real, intent(in) :: x
  quad = x**2 - 3.0*x + 2.0
end function quad

real function lin(x)
  implicit none
  real, intent(in) :: x
  lin = 2.0*x + 1.0
end function lin

subroutine tabulate(f, a, b, n)
  implicit none
  interface
    real function f(x)
      real, intent(in) :: x
    end function f
  end interface
  real, intent(in) :: a, b
  integer, intent(in) :: n
  integer :: i
  real :: x
  do i = 0, n
    x = a + (b - a) * real(i) / real(n)
    write(*,'(2F10.4)') x, f(x)
  end do
end subroutine tabulate

subroutine scale_vec(v, n, factor)
  implicit none
  integer, intent(in) :: n
  real, intent(inout) :: v(n)
  real, intent(in) :: factor
  v = v * factor
end subroutine scale_vec

program explicit_interface
  implicit none
  interface
    real function quad(x)
      real, intent(in) :: x
    end function quad
    real function lin(x)
      real, intent(in) :: x
    end function lin
    subroutine tabulate(f, a, b, n)
      interface
        real function f(x)
          real, intent(in) :: x
        end function f
      end interface
      real, intent(in) :: a, b
      integer, intent(in) :: n
    end subroutine tabulate
    subroutine scale_vec(v, n, factor)
      integer, intent(in) :: n
      real, intent(inout) :: v(n)
      real, intent(in) :: factor
    end subroutine scale_vec
  end interface
  real :: v(4) = [1.0, 2.0, 3.0, 4.0]

  print *, 'quadratic:'
  call tabulate(quad, 0.0, 3.0, 6)
  print *, 'linear:'
  call tabulate(lin, -1.0, 1.0, 2)
  call scale_vec(v, size(v), 0.5)
  write(*,'(A,4F8.3)') 'scaled:', v
  write(*,'(A,F8.3)') 'quad(lin(1)) =', quad(lin(1.0))
end program explicit_interface
