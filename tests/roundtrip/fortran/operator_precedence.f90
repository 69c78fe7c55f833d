! Operator precedence and associativity: right-associative **,
! unary minus versus **, integer division truncation, mod/modulo,
! mixed-mode arithmetic and parenthesised grouping.
program operator_precedence
  implicit none
  real :: x, r1, r2
  integer :: i, j, k
  double precision :: d

  r1 = 2.0**3**2
  r2 = (2.0**3)**2
  write(*,'(A,F10.1,A,F10.1)') '2.0**3**2 =', r1, '  (2.0**3)**2 =', r2
  write(*,'(A,I0)') '2**2**3 = ', 2**2**3

  x = 3.0
  write(*,'(A,F8.2)') '-x**2      =', -x**2
  write(*,'(A,F8.2)') '(-x)**2    =', (-x)**2
  write(*,'(A,F8.2)') '1 - x**2   =', 1.0 - x**2
  write(*,'(A,F8.2)') 'x**-1      =', x**(-1)
  write(*,'(A,F8.4)') 'x**0.5     =', x**0.5
  write(*,'(A,F8.2)') '2*x**2/3   =', 2.0*x**2/3.0
  write(*,'(A,F8.2)') '-2*-x      =', -2.0*(-x)

  write(*,'(A,4I4)') '7/2, -7/2, 7/(-2), -7/(-2):', 7/2, -7/2, 7/(-2), -7/(-2)
  write(*,'(A,4I4)') 'mod(7,3), mod(-7,3), mod(7,-3), mod(-7,-3):', &
    mod(7, 3), mod(-7, 3), mod(7, -3), mod(-7, -3)
  write(*,'(A,4I4)') 'modulo( 7,3), modulo(-7,3), modulo(7,-3), modulo(-7,-3):', &
    modulo(7, 3), modulo(-7, 3), modulo(7, -3), modulo(-7, -3)

  i = 17
  j = 5
  k = i / j * j + mod(i, j)
  write(*,'(A,I0)') 'i/j*j + mod(i,j) = ', k
  write(*,'(A,I0)') '2 + 3 * 4 - 6 / 2 = ', 2 + 3 * 4 - 6 / 2
  write(*,'(A,I0)') '(2 + 3) * (4 - 6) / 2 = ', (2 + 3) * (4 - 6) / 2
  write(*,'(A,I0)') '100 / 7 / 2 = ', 100 / 7 / 2
  write(*,'(A,I0)') '100 / (7 / 2) = ', 100 / (7 / 2)
  write(*,'(A,I0)') '-2**2 = ', -2**2
  write(*,'(A,I0)') '2**10 - 1 = ', 2**10 - 1
  write(*,'(A,I0)') '(-2)**3 = ', (-2)**3

  write(*,'(A,F8.3)') '1/2 + 1.0/2 =', 1/2 + 1.0/2
  write(*,'(A,F8.3)') 'real(7)/2   =', real(7)/2
  write(*,'(A,F8.3)') '7/2*1.0     =', 7/2*1.0
  write(*,'(A,F8.3)') '1.0*7/2     =', 1.0*7/2
  d = 1.0d0 + 2.0d0 * 3.0d0 ** 2 / 4.0d0 - 0.5d0
  write(*,'(A,F10.4)') '1+2*3**2/4-0.5 =', d
  write(*,'(A,F10.4)') 'a-b-c left assoc: 10-4-3 =', 10.0 - 4.0 - 3.0
  write(*,'(A,F10.4)') 'a/b/c left assoc: 24/4/2 =', 24.0 / 4.0 / 2.0
  write(*,'(A,F10.4)') 'nested parens =', ((1.0 + 2.0) * (3.0 - (4.0 / 8.0)))
  write(*,'(A,F10.4)') 'unary plus  =', +x - (-x)
end program operator_precedence
