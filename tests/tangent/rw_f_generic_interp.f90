! radtap: -head table_model -vars "yt coef" -outvars "val"
! sizes: nt=6 nq=5
! A property-table library with a generic interface `interp` resolved by type (a real
! abscissa, or an integer node index that reads the table directly) and a generic
! `blend` resolved by type (real weight or integer index), as in thermophysical-property packages; the table abscissae are a
! module PARAMETER-built grid, interpolation is linear with a clamped index search.
module table_lib
  use iso_fortran_env, only: wp => real64
  implicit none
  private
  public :: wp, interp, blend
  interface interp
    module procedure interp_scalar, interp_node
  end interface interp
  interface blend
    module procedure blend_real, blend_index
  end interface blend
contains
  function interp_scalar(xt, yt, x) result(y)
    real(wp), intent(in) :: xt(:), yt(:), x
    real(wp) :: y, t
    integer :: k, n
    n = size(xt)
    k = 1
    do while (k < n - 1 .and. xt(k + 1) < x)
      k = k + 1
    end do
    t = (x - xt(k))/(xt(k + 1) - xt(k))
    y = (1.0_wp - t)*yt(k) + t*yt(k + 1)
  end function interp_scalar

  function interp_node(xt, yt, k) result(y)
    real(wp), intent(in) :: xt(:), yt(:)
    integer, intent(in) :: k
    real(wp) :: y
    y = yt(min(max(k, 1), size(xt)))
  end function interp_node

  function blend_real(a, b, w) result(c)
    real(wp), intent(in) :: a, b, w
    real(wp) :: c
    c = (1.0_wp - w)*a + w*b
  end function blend_real

  function blend_index(a, b, k) result(c)
    real(wp), intent(in) :: a, b
    integer, intent(in) :: k
    real(wp) :: c
    c = a + (b - a)*real(k, wp)/10.0_wp
  end function blend_index
end module table_lib

subroutine table_model(nt, nq, yt, coef, val)
  use table_lib
  implicit none
  integer, intent(in) :: nt, nq
  real(wp), intent(in) :: yt(nt), coef(2)
  real(wp), intent(out) :: val(nq)
  real(wp) :: xt(nt), xq(nq), yq(nq), y0
  integer :: i
  do i = 1, nt
    xt(i) = real(i - 1, wp)/(nt - 1)
  end do
  do i = 1, nq
    xq(i) = (real(i, wp) - 0.5_wp)/nq
  end do
  do i = 1, nq
    yq(i) = interp(xt, yt, xq(i))
  end do
  y0 = interp(xt, yt, 0.37_wp) + 0.1_wp*interp(xt, yt, nt - 1)
  do i = 1, nq
    val(i) = blend(yq(i), y0*coef(1), 0.3_wp) + blend(coef(2), yq(i), i)
  end do
end subroutine table_model
