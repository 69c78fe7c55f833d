! radtap: -head ladder_gain -vars "r l c" -outvars "g"
! sizes: nf=4
! The input impedance and voltage gain of an RLC ladder network over a few frequencies,
! as a circuit or transmission-line code computes them in complex arithmetic: complex
! impedances jwL and 1/(jwC), series and parallel combinations, the magnitude of the
! transfer function. Complex intermediates, complex function results and complex dummies
! of called procedures carry complex derivatives (they were refused before).
module ladder_kinds
  use iso_fortran_env, only: dp => real64
  implicit none
  complex(dp), parameter :: jay = (0.0_dp, 1.0_dp)
end module ladder_kinds

module ladder_net
  use ladder_kinds, only: dp, jay
  implicit none
contains
  function parallel(z1, z2) result(z)
    complex(dp), intent(in) :: z1, z2
    complex(dp) :: z
    z = z1*z2/(z1 + z2)
  end function parallel

  subroutine section_abcd(zs, zp, a, b, c, d)
    complex(dp), intent(in) :: zs, zp
    complex(dp), intent(out) :: a, b, c, d
    a = 1.0_dp + zs/zp
    b = zs
    c = 1.0_dp/zp
    d = (1.0_dp, 0.0_dp)
  end subroutine section_abcd
end module ladder_net

subroutine ladder_gain(nf, r, l, c, g)
  use ladder_kinds, only: dp, jay
  use ladder_net, only: parallel, section_abcd
  implicit none
  integer, intent(in) :: nf
  real(dp), intent(in) :: r(3), l(3), c(3)
  real(dp), intent(out) :: g(nf)
  complex(dp) :: zs, zp, a, b, cc, d, ta, tb, tc, td, t1, t2
  real(dp) :: w
  integer :: k, s
  do k = 1, nf
    w = 0.5_dp*real(k, dp)
    ta = (1.0_dp, 0.0_dp)
    tb = (0.0_dp, 0.0_dp)
    tc = (0.0_dp, 0.0_dp)
    td = (1.0_dp, 0.0_dp)
    do s = 1, 3
      zs = r(s) + jay*w*l(s)
      zp = parallel(1.0_dp/(jay*w*c(s)), cmplx(10.0_dp*r(s), 0.0_dp, dp))
      call section_abcd(zs, zp, a, b, cc, d)
      t1 = ta*a + tb*cc
      t2 = ta*b + tb*d
      ta = t1
      tb = t2
      t1 = tc*a + td*cc
      t2 = tc*b + td*d
      tc = t1
      td = t2
    end do
    g(k) = abs(1.0_dp/(ta + tb/50.0_dp))
  end do
end subroutine ladder_gain
