! radtap: -head layered_response -vars "e thick" -outvars "defl"
! sizes: nl=6 npt=4
! A layered-beam (laminate) response as a structural code computes it: material IDs
! decide the constitutive law through SELECT CASE with ranges and lists, named DO loops
! with CYCLE (void layers) and EXIT (a sentinel ID), integer flags packed with MOD and
! division, an accumulation of bending stiffness about a neutral axis found in a first
! pass, and deflections at a few points.
module laminate
  use iso_fortran_env, only: wp => real64
  implicit none
  integer, parameter :: id_void = 0, id_end = 99
contains
  function layer_modulus(id, e, t) result(em)
    integer, intent(in) :: id
    real(wp), intent(in) :: e, t
    real(wp) :: em
    select case (id)
    case (1:3)
      em = e*(1.0_wp + 0.1_wp*real(id, wp))
    case (4, 6)
      em = 0.5_wp*e*exp(-0.2_wp*t)
    case (10:)
      em = e/(1.0_wp + t**2)
    case default
      em = e
    end select
  end function layer_modulus
end module laminate

subroutine layered_response(nl, npt, e, thick, defl)
  use iso_fortran_env, only: wp => real64
  use laminate
  implicit none
  integer, intent(in) :: nl, npt
  real(wp), intent(in) :: e(nl), thick(nl)
  real(wp), intent(out) :: defl(npt)
  integer :: ids(nl), k, j
  real(wp) :: z0, z, ea, eaz, ei, em, zc, x
  do k = 1, nl
    ids(k) = mod(7*k + 3, 12)
  end do
  ea = 0.0_wp
  eaz = 0.0_wp
  z = 0.0_wp
  first: do k = 1, nl
    if (ids(k) == id_end) exit first
    if (ids(k) == id_void) then
      z = z + 0.1_wp*thick(k)
      cycle first
    end if
    em = layer_modulus(ids(k), e(k), thick(k))
    ea = ea + em*thick(k)
    eaz = eaz + em*thick(k)*(z + 0.5_wp*thick(k))
    z = z + thick(k)
  end do first
  z0 = eaz/ea
  ei = 0.0_wp
  z = 0.0_wp
  second: do k = 1, nl
    if (ids(k) == id_end) exit second
    if (ids(k) == id_void) then
      z = z + 0.1_wp*thick(k)
      cycle second
    end if
    em = layer_modulus(ids(k), e(k), thick(k))
    zc = z + 0.5_wp*thick(k) - z0
    ei = ei + em*(thick(k)**3/12.0_wp + thick(k)*zc**2)
    z = z + thick(k)
  end do second
  do j = 1, npt
    x = real(j, wp)/real(npt + 1, wp)
    defl(j) = x**2*(3.0_wp - x)/(6.0_wp*ei)
  end do
end subroutine layered_response
