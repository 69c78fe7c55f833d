! radtap: -head "store.sim(m)/(x0)"
! sizes: n=5
! A history kept in module storage with a module counter (`nh = nh + 1; hist(nh) = x`), a
! pattern of integrators that log their steps. In split mode (-nocheckpoint) `record_bwd`
! reads `nh` as `record_fwd` left it, but the caller only keeps the values a callee reads
! on entry and the callee only recorded the values it wrote without reading: `nh` fell
! between, every backward call used the last one (dm/dx0 = 0.190 instead of 0.980).
module store
  implicit none
  real(8) :: hist(100)
  integer :: nh = 0
contains
  subroutine record(x)
    real(8), intent(in) :: x
    nh = nh + 1
    hist(nh) = x
  end subroutine record

  subroutine sim(x0, n, m)
    real(8), intent(in) :: x0
    integer, intent(in) :: n
    real(8), intent(out) :: m
    real(8) :: x
    integer :: i
    nh = 0
    x = x0
    do i = 1, n
      x = x * (1.1d0 - 0.1d0 * x)
      call record(x)
    end do
    m = sum(hist(1:nh)) / nh
  end subroutine sim
end module store
