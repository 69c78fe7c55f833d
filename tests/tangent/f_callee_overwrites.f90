! radtap: -head overwrite_calls -vars "x" -outvars "y"
! sizes: n=5
! Calls that overwrite an array argument, the Fortran twin of c_callee_overwrites.c (issue
! 21): `fill_then_scan` sets all of `out` before reading it; `fill_part` sets `out(1:n-1)`
! and reads `out(n)`; `read_first` reads `out(1)` first; `fill_if` writes under a condition
! (never true on the input box) and then reads. Each is called in a loop on the same local
! array, so a snapshot left out where the callee reads the caller's values would show.
subroutine fill_then_scan(n, x, out)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(inout) :: out(n)
  integer :: i, j
  do i = 1, n
    out(i) = x(i)*x(i)
  end do
  do i = 1, n
    do j = i + 1, n
      out(j) = out(j) + sin(out(i))*x(i)
    end do
  end do
end subroutine fill_then_scan

subroutine fill_part(n, x, out)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(inout) :: out(n)
  integer :: i
  do i = 1, n - 1
    out(i) = x(i)*x(i + 1)
  end do
  do i = 2, n
    out(i) = 0.5d0*out(i)*out(i - 1) + 0.25d0
  end do
end subroutine fill_part

subroutine read_first(n, x, out)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(inout) :: out(n)
  integer :: i
  real(8) :: s
  s = out(1)
  do i = 1, n
    out(i) = x(i)*sin(s) + 0.5d0
  end do
end subroutine read_first

subroutine fill_if(n, x, out)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(inout) :: out(n)
  integer :: i
  if (x(1) > 2.0d0) then
    do i = 1, n
      out(i) = 0.0d0
    end do
  end if
  do i = 1, n
    out(i) = out(i)*x(i) + 0.1d0
  end do
end subroutine fill_if

subroutine overwrite_calls(n, x, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y(4)
  real(8) :: t(n), u(n), v(n), z(n), w(n)
  integer :: k
  do k = 1, n
    t(k) = 0.0d0
    u(k) = 0.5d0 + 0.1d0*k
    v(k) = 1.0d0
    z(k) = 0.1d0*k
    w(k) = 0.0d0
  end do
  y = 0.0d0
  do k = 1, 3
    call fill_then_scan(n, x, w)
    y(1) = y(1) + w(n)*w(1)*x(k)
    call fill_then_scan(n, x, t)
    y(2) = y(2) + t(n) + t(1)
    call fill_part(n, x, u)
    y(3) = y(3) + u(n)*x(k)
    call read_first(n, x, v)
    y(4) = y(4) + v(n)*x(k)
    call fill_if(n, x, z)
    y(4) = y(4) + z(2)*x(k)
  end do
end subroutine overwrite_calls
