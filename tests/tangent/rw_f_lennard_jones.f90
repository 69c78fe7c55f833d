! radtap: -head cluster_energy -vars "pos eps" -outvars "e"
! sizes: natom=5
! A molecular-mechanics energy in the style of a small MD code: a Lennard-Jones pair
! potential with a smooth cutoff (the pairs within the cutoff are the same over the
! input box: atoms sit on a chain with spacing about 1.1 sigma), a harmonic bond term
! between chain neighbours, a derived type for the force-field parameters with a
! default initialisation, the pair loop over j > i, and an OPTIONAL virial output.
module ff_params
  use iso_fortran_env, only: wp => real64
  implicit none
  type lj_params
    real(wp) :: sigma = 1.0_wp
    real(wp) :: rcut = 2.5_wp
    real(wp) :: kbond = 50.0_wp
    real(wp) :: r0 = 1.12_wp
  end type lj_params
contains
  pure function switch_fn(r, rc) result(s)
    real(wp), intent(in) :: r, rc
    real(wp) :: s
    real(wp) :: x
    x = r/rc
    s = (1.0_wp - x**2)**2
  end function switch_fn

  subroutine pair_energy(prm, eps, ri, rj, e, vir)
    type(lj_params), intent(in) :: prm
    real(wp), intent(in) :: eps, ri(3), rj(3)
    real(wp), intent(inout) :: e
    real(wp), intent(inout), optional :: vir
    real(wp) :: d(3), r, sr6
    d = rj - ri
    r = sqrt(sum(d**2))
    ! Computed before the cutoff test: set inside the branch, gfortran -O2 -Wall warns
    ! that the adjoint (which reads sr6 backwards under the same recorded branch) may read
    ! it uninitialised, a false positive that tests/adjoint_speed.rs rejects.
    sr6 = (prm%sigma/r)**6
    if (r < prm%rcut) then
      e = e + 4.0_wp*eps*(sr6**2 - sr6)*switch_fn(r, prm%rcut)
      if (present(vir)) vir = vir + r*24.0_wp*eps*(2.0_wp*sr6**2 - sr6)/r
    end if
  end subroutine pair_energy
end module ff_params

subroutine cluster_energy(natom, pos, eps, e)
  use ff_params
  implicit none
  integer, intent(in) :: natom
  real(wp), intent(in) :: pos(3, natom), eps
  real(wp), intent(out) :: e
  type(lj_params) :: prm
  real(wp) :: r(3, natom), vir, b
  integer :: i, j
  do i = 1, natom
    r(1, i) = 1.1_wp*real(i, wp) + 0.05_wp*pos(1, i)
    r(2, i) = 0.05_wp*pos(2, i)
    r(3, i) = 0.05_wp*pos(3, i)
  end do
  e = 0.0_wp
  vir = 0.0_wp
  do i = 1, natom - 1
    do j = i + 1, natom
      if (j == i + 1) then
        call pair_energy(prm, eps, r(:, i), r(:, j), e, vir)
      else
        call pair_energy(prm, eps, r(:, i), r(:, j), e)
      end if
    end do
    b = sqrt(sum((r(:, i+1) - r(:, i))**2)) - prm%r0
    e = e + 0.5_wp*prm%kbond*b**2
  end do
  e = e + 0.01_wp*vir
end subroutine cluster_energy
