! radtap: -head bar_response -vars "young strain" -outvars "stress energy"
! sizes: npt=6
! A piecewise constitutive law of a structural code: linear elastic, linear hardening
! and saturating (Voce) branches chosen per integration point by comparing the trial
! stress with a yield stress from a material table; the table is indexed by a
! character material flag. Every yield stress in the table is far from the trial
! stresses the inputs produce, so each point stays on one branch over the input box.
module hardening_laws
  use iso_fortran_env, only: wp => real64
  implicit none
  type :: material_t
    character(len=8) :: name
    real(wp) :: sigy
    real(wp) :: hmod
    real(wp) :: qinf, bsat
    logical :: saturating
  end type material_t
contains
  function lookup(flag) result(mat)
    character(len=*), intent(in) :: flag
    type(material_t) :: mat
    select case (flag)
    case ('steel')
      mat = material_t('steel', 0.2_wp, 0.1_wp, 0.0_wp, 0.0_wp, .false.)
    case ('alu')
      mat = material_t('alu', 0.1_wp, 0.05_wp, 0.3_wp, 4.0_wp, .true.)
    case default
      mat = material_t('rubber', 50.0_wp, 0.0_wp, 0.0_wp, 0.0_wp, .false.)
    end select
  end function lookup

  subroutine return_map(mat, e, eps, sig, w)
    type(material_t), intent(in) :: mat
    real(wp), intent(in) :: e, eps
    real(wp), intent(out) :: sig, w
    real(wp) :: trial, ep
    trial = e*eps
    if (trial <= mat%sigy) then
      sig = trial
      w = 0.5_wp*trial*eps
    else if (.not. mat%saturating) then
      ep = (trial - mat%sigy)/(e + mat%hmod)
      sig = mat%sigy + mat%hmod*ep
      w = 0.5_wp*sig**2/e + mat%sigy*ep + 0.5_wp*mat%hmod*ep**2
    else
      ep = (trial - mat%sigy)/(e + mat%hmod + mat%qinf*mat%bsat)
      sig = mat%sigy + mat%hmod*ep + mat%qinf*(1.0_wp - exp(-mat%bsat*ep))
      w = 0.5_wp*sig**2/e + mat%sigy*ep + mat%qinf*(ep - (1.0_wp - exp(-mat%bsat*ep))/mat%bsat)
    end if
  end subroutine return_map
end module hardening_laws

subroutine bar_response(npt, young, strain, stress, energy)
  use hardening_laws
  implicit none
  integer, intent(in) :: npt
  real(wp), intent(in) :: young, strain(npt)
  real(wp), intent(out) :: stress(npt), energy
  character(len=8) :: flags(3)
  type(material_t) :: mat
  real(wp) :: w
  integer :: ip
  flags = [character(len=8) :: 'steel', 'alu', 'rubber']
  energy = 0.0_wp
  do ip = 1, npt
    mat = lookup(trim(flags(mod(ip - 1, 3) + 1)))
    call return_map(mat, young, strain(ip), stress(ip), w)
    energy = energy + w
  end do
end subroutine bar_response
