! The BLOCK construct: local declarations scoped to a block, shadowing
! of outer names, nested and named blocks, EXIT from a named block,
! and blocks inside loops.
program block_construct
  implicit none
  integer :: i, total
  real :: x

  x = 10.0
  total = 0

  block
    real :: x
    integer :: squares(5)
    x = 2.5
    squares = [(i * i, i = 1, 5)]
    write(*,'(A,F6.2)') 'inner x =', x
    write(*,'(A,5I4)') 'squares in block:', squares
    total = sum(squares)
  end block
  write(*,'(A,F6.2,A,I0)') 'outer x =', x, ' total = ', total

  compute: block
    integer, parameter :: n = 4
    real :: work(n)
    integer :: k
    work = [(real(k) / 2.0, k = 1, n)]
    if (sum(work) > 100.0) exit compute
    write(*,'(A,4F6.2)') 'work =', work
    nested: block
      real :: scale
      scale = maxval(work)
      work = work / scale
      write(*,'(A,4F6.2)') 'scaled work =', work
    end block nested
  end block compute

  do i = 1, 3
    block
      integer :: local_count
      character(len=10) :: tag
      local_count = i * 100
      write(tag, '(A,I0)') 'iter-', i
      write(*,'(A,A,I5)') trim(tag), ':', local_count
    end block
  end do

  early: block
    integer :: j
    do j = 1, 10
      if (j == 4) exit early
      write(*,'(A,I0)') 'early block j = ', j
    end do
    write(*,'(A)') 'this line is skipped'
  end block early
  write(*,'(A)') 'after early block'

  block
    real, allocatable :: tmp(:)
    allocate(tmp(3))
    tmp = [1.0, 2.0, 3.0]
    x = x + sum(tmp)
  end block
  write(*,'(A,F6.2)') 'x after allocatable block =', x
end program block_construct
