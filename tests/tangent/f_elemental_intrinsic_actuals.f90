! radtap: -head eia_head -vars "x" -outvars "y z"
! sizes: n=5
! Elemental intrinsics that no list called elemental (`erf`, `hypot`, `dim`, `aimag`: 104
! records lacked the flag), now told by their signatures: an array expression of them passed
! to an array dummy is assigned to a temporary first (refused before: "an array expression
! passed to an array dummy"), and a masked assignment reads them element by element.
module eia_mod
  implicit none
contains
  subroutine eia_norm(n, v, s)
    integer, intent(in) :: n
    real(8), intent(in) :: v(n)
    real(8), intent(out) :: s
    s = sum(v * v)
  end subroutine eia_norm

  subroutine eia_head(n, x, y, z)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    real(8), intent(out) :: y, z(n)
    call eia_norm(n, erf(x) + hypot(x, 1d0) + dim(x, 0.1d0), y)
    z = 0d0
    where (x > 0.3d0) z = erf(x) * x + hypot(x, 2d0)
  end subroutine eia_head
end module eia_mod
