! radtap: -head "blend(y z)/(x c)"
! sizes: n=5
! Loop-invariant calls of pure functions leave their loop before differentiation (issue 47):
! `norm2w(x, n)` in the DO loop is called once and its adjoint once; `cscale(c)` inside the
! nested loop moves out of both; `norm2w(y, n)` in the last loop stays (the loop writes y).
module blend_m
  implicit none
contains
  real(8) function norm2w(v, n)
    integer, intent(in) :: n
    real(8), intent(in) :: v(n)
    integer :: i
    norm2w = 0.0d0
    do i = 1, n
      norm2w = norm2w + v(i)**2 * (1.0d0 + 0.1d0 * i)
    end do
    norm2w = sqrt(norm2w)
  end function norm2w

  real(8) function cscale(c)
    real(8), intent(in) :: c
    cscale = exp(0.3d0 * c)
  end function cscale

  subroutine blend(n, x, c, y, z)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n), c
    real(8), intent(out) :: y(n), z
    integer :: i, j
    do i = 1, n
      y(i) = x(i) / norm2w(x, n)
    end do
    z = 0.0d0
    do i = 1, n
      do j = 1, 2
        z = z + y(i) * cscale(c) * j
      end do
    end do
    do i = 1, n
      y(i) = y(i) + 0.01d0 * norm2w(y, n)
    end do
  end subroutine blend
end module blend_m
