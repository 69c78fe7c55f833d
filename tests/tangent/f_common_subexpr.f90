! radtap: -head "gauss(g e)/(x mu s)"
! sizes: n=6
! Common sub-expressions of a basic block are computed once before differentiation (issue
! 47): in `gauss1`, called per point, the Gaussian `exp(-(x - mu)**2 / (2.0d0 * s * s))` of
! two statements and `(x - mu)**2` of two more; `sqrt(w)` is not shared across `w = w + g`
! (w changed), nor `exp(x(i))` in the loop of `gauss` (recorded per iteration).
module gauss_m
  implicit none
contains
  subroutine gauss1(x, mu, s, w, g, e)
    real(8), intent(in) :: x, mu, s
    real(8), intent(inout) :: w, e
    real(8), intent(out) :: g
    real(8) :: dg, h
    g = exp(-(x - mu)**2 / (2.0d0 * s * s)) / s
    dg = -(x - mu) / (s * s) * exp(-(x - mu)**2 / (2.0d0 * s * s))
    h = (x - mu)**2 * g + 0.5d0 * (x - mu)**2
    e = e + g * dg + h * sqrt(w)
    w = w + g
    e = e + sqrt(w)
  end subroutine gauss1

  subroutine gauss(n, x, mu, s, g, e)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n), mu, s
    real(8), intent(out) :: g(n), e
    integer :: i
    real(8) :: w
    e = 0.0d0
    w = 1.0d0
    do i = 1, n
      call gauss1(x(i), mu, s, w, g(i), e)
      e = e + exp(x(i)) * exp(x(i))
    end do
  end subroutine gauss
end module gauss_m
