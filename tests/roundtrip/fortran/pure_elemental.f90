! PURE and ELEMENTAL procedures applied to scalars and arrays,
! including elemental functions with several arguments.
module pure_mod
  implicit none
  integer, parameter :: dp = kind(1.0d0)
contains
  pure function norm2_of(v) result(r)
    real(dp), intent(in) :: v(:)
    real(dp) :: r
    r = sqrt(sum(v**2))
  end function norm2_of

  pure subroutine normalize(v)
    real(dp), intent(inout) :: v(:)
    real(dp) :: n
    n = norm2_of(v)
    if (n > 0.0_dp) v = v / n
  end subroutine normalize

  elemental function clamp(x, lo, hi) result(y)
    real(dp), intent(in) :: x, lo, hi
    real(dp) :: y
    y = min(max(x, lo), hi)
  end function clamp

  elemental integer function digit_sum(n)
    integer, intent(in) :: n
    integer :: m
    m = abs(n)
    digit_sum = 0
    do while (m > 0)
      digit_sum = digit_sum + mod(m, 10)
      m = m / 10
    end do
  end function digit_sum

  elemental subroutine split(x, ipart, fpart)
    real(dp), intent(in) :: x
    integer, intent(out) :: ipart
    real(dp), intent(out) :: fpart
    ipart = int(x)
    fpart = x - real(ipart, dp)
  end subroutine split

  pure elemental logical function is_even(n)
    integer, intent(in) :: n
    is_even = mod(n, 2) == 0
  end function is_even
end module pure_mod

program pure_elemental
  use pure_mod
  implicit none
  real(dp) :: v(3), x(5), y(5)
  integer :: n(4), ip(3)
  real(dp) :: fp(3)
  integer :: i

  v = [3.0_dp, 4.0_dp, 12.0_dp]
  write(*,'(A,F12.6)') 'norm = ', norm2_of(v)
  call normalize(v)
  write(*,'(A,3F12.6)') 'unit = ', v

  x = [(-1.0_dp + 0.5_dp * i, i = 0, 4)]
  y = clamp(x, -0.25_dp, 0.75_dp)
  write(*,'(A,5F8.3)') 'x       = ', x
  write(*,'(A,5F8.3)') 'clamped = ', y
  write(*,'(A,F8.3)') 'scalar  = ', clamp(2.0_dp, 0.0_dp, 1.0_dp)
  y = clamp(x, x - 1.0_dp, [(0.0_dp, i = 1, 5)])
  write(*,'(A,5F8.3)') 'arrays  = ', y

  n = [12345, -907, 0, 99]
  write(*,'(A,4I4)') 'digits  = ', digit_sum(n)
  write(*,'(A,4L2)') 'even    = ', is_even(n)
  write(*,'(A,I0)') 'even cnt= ', count(is_even(n))

  call split([1.25_dp, -2.5_dp, 7.0_dp], ip, fp)
  write(*,'(A,3I4)') 'ipart   = ', ip
  write(*,'(A,3F8.3)') 'fpart   = ', fp
end program pure_elemental
