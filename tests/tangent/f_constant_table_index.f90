! radtap: -head "gk_rule(res)/(a b)"
! sizes:
! QUADPACK's Gauss-Kronrod rules (dqk21): abscissae and weights in PARAMETER tables read at
! `jtw = 2*j` and `jtwm1 = 2*j - 1` computed in the loops. An element of a named constant
! has no memory of its own, but it reads its subscript (fixed, silently wrong: `jtw = 2*j`
! was sliced from the tangent, which read an undefined index, and the adjoint did not
! record `jtwm1`, reading its last value in every backward iteration).
subroutine gk_rule(a, b, res)
  implicit none
  integer, parameter :: wp = kind(1.0d0)
  real(wp), intent(in) :: a, b
  real(wp), intent(out) :: res
  real(wp), dimension(4), parameter :: xgk = [0.9_wp, 0.7_wp, 0.4_wp, 0.2_wp]
  real(wp), dimension(5), parameter :: wgk = [0.1_wp, 0.2_wp, 0.25_wp, 0.3_wp, 0.35_wp]
  real(wp), dimension(2), parameter :: wg = [0.4_wp, 0.6_wp]
  real(wp) :: centr, hlgth, absc, fc, fsum, resk, resg
  integer :: j, jtw, jtwm1
  centr = 0.5_wp*(a + b)
  hlgth = 0.5_wp*(b - a)
  fc = f(centr)
  resk = wgk(5)*fc
  resg = 0.0_wp
  do j = 1, 2
    jtw = 2*j
    absc = hlgth*xgk(jtw)
    fsum = f(centr - absc) + f(centr + absc)
    resg = resg + wg(j)*fsum
    resk = resk + wgk(jtw)*fsum
  end do
  do j = 1, 2
    jtwm1 = 2*j - 1
    absc = hlgth*xgk(jtwm1)
    fsum = f(centr - absc) + f(centr + absc)
    resk = resk + wgk(jtwm1)*fsum
  end do
  res = resk*hlgth + 0.1_wp*resg
contains
  real(wp) function f(x)
    real(wp), intent(in) :: x
    f = exp(-x)*sin(3.0_wp*x) + x*x
  end function f
end subroutine gk_rule
