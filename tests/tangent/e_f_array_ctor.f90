! radtap: -head actor -vars "x" -outvars "y"
! sizes:
! Array constructors with an implied DO, reshape, spread-free sums.
subroutine actor(x, y)
  real(8), intent(in) :: x(3)
  real(8), intent(out) :: y(4)
  real(8) :: a(4), b(2, 2)
  integer :: i
  a = [x(1), x(2)*x(3), (x(i)**2, i = 2, 3)]
  b = reshape(a, [2, 2])
  y = a*[1.0d0, 2.0d0, 3.0d0, 4.0d0] + [b(1, 2), b(2, 1), b(2, 2), b(1, 1)]
end subroutine actor
