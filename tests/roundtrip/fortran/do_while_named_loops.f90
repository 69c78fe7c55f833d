! DO WHILE, named DO loops with EXIT and CYCLE by name, DO without
! loop control terminated by EXIT, and DO with a step.
program do_while_named_loops
  implicit none
  integer :: i, j, n, steps, count
  integer :: found_i, found_j
  real :: x

  ! Collatz sequence length with DO WHILE.
  n = 27
  steps = 0
  do while (n /= 1)
    if (mod(n, 2) == 0) then
      n = n / 2
    else
      n = 3 * n + 1
    end if
    steps = steps + 1
  end do
  write(*,'(A,I0)') 'collatz steps for 27: ', steps

  ! Named nested loops: find the first pair with i*j == 42 and i < j.
  found_i = 0
  found_j = 0
  outer: do i = 1, 20
    inner: do j = 1, 20
      if (j <= i) cycle inner
      if (i * j > 42) cycle outer
      if (i * j == 42) then
        found_i = i
        found_j = j
        exit outer
      end if
    end do inner
  end do outer
  write(*,'(A,I0,A,I0)') 'first pair: ', found_i, ' x ', found_j

  ! Skip multiples of 3 with CYCLE on a named loop.
  count = 0
  sum_loop: do i = 1, 30
    if (mod(i, 3) == 0) cycle sum_loop
    count = count + i
  end do sum_loop
  write(*,'(A,I0)') 'sum without multiples of 3: ', count

  ! Endless DO with EXIT: fixed-point iteration x = cos(x).
  x = 1.0
  steps = 0
  do
    steps = steps + 1
    if (abs(cos(x) - x) < 1.0e-5 .or. steps >= 1000) exit
    x = cos(x)
  end do
  write(*,'(A,F8.4,A,I0)') 'fixed point ', x, ' steps ', steps

  ! Loop with step and a named DO WHILE.
  count = 0
  do i = 100, 0, -25
    count = count + 1
  end do
  write(*,'(A,I0,A,I0)') 'trips: ', count, ' final i: ', i

  n = 1
  doubling: do while (.true.)
    n = n * 2
    if (n > 1000) exit doubling
  end do doubling
  write(*,'(A,I0)') 'first power of two above 1000: ', n

  ! Nested unnamed loops with inner EXIT.
  do i = 1, 3
    do j = 1, 10
      if (j > i) exit
      write(*,'(I2)', advance='no') j
    end do
    write(*,*)
  end do
end program do_while_named_loops
