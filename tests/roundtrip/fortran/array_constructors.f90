! Array constructors in both (/ ... /) and [ ... ] syntax, implied-do
! loops (including nested ones), typed constructors and RESHAPE.
program array_constructors
  implicit none
  integer :: i, j
  integer :: a(5), b(5), c(10), sq(4)
  real :: r(6)
  integer :: tri(6), grid(3, 3)
  character(len=5) :: names(3)
  logical :: flags(4)

  a = (/ 1, 2, 3, 4, 5 /)
  b = [ 10, 20, 30, 40, 50 ]
  write(*,'(A,5I4)') 'old style :', a
  write(*,'(A,5I4)') 'new style :', b

  a = [(i*2, i=1,5)]
  write(*,'(A,5I4)') 'evens     :', a
  b = (/ (i**2, i = 5, 1, -1) /)
  write(*,'(A,5I4)') 'squares   :', b

  c = [a, b]
  write(*,'(A,10I4)') 'concat    :', c
  c = [0, (i, i = 1, 4), (-i, i = 1, 4), 99]
  write(*,'(A,10I4)') 'mixed     :', c

  sq = [integer :: 1, 4, 9, 16]
  write(*,'(A,4I4)') 'typed     :', sq
  r = [real :: 1, 2, 3, 4.5, 5, 6]
  write(*,'(A,6F6.2)') 'reals     :', r
  r = [(1.0 / real(i), i = 1, 6)]
  write(*,'(A,6F8.4)') 'reciprocal:', r

  tri = [((10 * i + j, j = 1, i), i = 1, 3)]
  write(*,'(A,6I4)') 'triangle  :', tri

  grid = reshape([(i, i = 1, 9)], [3, 3])
  do i = 1, 3
    write(*,'(A,I1,A,3I3)') 'grid row ', i, ':', grid(i, :)
  end do
  grid = reshape((/ ((i * j, i = 1, 3), j = 1, 3) /), (/ 3, 3 /))
  write(*,'(A,9I3)') 'products  :', grid

  names = [character(len=5) :: 'ab', 'cdefg', 'h']
  write(*,'(A,3(1X,A,"|"))') 'names     :', names
  flags = [.true., .false., (mod(i, 2) == 0, i = 3, 4)]
  write(*,'(A,4L2)') 'flags     :', flags

  write(*,'(A,I0)') 'sum of constructor: ', sum([(i, i = 1, 100)])
  write(*,'(A,I0)') 'size of empty: ', size([integer ::])
  write(*,'(A,3I4)') 'inline expr:', [1, 2, 3] * [4, 5, 6]
end program array_constructors
