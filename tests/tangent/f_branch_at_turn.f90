! radtap: -head fturn -vars "x p" -outvars "y"
! sizes: n=4
! IFs at the turn of the adjoint (the last statements of a procedure): kept whole, each
! branch running its forward then its backward statements, with no control code pushed and
! popped at once (issue 21, item 5); the backward sweep's prologue (local adjoints set to
! zero) goes before the IF.
subroutine fturn(n, x, p, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n), p
  real(8), intent(out) :: y(n)
  real(8) :: s, t
  integer :: i
  s = 0d0
  do i = 1, n
    s = s + x(i) * p
  end do
  t = s * p
  if (s > 0d0) then
    y = x * t
    if (p > 0.2d0) then
      t = sin(t) * s
      y(1) = y(1) + t * t
    end if
  else
    y = x
  end if
end subroutine fturn
