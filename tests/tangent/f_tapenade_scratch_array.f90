! radtap: -head fit_cost -vars "p" -outvars "cost"
! sizes: n=4 m=6
! A least-squares cost written for Tapenade 3.16's interface: `pred` (INTENT(OUT), explicit
! shape) and `w` (no intent) are active inside but neither independents nor dependents, so
! they keep their derivative arguments as scratch (Tapenade's RW status `(loc)`); the scalar
! `peak` in the same position gets none. Drivers written for Tapenade call
! fit_cost_b(n, m, p, pb, t, pred, predb, w, wb, peak, cost, costb).
subroutine fit_cost(n, m, p, t, pred, w, peak, cost)
  implicit none
  integer, intent(in) :: n, m
  real(8), intent(in) :: p(n), t(m)
  real(8), intent(out) :: pred(m)
  real(8) :: w(m)
  real(8), intent(out) :: peak
  real(8), intent(out) :: cost
  integer :: i, k
  ! Horner's rule for the polynomial with coefficients p at each abscissa.
  do i = 1, m
    pred(i) = p(n)
    do k = n - 1, 1, -1
      pred(i) = pred(i)*t(i) + p(k)
    end do
    w(i) = exp(-0.1d0*pred(i)**2)
  end do
  peak = pred(1)*w(1)
  cost = 0.0d0
  do i = 1, m
    cost = cost + w(i)*(pred(i) - t(i))**2
  end do
  cost = cost/m + peak**2
end subroutine fit_cost
