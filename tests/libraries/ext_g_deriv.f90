subroutine g_d(n, x, xd, s, sd)
  integer :: n
  real(8) :: x(*), xd(*), s, sd
  integer :: i
  s = 0
  sd = 0
  do i = 1, n
    sd = sd + (cos(x(i)) * x(i) + sin(x(i))) * xd(i)
    s = s + sin(x(i)) * x(i)
  end do
end subroutine g_d

subroutine g_b(n, x, xb, s, sb)
  integer :: n
  real(8) :: x(*), xb(*), s, sb
  integer :: i
  do i = 1, n
    xb(i) = xb(i) + (cos(x(i)) * x(i) + sin(x(i))) * sb
  end do
  sb = 0
end subroutine g_b
