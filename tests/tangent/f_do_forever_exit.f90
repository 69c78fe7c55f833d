! radtap: -head do_forever -vars "x" -outvars "y z"
! sizes: n=9
! DO loops without control left by EXIT (issue 21 item 8): the adjoint keeps
! them as loops (no GOTO), counting the iterations they start. A DO left in
! the middle of its body; one with CYCLE and an EXIT in a SELECT CASE arm;
! one nested in a counted DO that EXIT leaves.
subroutine do_forever(n, x, y, z)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y, z
  integer :: i, k
  y = 1.0d0
  z = 0.0d0
  k = 0
  do
    k = k + 1
    y = y*(1.0d0 + 0.1d0*sin(x(k)))
    if (k >= n - 2) exit
    z = z + y*x(k)
  end do
  k = 0
  do
    k = k + 1
    if (mod(k, 3) == 0) cycle
    select case (mod(k, 4))
    case (1)
      z = z + 0.2d0*x(k)*y
      if (k > 4) exit
      y = y*0.95d0
    case default
      y = y + 0.05d0*z*x(k)
    end select
    z = z*0.99d0
  end do
  do i = 1, n
    k = 0
    do
      k = k + 1
      if (k > i) exit
      y = y + 0.01d0*x(k)*z
    end do
    if (i == 5) exit
    z = z + 0.1d0*x(i)*y
  end do
end subroutine do_forever
