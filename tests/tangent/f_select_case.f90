! radtap: -head sel -vars "x" -outvars "y"
! sizes: mode=2 n=6
! SELECT CASE on integers: inside the loop on mod(i+mode,4), reaching every
! case (single value, list, default); after it on the argument mode with
! ranges (:1), (2:3) and default.
subroutine sel(mode, n, x, y)
  implicit none
  integer, intent(in) :: mode, n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y
  integer :: i
  y = 0.0d0
  do i = 1, n
    select case (mod(i + mode, 4))
    case (0)
      y = y + x(i)**2
    case (1, 2)
      y = y + sin(x(i))*x(mod(i, n) + 1)
    case default
      y = y*0.5d0 + exp(0.2d0*x(i))
    end select
  end do
  select case (mode)
  case (:1)
    y = -y
  case (2:3)
    y = y*x(1) + 1.0d0
  case default
    y = 2.0d0*y
  end select
end subroutine sel
