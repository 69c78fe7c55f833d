! radtap: -head column_energy -vars "t q" -outvars "e"
! sizes: nlev=6
! A linked module hierarchy as in an atmospheric column model: a kinds module, a
! physical-constants module, a thermodynamics module USEing both (with `only:` and a
! rename `cp => cp_dry`), a column module USEing the thermodynamics with renames of its
! procedures, and the head USEing the column module with `only:`. Module variables
! (a level pressure table filled once, PROTECTED constants) and pure functions.
module col_kinds
  use iso_fortran_env, only: r8 => real64, i4 => int32
  implicit none
  private
  public :: r8, i4
end module col_kinds

module col_consts
  use col_kinds, only: r8
  implicit none
  real(r8), parameter :: rd = 287.04_r8, cp_dry = 1004.64_r8
  real(r8), parameter :: lv = 2.501e6_r8, grav = 9.80616_r8
  real(r8), parameter :: p0 = 1.0e5_r8
end module col_consts

module col_thermo
  use col_kinds, only: r8
  use col_consts, only: rd, cp => cp_dry, lv, p0
  implicit none
contains
  pure function exner(p) result(pi)
    real(r8), intent(in) :: p
    real(r8) :: pi
    pi = (p/p0)**(rd/cp)
  end function exner

  pure function moist_static_energy(t, q, z) result(h)
    real(r8), intent(in) :: t, q, z
    real(r8) :: h
    h = cp*t + lv*q + 9.80616_r8*z
  end function moist_static_energy
end module col_thermo

module col_column
  use col_kinds, only: r8, i4
  use col_thermo, only: pi_of => exner, mse => moist_static_energy
  use col_consts, only: rd, grav
  implicit none
  real(r8) :: plev(12)
contains
  subroutine set_levels(nlev)
    integer(i4), intent(in) :: nlev
    integer(i4) :: k
    do k = 1, nlev
      plev(k) = 1.0e5_r8 - 8.0e3_r8*real(k - 1, r8)
    end do
  end subroutine set_levels

  subroutine column_mse(nlev, t, q, h)
    integer(i4), intent(in) :: nlev
    real(r8), intent(in) :: t(nlev), q(nlev)
    real(r8), intent(out) :: h(nlev)
    real(r8) :: z
    integer(i4) :: k
    z = 0.0_r8
    do k = 1, nlev
      if (k > 1) z = z + rd*0.5_r8*(t(k) + t(k-1))/grav*log(plev(k-1)/plev(k))
      h(k) = mse(t(k)*pi_of(plev(k))**0.1_r8, q(k), z)
    end do
  end subroutine column_mse
end module col_column

subroutine column_energy(nlev, t, q, e)
  use col_kinds, only: r8
  use col_column, only: set_levels, column_mse
  implicit none
  integer, intent(in) :: nlev
  real(r8), intent(in) :: t(nlev), q(nlev)
  real(r8), intent(out) :: e
  real(r8) :: tk(nlev), qk(nlev), h(nlev)
  call set_levels(nlev)
  tk = 250.0_r8 + 20.0_r8*t
  qk = 1.0e-3_r8*q**2
  call column_mse(nlev, tk, qk, h)
  e = sum(h)/real(nlev, r8)*1.0e-5_r8
end subroutine column_energy
