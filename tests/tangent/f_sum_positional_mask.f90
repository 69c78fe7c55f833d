! radtap: -head "masked_energy(y)/(a)"
! sizes: n=6
! SUM with its MASK given positionally (`sum(a, w > 0)`: a logical second argument is the
! mask, not DIM). The adjoint took it for DIM (`spread(yb, w > 0d0, size(ab, w > 0d0))`):
! the output did not compile.
subroutine masked_energy(a, n, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: a(n)
  real(8), intent(out) :: y
  real(8) :: w(n)
  logical :: odd(n)
  integer :: i
  do i = 1, n
    w(i) = (-1d0)**i
    odd(i) = mod(i, 2) == 1
  end do
  y = sum(a * a, w > 0d0) + sum(a, w < 0d0)**2 + sum(a**3, odd)
end subroutine masked_energy
