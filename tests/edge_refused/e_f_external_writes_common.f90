! radtap: -head "f(y)/(x)"
! An external procedure whose source is not given may change any COMMON block or module
! variable: `ext_touch` is passed nothing, but may write `g`, which carries a derivative
! here. The call was taken as having no effect on `g`: refused (issue 51).
subroutine f(x, y)
  double precision x(2), y
  double precision g
  common /c/ g
  g = x(1)
  call ext_touch()
  y = g * x(2)
end
