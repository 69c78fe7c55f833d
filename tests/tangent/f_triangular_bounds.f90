! radtap: -head ftri -vars "x l" -outvars "y"
! sizes: n=6
! DO loops whose bounds read the variables of the DO loops around them (`do j = i + 1, n`,
! `do j = 1, i`, three deep, counting down, a step of 2): the backward sweep evaluates them
! again from the restored outer variables instead of pushing them (issue 21).
subroutine ftri(n, x, l, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n), l(n*n)
  real(8), intent(out) :: y(n)
  integer :: i, j, k
  do i = 1, n
    y(i) = x(i) * l(i)
  end do
  do i = 1, n
    do j = i + 1, n
      y(j) = y(j) + l(n + i + j) * sin(y(i))
    end do
  end do
  do i = 1, n
    do j = 1, i
      y(i) = y(i) + 0.1d0 * y(j) * x(j) / (1d0 + y(i))
    end do
  end do
  do i = 1, n
    do j = i, n
      do k = j + 1, n
        y(k) = y(k) + 0.01d0 * sin(y(j) * x(i))
      end do
    end do
  end do
  do i = n, 1, -1
    do j = 1, i - 1
      y(j) = y(j) * (1d0 + 0.05d0 * cos(y(i)))
    end do
  end do
  do i = 1, n
    do j = i, n, 2
      y(j) = y(j) + 0.03d0 * y(i) * x(j)
    end do
  end do
end subroutine ftri
