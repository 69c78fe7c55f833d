! radtap: -head use_only_head -vars "x" -outvars "y"
! sizes:
! The head imports only `pa` (and `sc` renamed to `loc`) from a module that also has a
! parameter `c` and a variable `w`; the head has locals `c` and `w` of its own. The
! derivative USE of the module must keep to the ONLY list and the rename (in the head and
! in the derivative module of `use_only_mod2`).
module use_only_mod
  implicit none
  real(8), parameter :: c = 3.0d0
  real(8) :: pa
  real(8) :: sc
  real(8) :: w
contains
  subroutine scale_pa(f)
    real(8), intent(in) :: f
    pa = pa*f + sin(pa)
  end subroutine scale_pa
end module use_only_mod

! A module that uses `pa` only and has a `c` of its own: its derivative module must not
! bring in the other module's parameter `c`.
module use_only_mod2
  use use_only_mod, only: pa
  implicit none
  real(8) :: c
contains
  subroutine bump(z)
    real(8), intent(inout) :: z
    c = 1.5d0
    z = z*c + pa*pa
  end subroutine bump
end module use_only_mod2

subroutine use_only_head(x, y)
  use use_only_mod, only: pa, loc => sc, scale_pa
  use use_only_mod2, only: bump
  implicit none
  real(8), intent(in) :: x
  real(8), intent(out) :: y
  real(8) :: c, w
  c = 2.0d0
  w = 0.5d0
  pa = x*c
  loc = x*x + w
  call scale_pa(loc)
  call bump(loc)
  y = pa*x + loc*c
end subroutine use_only_head
