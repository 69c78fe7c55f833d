! radtap: -head host -vars "x" -outvars "y"
! sizes:
! An internal procedure (CONTAINS in a subroutine) reading and writing a host variable,
! called twice (was refused in tests/edge_refused before host association was lifted).
subroutine host(x, y)
  real(8), intent(in) :: x(2)
  real(8), intent(out) :: y
  real(8) :: h
  h = x(1)
  call step(x(2))
  call step(x(1))
  y = h
contains
  subroutine step(t)
    real(8), intent(in) :: t
    h = h*t + sin(h)
  end subroutine step
end subroutine host
