! radtap: -head "gauss(g e)/(x mu s)"
! sizes: n=6
! Common sub-expressions of a basic block are computed once before differentiation (issue
! 47): the Gaussian `exp(-(x(i) - mu)**2 / (2.0d0 * s * s))` of two statements, and `(x(i) -
! mu)**2` of two more; `sqrt(w)` is not shared across `w = w + g(i)` (w changed).
module gauss_m
  implicit none
contains
  subroutine gauss(n, x, mu, s, g, e)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n), mu, s
    real(8), intent(out) :: g(n), e
    integer :: i
    real(8) :: dg, w, h
    e = 0.0d0
    w = 1.0d0
    do i = 1, n
      g(i) = exp(-(x(i) - mu)**2 / (2.0d0 * s * s)) / s
      dg = -(x(i) - mu) / (s * s) * exp(-(x(i) - mu)**2 / (2.0d0 * s * s))
      h = (x(i) - mu)**2 * g(i) + 0.5d0 * (x(i) - mu)**2
      e = e + g(i) * dg + h * sqrt(w)
      w = w + g(i)
      e = e + sqrt(w)
    end do
  end subroutine gauss
end module gauss_m
