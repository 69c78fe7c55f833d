! radtap: -head host -vars "x" -outvars "y"
! sizes:
! An internal procedure reading and writing a host variable, passed as an actual argument:
! its calls through the dummy cannot be given the host variables it uses.
subroutine host(x, y)
  real(8), intent(in) :: x(2)
  real(8), intent(out) :: y
  real(8) :: h
  h = x(1)
  call apply(step, x(2))
  y = h
contains
  subroutine step(t)
    real(8), intent(in) :: t
    h = h*t + sin(h)
  end subroutine step
end subroutine host
subroutine apply(f, t)
  external f
  real(8), intent(in) :: t
  call f(t)
end subroutine apply
