! radtap: -head crecur -vars "a" -outvars "y"
! sizes: n=5
! A complex value overwritten in a loop (a Horner-like recurrence and a complex array
! updated in place): the adjoint records the complex scalar and the complex array before
! each overwrite (pushComplex16 / pushComplex16Array).
subroutine crecur(n, a, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: a(n)
  real(8), intent(out) :: y(2)
  complex(8) :: p, q(3)
  integer :: k
  p = (1.0d0, 0.0d0)
  q = (0.5d0, 0.5d0)
  do k = 1, n
    p = p*cmplx(0.6d0, 0.3d0*a(k), 8) + a(k)
    q = q*p/(1.0d0 + abs(p))
  end do
  y(1) = real(p, 8) + abs(sum(q))
  y(2) = aimag(p*q(2))
end subroutine crecur
