! radtap: -head ii_neighbours -vars "x" -outvars "y"
! sizes: n=7 x=n
! The directive II-LOOP on a loop whose iterations are not independent: iteration i writes
! x(i-1) and x(i). The per-iteration snapshot must then hold all of x, not the element
! x(i) (an element snapshot gave a wrong adjoint).
subroutine ii_neighbours(n, x, y)
  integer n, i
  real(8) x(n), y
  !$AD II-LOOP
  do i = 2, n
    x(i-1) = x(i-1)*cos(x(i)) + 0.1d0
    x(i) = x(i)*x(i-1)
  end do
  y = 0
  do i = 1, n
    y = y + x(i)**2
  end do
end subroutine ii_neighbours
