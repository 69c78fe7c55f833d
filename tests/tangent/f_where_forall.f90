! radtap: -head masked -vars "x" -outvars "y z"
! sizes: n=8
! FORALL (plain and with an always-true mask) and WHERE / ELSEWHERE blocks plus
! a one-line WHERE. t = x + 2*mod(i,3) lies in [0.5,1.5], [2.5,3.5] or
! [4.5,5.5], so the masks t > 2 and t < 4 are decided far from their boundary.
subroutine masked(n, x, y, z)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y(n), z(n)
  real(8) :: t(n)
  integer :: i
  forall (i = 1:n) t(i) = x(i) + 2.0d0*dble(mod(i, 3))
  where (t > 2.0d0)
    y = log(t)*x
  elsewhere
    y = t**2 + 0.5d0*x
  end where
  z = y
  where (t < 4.0d0) z = sqrt(t)*y
  forall (i = 2:n-1, x(i) > 0.2d0)
    z(i) = z(i) + x(i-1)*x(i+1)
  end forall
end subroutine masked
