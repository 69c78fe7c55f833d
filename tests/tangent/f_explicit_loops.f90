! radtap: -head loops2d -vars "a x" -outvars "y"
! sizes: n=5 m=3
! Explicit-shape arrays a(n,m), x(m), y(n) with a DO loop and a nested DO; an
! IF / ELSE IF / ELSE chain decided on integer indices, and a real test that
! has a wide margin (s > 0.1 always holds for inputs in [0.5,1.5]).
subroutine loops2d(n, m, a, x, y)
  implicit none
  integer, intent(in) :: n, m
  real(8), intent(in) :: a(n, m), x(m)
  real(8), intent(out) :: y(n)
  integer :: i, j
  real(8) :: s
  do i = 1, n
    s = 0.0d0
    do j = 1, m
      if (mod(i + j, 3) == 0) then
        s = s + a(i, j)*x(j)
      else if (j == 1) then
        s = s + a(i, j)**2 - 0.1d0*x(j)
      else
        s = s + sin(a(i, j))*x(j)*x(j)
      end if
    end do
    if (s > 0.1d0) then
      y(i) = sqrt(s) + 0.5d0*s
    else
      y(i) = 0.0d0
    end if
  end do
  do i = 2, n
    y(i) = y(i) + 0.25d0*y(i - 1)
  end do
end subroutine loops2d
