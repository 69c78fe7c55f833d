! radtap: -head cdft -vars "sig" -outvars "amp"
! sizes: n=6 nk=3
! A DFT of active real data in complex arithmetic: the transform accumulates complex sums
! in an array, the twiddles are passive, the amplitudes are moduli plus phases read back
! through real/aimag and a complex division.
subroutine cdft(n, nk, sig, amp)
  use iso_fortran_env, only: dp => real64
  implicit none
  integer, intent(in) :: n, nk
  real(dp), intent(in) :: sig(n)
  real(dp), intent(out) :: amp(0:nk)
  complex(dp) :: spec(0:nk), w
  real(dp), parameter :: twopi = 6.283185307179586_dp
  integer :: j, k
  do k = 0, nk
    spec(k) = (0.0_dp, 0.0_dp)
    do j = 1, n
      w = exp(cmplx(0.0_dp, -twopi*real((j - 1)*k, dp)/n, dp))
      spec(k) = spec(k) + w*(sig(j) + (0.0_dp, 0.25_dp)*sig(j)**2)
    end do
  end do
  do k = 0, nk
    amp(k) = abs(spec(k)) + real(spec(k)/(2.0_dp + spec(0)), dp)
  end do
end subroutine cdft
