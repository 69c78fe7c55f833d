! radtap: -head beam_energy -vars "q e" -outvars "u"
! sizes: nel=4
! Gauss-Legendre quadrature as in a finite-element code: the nodes and weights of the
! n-point rule are computed once by Newton on the Legendre recurrence (gauleg of
! Numerical Recipes, passive), then the strain energy of a beam with a varying section
! is integrated element by element; the integrand is an internal function reading the
! host's element data.
module gauss_rules
  use iso_fortran_env, only: dp => real64
  implicit none
  real(dp), parameter :: pi = 3.141592653589793238_dp
contains
  subroutine gauleg(n, x, w)
    integer, intent(in) :: n
    real(dp), intent(out) :: x(n), w(n)
    real(dp) :: z, z1, p1, p2, p3, pp
    integer :: i, j, m
    m = (n + 1)/2
    do i = 1, m
      z = cos(pi*(i - 0.25_dp)/(n + 0.5_dp))
      do
        p1 = 1.0_dp
        p2 = 0.0_dp
        do j = 1, n
          p3 = p2
          p2 = p1
          p1 = ((2*j - 1)*z*p2 - (j - 1)*p3)/j
        end do
        pp = n*(z*p1 - p2)/(z*z - 1.0_dp)
        z1 = z
        z = z1 - p1/pp
        if (abs(z - z1) < 1.0e-14_dp) exit
      end do
      x(i) = -z
      x(n + 1 - i) = z
      w(i) = 2.0_dp/((1.0_dp - z*z)*pp*pp)
      w(n + 1 - i) = w(i)
    end do
  end subroutine gauleg
end module gauss_rules

subroutine beam_energy(nel, q, e, u)
  use gauss_rules
  implicit none
  integer, intent(in) :: nel
  real(dp), intent(in) :: q(nel + 1), e
  real(dp), intent(out) :: u
  integer, parameter :: ng = 4
  real(dp) :: xg(ng), wg(ng), xa, xb, hel, jac
  integer :: iel, ig
  call gauleg(ng, xg, wg)
  hel = 1.0_dp/nel
  u = 0.0_dp
  do iel = 1, nel
    xa = (iel - 1)*hel
    xb = iel*hel
    jac = 0.5_dp*(xb - xa)
    do ig = 1, ng
      u = u + wg(ig)*jac*integrand(0.5_dp*(xa + xb) + jac*xg(ig))
    end do
  end do
contains
  ! E I(x) w''(x)^2 / 2 with a curvature interpolated linearly from the nodal q.
  function integrand(x) result(f)
    real(dp), intent(in) :: x
    real(dp) :: f, s, kappa, inertia
    s = (x - xa)/hel
    kappa = (1.0_dp - s)*q(iel) + s*q(iel + 1)
    inertia = 1.0_dp + 0.5_dp*x*x
    f = 0.5_dp*e*inertia*kappa**2*(1.0_dp + 0.1_dp*kappa)
  end function integrand
end subroutine beam_energy
