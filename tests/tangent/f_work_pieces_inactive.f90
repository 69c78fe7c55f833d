! radtap: -head "integ(res)/(a b)"
! sizes:
! QUADPACK dqags shape: the driver's work array, whole, to `qags`, which
! carves it into four pieces work(1), work(l1), work(l2), work(l3) (l1, l2,
! l3 locals set once inside the IF checking `limit` and `lenw`) for the
! explicit-shape dummies alist(limit) … elist(limit) of `qagse`. In `qags`
! the work array is inactive (nothing reads it after the call) while the
! dummies have derivatives: each piece takes a zeroed temporary shaped like
! `work` *(fixed: refused in every mode)*; the pieces are disjoint once the
! locals are replaced by their values *(fixed: the adjoint refused the call
! as arguments that may share memory)*.
subroutine integ(a, b, res)
  implicit none
  real(8), intent(in) :: a, b
  real(8), intent(out) :: res
  integer, parameter :: limit = 5, lenw = 4*limit
  real(8) :: work(lenw)
  integer :: last
  call qags(a, b, res, limit, lenw, last, work)
end subroutine integ

subroutine qags(a, b, res, limit, lenw, last, work)
  implicit none
  real(8), intent(in) :: a, b
  real(8), intent(out) :: res
  integer, intent(in) :: limit, lenw
  integer, intent(out) :: last
  real(8) :: work(lenw)
  integer :: l1, l2, l3
  res = 0.0d0
  last = 0
  if (limit >= 1 .and. lenw >= 4*limit) then
    l1 = limit + 1
    l2 = limit + l1
    l3 = limit + l2
    call qagse(a, b, limit, res, work(1), work(l1), work(l2), work(l3), last)
  end if
end subroutine qags

subroutine qagse(a, b, limit, res, alist, blist, rlist, elist, last)
  implicit none
  real(8), intent(in) :: a, b
  integer, intent(in) :: limit
  real(8), intent(out) :: res
  real(8), intent(out) :: alist(limit), blist(limit), rlist(limit), elist(limit)
  integer, intent(out) :: last
  integer :: k
  do k = 1, limit
    alist(k) = a + (b - a)*dble(k - 1)/dble(limit)
    blist(k) = a + (b - a)*dble(k)/dble(limit)
  end do
  res = 0.0d0
  do k = 1, limit
    call rule(alist(k), blist(k), rlist(k), elist(k))
    res = res + rlist(k) + 0.01d0*elist(k)
  end do
  last = limit
end subroutine qagse

subroutine rule(x0, x1, r, e)
  implicit none
  real(8), intent(in) :: x0, x1
  real(8), intent(out) :: r, e
  real(8) :: h, c, g, m
  h = 0.5d0*(x1 - x0)
  c = 0.5d0*(x1 + x0)
  g = h/sqrt(3.0d0)
  r = h*(fx(c - g) + fx(c + g))
  m = 2.0d0*h*fx(c)
  e = abs(r - m) + (r - m)**2
contains
  real(8) function fx(x)
    real(8), intent(in) :: x
    fx = exp(-1.3d0*x)*sqrt(x) + 2.0d0
  end function fx
end subroutine rule
