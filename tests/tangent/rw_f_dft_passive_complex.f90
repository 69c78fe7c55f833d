! radtap: -head spectral_power -vars "sig" -outvars "power centroid"
! sizes: n=8 nk=4
! Spectral analysis of a real signal as in a signal-processing routine: the twiddle
! factors are passive COMPLEX values (a complex PARAMETER `iu`, EXP of a complex
! argument, CONJG), the transform is accumulated in real and imaginary parts with REAL
! and AIMAG of the twiddles, a Hann window is applied, and the spectral centroid of the
! power spectrum is returned.
module dft_tools
  use iso_fortran_env, only: dp => real64
  implicit none
  complex(dp), parameter :: iu = (0.0_dp, 1.0_dp)
  real(dp), parameter :: twopi = 6.283185307179586_dp
contains
  subroutine twiddles(n, k, w)
    integer, intent(in) :: n, k
    complex(dp), intent(out) :: w(0:n - 1)
    integer :: j
    do j = 0, n - 1
      w(j) = conjg(exp(iu*twopi*real(j*k, dp)/n))
    end do
  end subroutine twiddles
end module dft_tools

subroutine spectral_power(n, nk, sig, power, centroid)
  use dft_tools
  implicit none
  integer, intent(in) :: n, nk
  real(dp), intent(in) :: sig(0:n - 1)
  real(dp), intent(out) :: power(0:nk), centroid
  complex(dp) :: w(0:n - 1)
  real(dp) :: xr, xi, win, num, den
  integer :: j, k
  num = 0.0_dp
  den = 0.0_dp
  do k = 0, nk
    call twiddles(n, k, w)
    xr = 0.0_dp
    xi = 0.0_dp
    do j = 0, n - 1
      win = 0.5_dp - 0.5_dp*cos(twopi*(j + 0.5_dp)/n)
      xr = xr + win*sig(j)*real(w(j), dp)
      xi = xi + win*sig(j)*aimag(w(j))
    end do
    power(k) = 1.0_dp + xr**2 + xi**2
    num = num + k*power(k)
    den = den + power(k)
  end do
  centroid = num/den
end subroutine spectral_power
