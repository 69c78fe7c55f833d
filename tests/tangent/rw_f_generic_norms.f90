! radtap: -head gn_head -vars "x s" -outvars "r"
! sizes: n=6
! Generic interfaces resolved by argument type and rank, as a small statistics module
! would write them: `wnorm` with a real-array and an integer-array specific, `scale_by`
! with a scalar and an array specific, and a generic `clamp_pos` over real kinds. Each
! generic reference must reach the specific its arguments select, so that the real
! specific gets its derivative and the integer one none.
module gn_stats
  use iso_fortran_env, only: dp => real64, sp => real32
  implicit none
  interface wnorm
    module procedure wnorm_r, wnorm_i
  end interface wnorm
  interface scale_by
    module procedure scale_scalar, scale_array
  end interface scale_by
  interface clamp_pos
    module procedure clamp_pos_dp, clamp_pos_sp
  end interface clamp_pos
contains
  function wnorm_r(v, w) result(s)
    real(dp), intent(in) :: v(:)
    real(dp), intent(in) :: w
    real(dp) :: s
    integer :: i
    s = 0.0_dp
    do i = 1, size(v)
      s = s + w*v(i)**2
    end do
    s = sqrt(s)
  end function wnorm_r

  function wnorm_i(k, w) result(s)
    integer, intent(in) :: k(:)
    real(dp), intent(in) :: w
    real(dp) :: s
    s = sqrt(w*real(sum(k*k), dp))
  end function wnorm_i

  subroutine scale_scalar(a, f)
    real(dp), intent(inout) :: a
    real(dp), intent(in) :: f
    a = a*f
  end subroutine scale_scalar

  subroutine scale_array(a, f)
    real(dp), intent(inout) :: a(:)
    real(dp), intent(in) :: f
    a = a*f + 0.1_dp*f**2
  end subroutine scale_array

  function clamp_pos_dp(a) result(b)
    real(dp), intent(in) :: a
    real(dp) :: b
    b = max(a, 1.0e-3_dp)
  end function clamp_pos_dp

  function clamp_pos_sp(a) result(b)
    real(sp), intent(in) :: a
    real(sp) :: b
    b = max(a, 1.0e-3_sp)
  end function clamp_pos_sp
end module gn_stats

subroutine gn_head(n, x, s, r)
  use gn_stats
  implicit none
  integer, intent(in) :: n
  real(dp), intent(in) :: x(n), s
  real(dp), intent(out) :: r(3)
  real(dp) :: work(n), a
  integer :: idx(n), i
  do i = 1, n
    idx(i) = mod(i, 3) + 1
  end do
  work = x
  call scale_by(work, s)
  a = x(1)
  call scale_by(a, s + 1.0_dp)
  r(1) = wnorm(work, s)
  r(2) = wnorm(idx, s) + a
  r(3) = clamp_pos(r(1) - 0.5_dp*a)*clamp_pos(real(s, dp))
end subroutine gn_head
