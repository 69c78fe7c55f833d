! radtap: -head local_records -vars "x p" -outvars "y"
! sizes: n=5
! Values the adjoint records outside every loop are kept in local variables instead of on
! the stack (issue 21, `locals.rs`), in Fortran: a scalar overwritten twice, an array
! element, values overwritten under an IF, a scalar argument a call overwrites (its snapshot
! read again before the call's re-run), an integer subscript overwritten; an array argument's
! snapshot and what a loop records stay on the stack.
subroutine bump(a, k)
  implicit none
  real(8), intent(inout) :: a
  real(8), intent(in) :: k
  a = a * (1.0d0 + k * a)
end subroutine bump

subroutine twist(n, q, c)
  implicit none
  integer, intent(in) :: n
  real(8), intent(inout) :: q(n)
  real(8), intent(in) :: c
  integer :: i
  do i = 2, n
    q(i) = q(i) * c + q(i - 1) * q(i)
  end do
end subroutine twist

subroutine local_records(n, x, p, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n), p(3)
  real(8), intent(out) :: y(4)
  real(8) :: a, b, q(2), w(n)
  integer :: i, m
  a = sin(x(1)) * p(1)
  a = a * a + x(2)
  q(1) = x(2) * p(2)
  q(2) = x(3) / p(3)
  q(1) = q(1) * a
  b = a * q(2)
  if (x(3) > 0.25d0) then
    a = a * cos(b)
    b = b + a * q(1)
  end if
  call bump(a, p(2))
  m = n / 2
  y(2) = a * x(m) * b
  m = mod(3 * m + 1, n) + 1
  y(3) = 0.1d0 * (b * x(m) + q(1) * q(2))
  do i = 1, n
    w(i) = x(i) * q(1)
  end do
  call twist(n, w, p(3))
  do i = 2, n
    a = sin(a) + w(i) * b * 0.1d0
  end do
  y(1) = a + q(1) * q(2)
  y(4) = w(n) * b * 0.1d0
end subroutine local_records
