! radtap: -head "sfc_fluxes(evap rh qsat)/(ta ps qa tsk)"
! sizes:
! SPEEDY's humidity module (samhatfield/speedy.f90): the array-valued function
! get_qsat(ta, ps, sig) result(qsat), its explicit shape qsat(ix,il) from module constants,
! assigned whole (`qsat = get_qsat(ta, ps, sig)` in spec_hum_to_rel_hum) and into sections of
! a rank-3 array (`qsat0(:,:,1) = get_qsat(tskin, psa, 1.0_p)` in surface_fluxes); beside it
! a result `f(n)` sized by a dummy and one `r(size(v))` sized by an assumed-shape dummy,
! referenced inside expressions. Each reference is hoisted into temporaries of the result's
! shape written over the actuals (`get_qsat_res(4, 3)`, `smooth_res(n)`, `twice_res(size(x))`)
! (fixed: every reference was refused, AD020; issue 44 item 6).
module sp_types
  implicit none
  integer, parameter :: p = kind(1.0d0)
end module sp_types

module sp_params
  implicit none
  integer, parameter :: ix = 4, iy = 1, il = 3*iy
end module sp_params

module sp_humidity
  use sp_types, only: p
  use sp_params, only: ix, il
  implicit none
  private
  public spec_hum_to_rel_hum, get_qsat, smooth, twice
contains
  subroutine spec_hum_to_rel_hum(ta, ps, sig, qa, rh, qsat)
    real(p), intent(in) :: ta(ix,il), ps(ix,il), sig, qa(ix,il)
    real(p), intent(inout) :: rh(ix,il), qsat(ix,il)
    qsat = get_qsat(ta, ps, sig)
    rh = qa/qsat
  end subroutine spec_hum_to_rel_hum

  ! Saturation specific humidity (g/kg) from temperature (K) and normalised pressure.
  function get_qsat(ta, ps, sig) result(qsat)
    real(p), intent(in) :: ta(ix,il), ps(ix,il), sig
    real(p) :: qsat(ix,il)
    real(p) :: e0, c1, c2, t0, t1, t2
    integer :: i, j
    e0 = 6.108e-3_p
    c1 = 17.269_p
    c2 = 21.875_p
    t0 = 273.16_p
    t1 = 35.86_p
    t2 = 7.66_p
    do i = 1, ix
      do j = 1, il
        if (ta(i,j) >= t0) then
          qsat(i,j) = e0*exp(c1*(ta(i,j) - t0)/(ta(i,j) - t1))
        else
          qsat(i,j) = e0*exp(c2*(ta(i,j) - t0)/(ta(i,j) - t2))
        end if
      end do
    end do
    if (sig <= 0.0_p) then
      qsat = 622.0_p*qsat/(ps(1,1) - 0.378_p*qsat)
    else
      qsat = 622.0_p*qsat/(sig*ps - 0.378_p*qsat)
    end if
  end function get_qsat

  ! A three-point smoother of a vector of length n.
  function smooth(n, v) result(f)
    integer, intent(in) :: n
    real(p), intent(in) :: v(n)
    real(p) :: f(n)
    integer :: k
    f(1) = v(1)
    f(n) = v(n)
    do k = 2, n - 1
      f(k) = 0.25_p*v(k-1) + 0.5_p*v(k) + 0.25_p*v(k+1)
    end do
  end function smooth

  function twice(v) result(r)
    real(p), intent(in) :: v(:)
    real(p) :: r(size(v))
    r = 2.0_p*v*v
  end function twice
end module sp_humidity

subroutine sfc_fluxes(ta, ps, qa, tsk, evap, rh, qsat)
  use sp_types, only: p
  use sp_params, only: ix, il
  use sp_humidity, only: spec_hum_to_rel_hum, get_qsat, smooth, twice
  implicit none
  real(p), intent(in) :: ta(ix,il), ps(ix,il), qa(ix,il), tsk(ix,il)
  real(p), intent(out) :: evap(ix,il,2), rh(ix,il), qsat(ix,il)
  real(p) :: qsat0(ix,il,2), tk(ix,il), tkin(ix,il), psa(ix,il), col(ix)
  integer :: j
  ! Warm air (above the freezing point) and a cold skin (below it): each branch of
  ! get_qsat is taken the same way over the whole input box.
  tk = 280.0_p + 20.0_p*ta
  tkin = 230.0_p + 25.0_p*tsk
  psa = 0.9_p + 0.1_p*ps
  call spec_hum_to_rel_hum(tk, psa, 0.95_p, qa, rh, qsat)
  qsat0(:,:,1) = get_qsat(tkin, psa, 1.0_p)
  qsat0(:,:,2) = get_qsat(tkin + 1.0_p, psa, -1.0_p)
  evap(:,:,1) = 2.4_p*qsat0(:,:,1) + 0.1_p*qa
  evap(:,:,2) = 10.0_p*(qsat0(:,:,2) - qsat0(:,:,1))
  do j = 1, il
    col = evap(:,j,1)
    evap(:,j,1) = smooth(ix, col) + 0.5_p*twice(col)
  end do
end subroutine sfc_fluxes
