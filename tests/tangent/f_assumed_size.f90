! radtap: -head asize -vars "x y" -outvars "y" -size y=n
! sizes: n=7 x=n y=n
! F77-style assumed-size dummies x(*), y(*) in a free-form file, passed on to
! an explicit-shape callee, including x(2) by sequence association (the
! callee sees x(2:n) as an array of n-1 elements).
subroutine axpy2(m, a, u, v)
  implicit none
  integer, intent(in) :: m
  real(8), intent(in) :: a, u(m)
  real(8), intent(inout) :: v(m)
  integer :: i
  do i = 1, m
    v(i) = v(i) + a*u(i)*u(i)
  end do
end subroutine axpy2

subroutine asize(n, x, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(*)
  real(8), intent(inout) :: y(*)
  integer :: i
  do i = 1, n
    y(i) = y(i)*cos(0.5d0*x(i))
  end do
  call axpy2(n - 1, 0.5d0, x(2), y)
  call axpy2(n, 0.1d0*x(n), x, y)
end subroutine asize
