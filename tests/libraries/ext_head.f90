! A head calling `g`, a routine whose source radtap is not given: `ext_g.lib` describes it
! (`-ext`), `ext_g.f90` is its code, `ext_g_deriv.f90` the g_d / g_b its user writes.
subroutine head(n, x, y)
  implicit none
  integer :: n
  real(8) :: x(n), y, s
  external :: g
  call g(n, x, s)
  y = s * x(1)
  x(2) = x(2) * s
  call g(n, x, s)
  y = y + s * s
end subroutine head
