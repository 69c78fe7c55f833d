! Conway's Game of Life on a small torus using logical and integer
! arrays, cshift, count, merge and whole-array expressions.
module life_mod
  implicit none
  integer, parameter :: nr = 8, nc = 10
contains
  function neighbours(g) result(nb)
    logical, intent(in) :: g(:,:)
    integer :: nb(size(g, 1), size(g, 2))
    integer :: cells(size(g, 1), size(g, 2))
    integer :: di, dj
    cells = merge(1, 0, g)
    nb = 0
    do dj = -1, 1
      do di = -1, 1
        if (di == 0 .and. dj == 0) cycle
        nb = nb + cshift(cshift(cells, di, dim=1), dj, dim=2)
      end do
    end do
  end function neighbours

  subroutine step(g)
    logical, intent(inout) :: g(:,:)
    integer :: nb(size(g, 1), size(g, 2))
    nb = neighbours(g)
    g = (g .and. (nb == 2 .or. nb == 3)) .or. (.not. g .and. nb == 3)
  end subroutine step

  subroutine show(g, gen)
    logical, intent(in) :: g(:,:)
    integer, intent(in) :: gen
    integer :: i, j
    character(len=nc) :: row
    write(*,'(A,I0,A,I0)') 'generation ', gen, ', alive ', count(g)
    do i = 1, size(g, 1)
      do j = 1, size(g, 2)
        row(j:j) = merge('#', '.', g(i, j))
      end do
      write(*,'(2X,A)') row
    end do
  end subroutine show
end module life_mod

program game_of_life
  use life_mod
  implicit none
  logical :: grid(nr, nc)
  integer :: gen

  grid = .false.
  ! A glider in the top-left corner.
  grid(1, 2) = .true.
  grid(2, 3) = .true.
  grid(3, 1:3) = .true.
  ! A blinker on the right.
  grid(5, 7:9) = .true.

  call show(grid, 0)
  do gen = 1, 4
    call step(grid)
  end do
  call show(grid, 4)
  do gen = 5, 9
    call step(grid)
  end do
  call show(grid, 9)
end program game_of_life
