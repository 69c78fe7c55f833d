! radtap: -head nockp -vars "x" -outvars "y"
! sizes: n=5
! The AD directive NOCHECKPOINT before one call (that call runs smooth_fwd, then smooth_bwd) while
! another call to the same subroutine stays checkpointed (smooth_b); on the header of a
! function, every reference to it is split (energy_fwd/energy_bwd).
module nockp_m
  implicit none
contains
  subroutine smooth(n, a, w)
    integer, intent(in) :: n
    real(8), intent(inout) :: a(n)
    real(8), intent(in) :: w
    integer :: i
    real(8) :: t
    do i = 2, n
      t = a(i)
      a(i) = a(i) + w*sin(a(i - 1))
      a(i - 1) = a(i - 1)*t
    end do
  end subroutine smooth

  !$AD NOCHECKPOINT
  real(8) function energy(n, a)
    integer, intent(in) :: n
    real(8), intent(in) :: a(n)
    real(8) :: s
    integer :: i
    s = 0.0d0
    do i = 1, n
      s = s + a(i)**2*exp(-0.5d0*a(i))
    end do
    energy = s
  end function energy
end module nockp_m

subroutine nockp(n, x, y)
  use nockp_m
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y
  real(8) :: a(n)
  a = x
  call smooth(n, a, 0.5d0)
  !$AD NOCHECKPOINT
  call smooth(n, a, 0.25d0)
  y = energy(n, a)*a(1)
end subroutine nockp
