! radtap: -head accumulate -vars "x" -outvars "s"
! sizes: n=5
! A routine that only writes its argument (`clear`, nothing it reads varies) before a loop
! that accumulates into it: the tangent resets wd through clear's derivative (copied as
! primal code, wd kept the caller's values), and a scalar overwritten by a call that is not
! differentiated gets a zero derivative after it.
subroutine clear(w, n, v)
  implicit none
  integer, intent(in) :: n
  real(8), intent(out) :: w(n)
  real(8), intent(in) :: v
  integer :: i
  do i = 1, n
    w(i) = v * i
  end do
end subroutine clear

subroutine setc(c)
  implicit none
  real(8), intent(out) :: c
  c = 2.0d0
end subroutine setc

subroutine accumulate(n, x, w, s)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(inout) :: w(n)
  real(8), intent(out) :: s
  real(8) :: c
  integer :: i, k
  c = x(1)
  s = 0.0d0
  do k = 1, 2
    call clear(w, n, 0.25d0)
    call setc(c)
    do i = 1, n
      w(i) = w(i) + c * x(i) * x(k)
    end do
    c = c * x(k)
    s = s + w(1) * w(n) + c
  end do
end subroutine accumulate
