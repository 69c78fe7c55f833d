! radtap: -head passive_inputs -vars "x" -outvars "y"
! sizes: n=5
! A passive call kept in the adjoint's forward sweep reads an integer index `l`
! and a divisor `d` set just before it; what it writes is added to the output
! but carries no partial derivative. The forward sweep keeps the call, so it
! must compute what the call reads (an integer division by the stale `d = 0`
! traps, a stale `l` writes out of bounds).
module passive_helpers
  implicit none
contains
  subroutine scale_into(a, b, d)
    real(8), intent(in) :: a
    real(8), intent(out) :: b
    integer, intent(in) :: d
    b = 2.0d0*a + 0.01d0*dble(100/d)
  end subroutine scale_into
end module passive_helpers

subroutine passive_inputs(n, x, y)
  use passive_helpers
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y
  real(8) :: p(n), q(n), r(n)
  integer :: i, d, l
  do i = 1, n
    p(i) = 0.1d0*i
    q(i) = 1.0d0
    r(i) = 0.5d0
  end do
  d = 0
  l = 1000000
  y = x(d + 1)*x(2) + x(mod(l, 3) + 3)
  d = 2
  l = 1
  call scale_into(p(3), r(l), d)
  y = y + sin(x(3)) + r(1)
  do i = 1, n
    l = mod(i, 2) + 1
    d = i
    call scale_into(p(i), q(l), d)
    y = y + x(i)*q(3) + q(l)
  end do
end subroutine passive_inputs
