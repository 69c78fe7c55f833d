! radtap: -head shape_ops -vars "x" -outvars "y s"
! sizes: n=6 x=n y=n
! Assumed-shape x(:), y(:): whole-array expressions (y = 2*x + sin(x)), array
! sections x(2:n-1), x(1:n-2), a strided section y(1:n:2), a section passed to
! a module procedure with an assumed-shape dummy, and size().
module shape_util
  implicit none
contains
  subroutine damp(v, c)
    real(8), intent(inout) :: v(:)
    real(8), intent(in) :: c
    v = v/(1.0d0 + c*v*v)
  end subroutine damp
end module shape_util

subroutine shape_ops(n, x, y, s)
  use shape_util
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(:)
  real(8), intent(out) :: y(:)
  real(8), intent(out) :: s
  y = 2.0d0*x + sin(x)
  y(2:n-1) = y(2:n-1) + 0.25d0*(x(1:n-2) + x(3:n))*x(2:n-1)
  y(1:n:2) = y(1:n:2)*x(1:n:2)
  call damp(y(2:n), 0.01d0)
  s = sum(y(2:n-1)**2)/dble(size(x))
end subroutine shape_ops
