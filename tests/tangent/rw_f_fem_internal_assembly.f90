! radtap: -head fem1d_compliance -vars "stiff load" -outvars "disp comp"
! sizes: nel=6
! A 1-D finite-element code in one external subroutine, as small research codes are
! written: element routines are internal procedures that read the host's mesh arrays
! and write the host's global matrix by host association, the tridiagonal system is
! solved by the Thomas algorithm in another internal procedure, and the compliance is
! an internal function called in a loop.
subroutine fem1d_compliance(nel, stiff, load, disp, comp)
  use iso_fortran_env, only: wp => real64
  implicit none
  integer, intent(in) :: nel
  real(wp), intent(in) :: stiff(nel), load(nel)
  real(wp), intent(out) :: disp(nel), comp
  real(wp) :: xn(0:nel), lower(nel), diag(nel), upper(nel), rhs(nel)
  real(wp) :: ke(2, 2), fe(2)
  integer :: e, i
  do i = 0, nel
    xn(i) = real(i, wp)/nel + 0.05_wp*sin(real(i, wp))
  end do
  lower = 0.0_wp
  diag = 0.0_wp
  upper = 0.0_wp
  rhs = 0.0_wp
  do e = 1, nel
    call element(e)
    call scatter(e)
  end do
  call thomas()
  comp = 0.0_wp
  do e = 1, nel
    comp = comp + element_work(e)
  end do
contains
  ! Linear bar element with a section varying along it; node 0 is clamped.
  subroutine element(iel)
    integer, intent(in) :: iel
    real(wp) :: h, ea
    h = xn(iel) - xn(iel - 1)
    ea = stiff(iel)*(1.0_wp + 0.2_wp*xn(iel))
    ke(1, 1) = ea/h
    ke(1, 2) = -ea/h
    ke(2, 1) = -ea/h
    ke(2, 2) = ea/h
    fe(1) = 0.5_wp*h*load(iel)
    fe(2) = 0.5_wp*h*load(iel)
  end subroutine element

  subroutine scatter(iel)
    integer, intent(in) :: iel
    diag(iel) = diag(iel) + ke(2, 2)
    rhs(iel) = rhs(iel) + fe(2)
    if (iel > 1) then
      diag(iel - 1) = diag(iel - 1) + ke(1, 1)
      upper(iel - 1) = upper(iel - 1) + ke(1, 2)
      lower(iel) = lower(iel) + ke(2, 1)
      rhs(iel - 1) = rhs(iel - 1) + fe(1)
    end if
  end subroutine scatter

  subroutine thomas()
    real(wp) :: c(nel), d(nel), m
    integer :: k
    c(1) = upper(1)/diag(1)
    d(1) = rhs(1)/diag(1)
    do k = 2, nel
      m = diag(k) - lower(k)*c(k - 1)
      c(k) = upper(k)/m
      d(k) = (rhs(k) - lower(k)*d(k - 1))/m
    end do
    disp(nel) = d(nel)
    do k = nel - 1, 1, -1
      disp(k) = d(k) - c(k)*disp(k + 1)
    end do
  end subroutine thomas

  function element_work(iel) result(w)
    integer, intent(in) :: iel
    real(wp) :: w, uleft
    if (iel == 1) then
      uleft = 0.0_wp
    else
      uleft = disp(iel - 1)
    end if
    w = 10.0_wp*0.5_wp*(xn(iel) - xn(iel - 1))*load(iel)*(uleft + disp(iel))
  end function element_work
end subroutine fem1d_compliance
