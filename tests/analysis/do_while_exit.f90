! radtap: -head newton_sqrt -vars "a" -outvars "r"
! DO WHILE with CYCLE and EXIT tests on the real err = abs(r - rold).
! err and rold are varied but not useful (only compared), hence not active;
! yet they are diff-live, because the EXIT/CYCLE control guards active
! assignments to r. r is TBR (a/r in the update). The branch r = 1.0d0 kills
! r's variedness on one path only. iter and tol are never active.
subroutine newton_sqrt(a, r)
  implicit none
  real(8), intent(in) :: a
  real(8), intent(out) :: r
  real(8) :: err, tol, rold
  integer :: iter
  tol = 1.0d-12
  r = a
  if (r < 1.0d0) r = 1.0d0
  iter = 0
  do while (iter < 100)
    iter = iter + 1
    rold = r
    r = 0.5d0*(r + a/r)
    err = abs(r - rold)
    if (err > 1.0d0) cycle
    if (err < tol) exit
  end do
end subroutine newton_sqrt
