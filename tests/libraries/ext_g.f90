subroutine g(n, x, s)
  integer :: n
  real(8) :: x(*), s
  integer :: i
  s = 0
  do i = 1, n
    s = s + sin(x(i)) * x(i)
  end do
end subroutine g
