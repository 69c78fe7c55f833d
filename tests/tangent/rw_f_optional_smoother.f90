! radtap: -head smooth_signal -vars "y lam" -outvars "z rough"
! sizes: n=8
! A Whittaker-style smoother as a signal-processing module writes it: a routine with
! OPTIONAL arguments (a weight vector, an iteration count, an output roughness) tested
! with PRESENT and given by keyword, Jacobi sweeps on the penalised system
! (W + lam D'D) z = W y with second differences, and an explicit-shape / assumed-shape
! mix between the caller and the callee.
module smoother
  use iso_fortran_env, only: wp => real64
  implicit none
contains
  subroutine whittaker(y, lam, z, w, niter, roughness)
    real(wp), intent(in) :: y(:), lam
    real(wp), intent(out) :: z(:)
    real(wp), intent(in), optional :: w(:)
    integer, intent(in), optional :: niter
    real(wp), intent(out), optional :: roughness
    real(wp) :: wt(size(y)), znew(size(y)), diag, off
    integer :: i, it, nit, n
    n = size(y)
    wt = 1.0_wp
    if (present(w)) wt = w
    nit = 20
    if (present(niter)) nit = niter
    z = y
    do it = 1, nit
      do i = 1, n
        off = 0.0_wp
        diag = wt(i)
        if (i > 2) off = off + lam*z(i-2)
        if (i > 1 .and. i < n) then
          diag = diag + 4.0_wp*lam
          off = off + 4.0_wp*lam*(z(i-1) + z(i+1))
        else
          diag = diag + lam
          if (i == 1) off = off + 2.0_wp*lam*z(2)
          if (i == n) off = off + 2.0_wp*lam*z(n-1)
        end if
        if (i < n - 1) off = off + lam*z(i+2)
        znew(i) = (wt(i)*y(i) + 0.25_wp*off)/diag
      end do
      z = 0.5_wp*z + 0.5_wp*znew
    end do
    if (present(roughness)) then
      roughness = 0.0_wp
      do i = 2, n - 1
        roughness = roughness + (z(i+1) - 2.0_wp*z(i) + z(i-1))**2
      end do
    end if
  end subroutine whittaker
end module smoother

subroutine smooth_signal(n, y, lam, z, rough)
  use iso_fortran_env, only: wp => real64
  use smoother, only: whittaker
  implicit none
  integer, intent(in) :: n
  real(wp), intent(in) :: y(n), lam
  real(wp), intent(out) :: z(n), rough
  real(wp) :: w(n), z2(n)
  integer :: i
  do i = 1, n
    w(i) = 1.0_wp + 0.1_wp*real(mod(i, 3), wp)
  end do
  call whittaker(y, 0.1_wp*lam, z, w=w, roughness=rough)
  call whittaker(y, 0.2_wp*lam, z2, niter=10)
  z = 0.5_wp*(z + z2)
end subroutine smooth_signal
