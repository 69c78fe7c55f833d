! Older features written in free form: COMMON, EQUIVALENCE, DATA,
! implicit typing, statement labels, GO TO, computed GO TO, arithmetic
! IF, labelled DO with CONTINUE, and a FORMAT statement.
program legacy_freeform
  implicit integer (i-n), real (a-h, o-z)
  common /state/ nsteps, xpos(4)
  common total
  dimension ivals(6)
  equivalence (ivals(1), ifirst)
  data ivals /3, 1, 4, 1, 5, 9/

  total = 0.0
  nsteps = 0
  do 10 i = 1, 4
    xpos(i) = 0.25 * i
10 continue
  call advance(3)
  write(*, 100) nsteps, (xpos(i), i = 1, 4)
100 format (' steps =', i3, ' xpos =', 4f7.3)

  write(*, '(a,i0)') 'ifirst via equivalence = ', ifirst

  do 20 k = 1, 6
    go to (11, 12, 13) mod(ivals(k), 3) + 1
11  write(*, '(a,i2,a)') 'value', ivals(k), ' divisible by 3'
    go to 20
12  write(*, '(a,i2,a)') 'value', ivals(k), ' remainder 1'
    go to 20
13  write(*, '(a,i2,a)') 'value', ivals(k), ' remainder 2'
20 continue

  do 40 i = 1, 3
    z = real(i - 2)
    if (z) 31, 32, 33
31  write(*, *) 'negative branch'
    goto 40
32  write(*, *) 'zero branch'
    goto 40
33  write(*, *) 'positive branch'
40 continue

  n = 0
50 n = n + 1
  if (n < 5) goto 50
  write(*, '(a,i0,a,f8.3)') 'n = ', n, ' total = ', total
end program legacy_freeform

subroutine advance(m)
  implicit none
  integer :: m, j, nsteps
  real :: xpos(4), total
  common /state/ nsteps, xpos
  common total
  do j = 1, m
    xpos = xpos * 1.5
    nsteps = nsteps + 1
    total = total + sum(xpos)
  end do
end subroutine advance
