! radtap: -head if_head -vars "x a" -outvars "s"
! sizes: n=6
! An internal function with its own arguments, called in a loop in an expression, that also
! reads the host's scalar `a` and its integer dummy `n`, and calls another internal function
! that reads `a` (the closure over internal calls).
subroutine if_head(x, a, s, n)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n), a
  real(8), intent(out) :: s
  integer :: i
  s = 0.0d0
  do i = 1, n
    s = s + f(x(i), i)*x(i)
  end do
contains
  real(8) function f(u, k)
    real(8), intent(in) :: u
    integer, intent(in) :: k
    f = exp(a*u)/(1.0d0 + u*u) + dble(k)/dble(n)*g(u)
  end function f
  real(8) function g(v)
    real(8), intent(in) :: v
    g = sqrt(v + a)
  end function g
end subroutine if_head
