! radtap: -head "f(y)/(x)"
! `g` comes from a module that is not among the inputs (warning AD033): it had no zone, so
! the analyses saw no write, and `g = x(1)` was sliced out of the derivative (its primal
! value and its derivative lost, exit 0). Refused at the assignment (issue 51).
subroutine f(x, y)
  use physics, only: g
  double precision x(2), y
  g = x(1)
  y = g * x(2)
end
