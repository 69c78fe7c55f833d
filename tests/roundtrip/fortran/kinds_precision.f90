! Kind parameters: kind(1.0d0), selected_real_kind, selected_int_kind,
! real(dp), literal suffixes 1.0_dp and 1.0d0, real(kind=8), integer(8).
module kinds
  implicit none
  integer, parameter :: sp = kind(1.0)
  integer, parameter :: dp = kind(1.0d0)
  integer, parameter :: qp_like = selected_real_kind(p=15, r=300)
  integer, parameter :: i8 = selected_int_kind(18)
  integer, parameter :: i2 = selected_int_kind(4)
end module kinds

program kinds_precision
  use kinds
  implicit none
  real(sp) :: s
  real(dp) :: d, e
  real(kind=8) :: k8
  real(kind=dp) :: arr(3)
  double precision :: dd
  integer(i8) :: big
  integer(kind=i2) :: small
  integer(8) :: fact
  complex(dp) :: z
  integer :: i

  s = 1.0 / 3.0
  d = 1.0_dp / 3.0_dp
  dd = 1.0d0 / 3.0d0
  k8 = 1.0_8 / 3.0_8
  write(*,'(A,F20.16)') 'single  1/3 =', s
  write(*,'(A,F20.16)') 'double  1/3 =', d
  write(*,'(A,L2)') 'dp == dd == k8:', d == dd .and. dd == k8
  write(*,'(A,I0,A,I0)') 'sp kind ', sp, ', dp kind ', dp
  write(*,'(A,L2)') 'qp_like == dp:', qp_like == dp
  write(*,'(A,I0,A,I0)') 'digits sp ', digits(s), ', digits dp ', digits(d)
  write(*,'(A,I0,A,I0)') 'precision sp ', precision(s), ', dp ', precision(d)
  write(*,'(A,ES12.4)') 'epsilon dp:', epsilon(d)
  write(*,'(A,ES12.4)') 'tiny sp:', tiny(s)

  e = 1.0e-1_dp
  write(*,'(A,F22.18)') '0.1 as dp literal      =', e
  e = 0.1
  write(*,'(A,L2)') 'single 0.1 differs from dp 0.1:', e /= 0.1_dp
  e = real(s, dp)
  write(*,'(A,L2)') 'real(s, dp) /= 1/3 dp:', e /= d

  arr = [1.5_dp, 2.5d0, 3.5e0_dp]
  write(*,'(A,3F8.3)') 'arr =', arr

  big = huge(1_i8)
  write(*,'(A,I0)') 'huge(int8)  = ', big
  small = 32000_i2
  write(*,'(A,I0,A,I0)') 'small = ', small, ' huge(i2) = ', huge(small)
  fact = 1_8
  do i = 1, 20
    fact = fact * i
  end do
  write(*,'(A,I0)') '20! in integer(8) = ', fact

  z = cmplx(1.0_dp, -2.0_dp, kind=dp)
  write(*,'(A,2F10.5)') 'z * conjg(z) =', z * conjg(z)
  write(*,'(A,I0)') 'kind(z) = ', kind(z)
  write(*,'(A,F12.8)') 'sqrt(2.0_dp) =', sqrt(2.0_dp)
  write(*,'(A,F12.8)') 'real(2,kind=8)**0.5d0 =', real(2, kind=8)**0.5d0
end program kinds_precision
