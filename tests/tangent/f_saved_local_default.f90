! radtap: -head limit_flux
! sizes: n=6
! A SAVE local initialised in its declaration and never written, as CloverLeaf's
! `advec_cell_kernel` has `REAL(KIND=8) :: one_by_six=1.0_8/6.0_8`: with the head's
! independents left to the defaults it was one of them, and `radtap validate` refused the
! head ("the independent `one_by_six` ... is neither an argument nor a COMMON, module or
! global variable"). A procedure's SAVE local is out of the caller's reach: no default
! independent or dependent.
subroutine limit_flux(n, u, flux)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: u(n)
  real(8), intent(out) :: flux(n)
  real(8) :: one_by_six = 1.0_8/6.0_8
  real(8) :: du, dl
  integer :: j
  do j = 1, n
    du = u(mod(j, n) + 1) - u(j)
    dl = u(j) - u(mod(j + n - 2, n) + 1)
    flux(j) = u(j) + one_by_six*(2.0_8*du + dl)*sin(u(j))
  end do
end subroutine limit_flux
