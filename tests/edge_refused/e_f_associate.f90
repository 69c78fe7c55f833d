! radtap: -head asc -vars "x" -outvars "y"
! sizes:
! ASSOCIATE to an array element (written through the name) and to an
! expression (read only).
subroutine asc(x, y)
  real(8), intent(inout) :: x(3)
  real(8), intent(out) :: y
  associate (h => x(1), s => x(2)*x(3))
    h = h*s + x(2)
    y = h + s*s
  end associate
  y = y + x(1)
end subroutine asc
