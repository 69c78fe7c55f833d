! radtap: -head "smooth(y e)/(x c d)"
! sizes: n=6
! Loop-invariant expressions leave their loop before differentiation (issue 47): `c * d`
! and `exp(-c / d)` in the first loop are computed once before it; `sqrt(w * w + d)` leaves
! the inner loop (its bounds are literals: no guard) but not the outer one, which writes w;
! `log(d + 2.0d0)` after an EXIT that may leave the loop stays.
module smooth_m
  implicit none
contains
  subroutine smooth(n, x, c, d, y, e)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n), c, d
    real(8), intent(out) :: y(n), e
    integer :: i, j
    real(8) :: w
    e = 0.0d0
    do i = 1, n
      y(i) = x(i) / (c * d) + x(i)**2 * exp(-c / d)
    end do
    w = c
    do i = 1, n
      do j = 1, 3
        e = e + y(i) * sqrt(w * w + d) * j
      end do
      w = w * 0.5d0 + x(i)
    end do
    do i = 1, n
      if (x(i) > 10.0d0) exit
      e = e + x(i) * log(d + 2.0d0)
    end do
  end subroutine smooth
end module smooth_m
