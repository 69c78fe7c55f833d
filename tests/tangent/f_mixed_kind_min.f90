! radtap: -head "mixed_kind_min(y)/(x)"
! sizes:
! `min(1.0, x*10d0)` and `max(x, 0.5)`: intrinsics mixing a default real constant with a
! real(8) argument (SPEEDY's convection.f90, issue 44 item 13): the derivative's zero
! branch is real(8) (merge(0.0, xd*10d0, …) mixed kinds and did not compile).
subroutine mixed_kind_min(x, y)
  real(8), intent(in) :: x
  real(8), intent(out) :: y
  y = min(1.0, x*10d0) + max(x, 0.5)*x + min(x*x, 3.0, 4.0d0)
end subroutine mixed_kind_min
