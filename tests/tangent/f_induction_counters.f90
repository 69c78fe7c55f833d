! radtap: -head fcounters -vars "x l" -outvars "y"
! sizes: n=5
! Fortran counters the adjoint rebuilds instead of recording them: a packed-triangle index
! `k = k + 1` inside nested DO loops, a stride `m = m + 2`, and the DO variables, whose
! entry values nothing outside their loops reads.
subroutine fcounters(n, x, l, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n), l(n*n)
  real(8), intent(out) :: y(n)
  integer :: i, j, k, m
  do i = 1, n
    y(i) = x(i)**2
  end do
  k = 1
  do i = 1, n
    do j = i + 1, n
      y(j) = y(j) + l(k)*cos(x(i))
      k = k + 1
    end do
  end do
  m = 1
  do i = 1, n
    y(i) = y(i)*(1.0d0 + 0.1d0*l(m)*x(i))
    m = m + 2
  end do
end subroutine fcounters
