! radtap: -head prg_run -vars "x" -outvars "y"
! sizes:
! An accumulator in COMMON reset by a call where nothing varies yet (`call acc(x, 0)`, the
! MODE = 0 branch), then accumulated by the same routine in the loop: the reset must reset
! the accumulator's derivative too. The primal call left the previous run's derivative
! there, so a second call of the tangent gave another result (vector vs scalar differed).
subroutine acc(v, mode)
  implicit none
  double precision v(3)
  integer mode
  double precision total, scale
  common /accum/ total, scale
  if (mode .eq. 0) then
    total = 0.0d0
    scale = 0.5d0
    return
  end if
  total = total + scale*(v(1)*v(2) + sin(v(3)))
end subroutine acc

subroutine prg_run(x, y)
  implicit none
  real(8), intent(in) :: x(3)
  real(8), intent(out) :: y
  real(8) :: w(3)
  integer :: k
  double precision total, scale
  common /accum/ total, scale
  w = 1.0d0
  call acc(w, 0)
  do k = 1, 3
    w = w*0.5d0 + x
    call acc(w, 1)
  end do
  y = total*x(1)
end subroutine prg_run
