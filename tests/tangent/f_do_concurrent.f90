! radtap: -head dc_head -vars "x" -outvars "y"
! sizes: n=6
! DO CONCURRENT as modern codes write it: one control, two controls with a mask, a named
! construct with CYCLE. The iterations are independent, so each is the nest of counted DO
! loops over its controls with the mask as an IF (refused with AD020 before).
subroutine dc_head(n, x, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y(2)
  real(8) :: t(n), a(n, 3)
  integer :: i, j
  do concurrent (i = 1:n)
    t(i) = x(i)*real(i, 8) + sin(x(i))
  end do
  a = 0.0d0
  do concurrent (i = 1:n, j = 1:3, mod(i + j, 2) == 0)
    a(i, j) = t(i)*x(j) + cos(t(i))*real(j, 8)
  end do
  sq: do concurrent (i = 2:n:2)
    if (i == 4) cycle sq
    t(i) = t(i)**2
  end do sq
  y(1) = sum(t*x)
  y(2) = sum(a**2)/real(n, 8)
end subroutine dc_head
