! Logical operators .and. .or. .not. .eqv. .neqv., relational
! operators in both the old (.lt. .le. .eq. .ne. .gt. .ge.) and new
! (< <= == /= > >=) spellings, and logical arrays.
program logical_relational
  implicit none
  logical :: p, q, table(4, 2)
  logical :: bits(5)
  integer :: i, a, b
  real :: x, y

  write(*,'(A)') '   p   q and  or eqv  ne not'
  i = 0
  do a = 0, 1
    do b = 0, 1
      p = a == 1
      q = b .eq. 1
      i = i + 1
      table(i, 1) = p .and. q
      table(i, 2) = p .or. q
      write(*,'(7L4)') p, q, p .and. q, p .or. q, p .eqv. q, &
        p .neqv. q, .not. p
    end do
  end do
  write(*,'(A,4L2)') 'and column:', table(:, 1)
  write(*,'(A,4L2)') 'or column :', table(:, 2)

  a = 3
  b = 7
  write(*,'(A,6L2)') 'old ops 3?7 :', a .lt. b, a .le. b, a .eq. b, &
    a .ne. b, a .gt. b, a .ge. b
  write(*,'(A,6L2)') 'new ops 3?7 :', a < b, a <= b, a == b, &
    a /= b, a > b, a >= b
  write(*,'(A,6L2)') 'mixed 7?7   :', b .lt. 7, b <= 7, b .eq. 7, &
    b /= 7, b .gt. 7, b >= 7

  x = 0.1 + 0.2
  y = 0.3
  write(*,'(A,L2)') 'abs(x-y) < 1e-6:', abs(x - y) < 1.0e-6

  ! Precedence: .not. binds tighter than .and., which binds tighter
  ! than .or., which binds tighter than .eqv.
  p = .true.
  q = .false.
  write(*,'(A,L2)') '.not. p .and. q .or. p        :', .not. p .and. q .or. p
  write(*,'(A,L2)') '.not. (p .and. (q .or. p))    :', .not. (p .and. (q .or. p))
  write(*,'(A,L2)') 'p .or. q .eqv. q .or. q       :', p .or. q .eqv. q .or. q
  write(*,'(A,L2)') 'a+1 > b-5 .and. a*2 /= b      :', a + 1 > b - 5 .and. a * 2 /= b

  bits = [(mod(i, 2) == 1, i = 1, 5)]
  write(*,'(A,5L2)') 'bits       :', bits
  write(*,'(A,5L2)') '.not. bits :', .not. bits
  write(*,'(A,5L2)') 'bits.eqv.T :', bits .eqv. .true.
  write(*,'(A,L2,L2,I2)') 'any, all, count:', any(bits), all(bits), count(bits)
  if (.not. (a > b) .and. (b .ge. a)) then
    print *, 'a is not greater than b'
  end if
  if (x > 0.0 .and. y > 0.0 .or. .false.) print *, 'both positive'
  write(*,'(A,L2)') 'string compare "abc" .lt. "abd":', 'abc' .lt. 'abd'
end program logical_relational
