! radtap: -head cproc -vars "x" -outvars "y"
! sizes:
! Complex values passed between procedures: a module function with a complex result and
! complex dummies, a subroutine writing complex intent(out) and intent(inout) dummies, a
! complex module variable, and a complex actual that is an expression.
module cproc_m
  use iso_fortran_env, only: dp => real64
  implicit none
  complex(dp) :: acc
contains
  function mobius(z, a) result(w)
    complex(dp), intent(in) :: z, a
    complex(dp) :: w
    w = (z - a)/(1.0_dp + conjg(a)*z)
  end function mobius

  subroutine rotate(z, t, out)
    complex(dp), intent(inout) :: z
    real(dp), intent(in) :: t
    complex(dp), intent(out) :: out
    z = z*cmplx(cos(t), sin(t), dp)
    out = z**3 + acc
    acc = acc + 0.5_dp*z
  end subroutine rotate
end module cproc_m

subroutine cproc(x, y)
  use cproc_m
  implicit none
  real(dp), intent(in) :: x(3)
  real(dp), intent(out) :: y(3)
  complex(dp) :: z, u, v
  acc = cmplx(x(3), 0.1_dp, dp)
  z = cmplx(0.3_dp*x(1), 0.2_dp*x(2), dp)
  u = mobius(z, cmplx(0.1_dp, 0.2_dp*x(3), dp))
  call rotate(z, x(1), v)
  v = v + mobius(u*z, z + (0.1_dp, 0.0_dp))
  y(1) = real(v, dp)
  y(2) = aimag(v*u) + abs(acc)
  y(3) = real(acc*z, dp)
end subroutine cproc
