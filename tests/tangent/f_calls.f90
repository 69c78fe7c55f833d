! radtap: -head calls_head -vars "x" -outvars "y"
! sizes: n=4
! Subroutine g called twice: with active x and with the constant 2.0d0 (its
! result z still matters); FUNCTION f used twice inside one expression; and
! count_up that only ever handles integers (never active).
subroutine g(a, b)
  implicit none
  real(8), intent(in) :: a
  real(8), intent(out) :: b
  b = a*a + sin(a)
end subroutine g

real(8) function f(u)
  implicit none
  real(8), intent(in) :: u
  f = u*exp(-0.5d0*u) + 0.1d0
end function f

subroutine count_up(n, k)
  implicit none
  integer, intent(in) :: n
  integer, intent(out) :: k
  k = n*(n + 1)/2
end subroutine count_up

subroutine calls_head(n, x, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x
  real(8), intent(out) :: y
  real(8), external :: f
  real(8) :: t, z
  integer :: k
  call g(x, t)
  call g(2.0d0, z)
  call count_up(n, k)
  y = t*z + f(x)*2.0d0 + f(x*x)
  y = y + 0.01d0*dble(k)*x
end subroutine calls_head
