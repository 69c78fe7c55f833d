! Complex arithmetic: literal constants (re, im), cmplx, real/aimag,
! conjg, abs, intrinsic functions on complex values, complex arrays
! and the roots of a quadratic with a negative discriminant.
program complex_numbers
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  complex :: a, b, c
  complex(dp) :: z, w, roots(2)
  complex(kind=dp) :: unity(6)
  real(dp) :: pi, disc
  integer :: k

  a = (1.0, 2.0)
  b = (3.0, -1.0)
  c = cmplx(0.5, 0.5)
  write(*,'(A,2F9.4)') 'a       =', a
  write(*,'(A,2F9.4)') 'a + b   =', a + b
  write(*,'(A,2F9.4)') 'a - b   =', a - b
  write(*,'(A,2F9.4)') 'a * b   =', a * b
  write(*,'(A,2F9.4)') 'a / b   =', a / b
  write(*,'(A,2F9.4)') 'a ** 2  =', a**2
  write(*,'(A,2F9.4)') 'conjg(a)=', conjg(a)
  write(*,'(A,F9.4)')  'abs(b)  =', abs(b)
  write(*,'(A,2F9.4)') 'real,aimag(c)=', real(c), aimag(c)
  write(*,'(A,2F9.4)') '2*c + 1 =', 2.0 * c + 1.0

  pi = 4.0_dp * atan(1.0_dp)
  z = exp(cmplx(0.0_dp, pi, kind=dp))
  write(*,'(A,F10.6,A,L2)') 'exp(i*pi) =', real(z), ' imag~0:', &
    abs(aimag(z)) < 1.0e-12_dp
  z = (0.0_dp, 1.0_dp)
  write(*,'(A,2F10.6)') 'i*i       =', z * z
  w = sqrt((-4.0_dp, 0.0_dp))
  write(*,'(A,2F10.6)') 'sqrt(-4)  =', w
  w = log((-1.0_dp, 0.0_dp))
  write(*,'(A,2F10.6)') 'log(-1)   =', w

  do k = 1, 6
    unity(k) = exp(cmplx(0.0_dp, 2.0_dp * pi * (k - 1) / 6.0_dp, kind=dp))
  end do
  write(*,'(A,L2)') 'sum of 6th roots of unity is zero:', &
    abs(sum(unity)) < 1.0e-12_dp
  write(*,'(A,F10.6)') 'product of magnitudes =', product(abs(unity))
  write(*,'(A,2F10.6)') 'unity(2) =', unity(2)

  ! x**2 + 2x + 5 = 0  ->  x = -1 +/- 2i
  disc = 2.0_dp**2 - 4.0_dp * 1.0_dp * 5.0_dp
  roots(1) = (-2.0_dp + sqrt(cmplx(disc, 0.0_dp, kind=dp))) / 2.0_dp
  roots(2) = (-2.0_dp - sqrt(cmplx(disc, 0.0_dp, kind=dp))) / 2.0_dp
  do k = 1, 2
    write(*,'(A,I1,A,F8.4,SP,F8.4,A)') 'root ', k, ': ', roots(k), 'i'
  end do
  write(*,'(A,L2)') 'a == (1,2):', a == (1.0, 2.0)
end program complex_numbers
