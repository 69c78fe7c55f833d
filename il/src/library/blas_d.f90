! radtap's tangents of the reference BLAS it describes built in (blas.lib), written as BLAS calls.
! Each real argument is followed by its derivative; a function's primal result is the last
! argument and its derivative is returned. Sections start at a line `!> NAME`.
!> ddot_d
real(8) function ddot_d(n, dx, dxd, incx, dy, dyd, incy, res)
  ! Tangent of ddot (radtap built-in): d(x.y) = xd.y + x.yd.
  implicit none
  integer :: n, incx, incy
  real(8) :: dx(*), dxd(*), dy(*), dyd(*), res
  real(8), external :: ddot
  res = ddot(n, dx, incx, dy, incy)
  ddot_d = ddot(n, dxd, incx, dy, incy) + ddot(n, dx, incx, dyd, incy)
end function ddot_d
!> dnrm2_d
real(8) function dnrm2_d(n, x, xd, incx, res)
  ! Tangent of dnrm2 (radtap built-in): d|x| = x.xd / |x| (0 at x = 0).
  implicit none
  integer :: n, incx
  real(8) :: x(*), xd(*), res
  real(8), external :: ddot, dnrm2
  res = dnrm2(n, x, incx)
  dnrm2_d = 0.0_8
  if (res /= 0.0_8) dnrm2_d = ddot(n, x, incx, xd, incx) / res
end function dnrm2_d
!> daxpy_d
subroutine daxpy_d(n, da, dad, dx, dxd, incx, dy, dyd, incy)
  ! Tangent of daxpy (radtap built-in): yd = yd + da*xd + dad*x.
  implicit none
  integer :: n, incx, incy
  real(8) :: da, dad, dx(*), dxd(*), dy(*), dyd(*)
  call daxpy(n, da, dxd, incx, dyd, incy)
  call daxpy(n, dad, dx, incx, dyd, incy)
  call daxpy(n, da, dx, incx, dy, incy)
end subroutine daxpy_d
!> dscal_d
subroutine dscal_d(n, da, dad, dx, dxd, incx)
  ! Tangent of dscal (radtap built-in): xd = da*xd + dad*x.
  implicit none
  integer :: n, incx
  real(8) :: da, dad, dx(*), dxd(*)
  call dscal(n, da, dxd, incx)
  call daxpy(n, dad, dx, incx, dxd, incx)
  call dscal(n, da, dx, incx)
end subroutine dscal_d
!> dcopy_d
subroutine dcopy_d(n, dx, dxd, incx, dy, dyd, incy)
  ! Tangent of dcopy (radtap built-in): yd = xd.
  implicit none
  integer :: n, incx, incy
  real(8) :: dx(*), dxd(*), dy(*), dyd(*)
  call dcopy(n, dxd, incx, dyd, incy)
  call dcopy(n, dx, incx, dy, incy)
end subroutine dcopy_d
!> dgemv_d
subroutine dgemv_d(trans, m, n, alpha, alphad, a, ad, lda, x, xd, incx, beta, betad, y, yd, incy)
  ! Tangent of dgemv (radtap built-in):
  ! yd = alpha*op(A)*xd + alpha*op(Ad)*x + alphad*op(A)*x + beta*yd + betad*y.
  implicit none
  character(*) :: trans
  integer :: m, n, lda, incx, incy
  real(8) :: alpha, alphad, a(lda, *), ad(lda, *), x(*), xd(*), beta, betad, y(*), yd(*)
  real(8), allocatable :: t(:)
  integer :: ly
  ly = m
  if (trans(1:1) /= 'N' .and. trans(1:1) /= 'n') ly = n
  if (betad /= 0.0_8) then
    allocate(t(ly))
    call dcopy(ly, y, incy, t, 1)
  end if
  call dgemv(trans, m, n, alpha, a, lda, xd, incx, beta, yd, incy)
  call dgemv(trans, m, n, alpha, ad, lda, x, incx, 1.0_8, yd, incy)
  call dgemv(trans, m, n, alphad, a, lda, x, incx, 1.0_8, yd, incy)
  if (betad /= 0.0_8) then
    call daxpy(ly, betad, t, 1, yd, incy)
    deallocate(t)
  end if
  call dgemv(trans, m, n, alpha, a, lda, x, incx, beta, y, incy)
end subroutine dgemv_d
!> dgemm_d
subroutine dgemm_d(transa, transb, m, n, k, alpha, alphad, a, ad, lda, b, bd, ldb, beta, betad, c, cd, ldc)
  ! Tangent of dgemm (radtap built-in):
  ! Cd = alpha*op(A)*op(Bd) + alpha*op(Ad)*op(B) + alphad*op(A)*op(B) + beta*Cd + betad*C.
  implicit none
  character(*) :: transa, transb
  integer :: m, n, k, lda, ldb, ldc
  real(8) :: alpha, alphad, a(lda, *), ad(lda, *), b(ldb, *), bd(ldb, *), beta, betad
  real(8) :: c(ldc, *), cd(ldc, *)
  real(8), allocatable :: t(:, :)
  if (betad /= 0.0_8) then
    allocate(t(m, n))
    t = c(1:m, 1:n)
  end if
  call dgemm(transa, transb, m, n, k, alpha, a, lda, bd, ldb, beta, cd, ldc)
  call dgemm(transa, transb, m, n, k, alpha, ad, lda, b, ldb, 1.0_8, cd, ldc)
  call dgemm(transa, transb, m, n, k, alphad, a, lda, b, ldb, 1.0_8, cd, ldc)
  if (betad /= 0.0_8) then
    cd(1:m, 1:n) = cd(1:m, 1:n) + betad*t
    deallocate(t)
  end if
  call dgemm(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
end subroutine dgemm_d
!> dswap_d
subroutine dswap_d(n, dx, dxd, incx, dy, dyd, incy)
  ! Tangent of dswap (radtap built-in): the derivatives are swapped with the values.
  implicit none
  integer :: n, incx, incy
  real(8) :: dx(*), dxd(*), dy(*), dyd(*)
  call dswap(n, dxd, incx, dyd, incy)
  call dswap(n, dx, incx, dy, incy)
end subroutine dswap_d
!> dger_d
subroutine dger_d(m, n, alpha, alphad, x, xd, incx, y, yd, incy, a, ad, lda)
  ! Tangent of dger (radtap built-in): Ad = Ad + alphad*x*y' + alpha*xd*y' + alpha*x*yd'.
  implicit none
  integer :: m, n, incx, incy, lda
  real(8) :: alpha, alphad, x(*), xd(*), y(*), yd(*), a(lda, *), ad(lda, *)
  call dger(m, n, alphad, x, incx, y, incy, ad, lda)
  call dger(m, n, alpha, xd, incx, y, incy, ad, lda)
  call dger(m, n, alpha, x, incx, yd, incy, ad, lda)
  call dger(m, n, alpha, x, incx, y, incy, a, lda)
end subroutine dger_d
!> dtrsv_d
subroutine dtrsv_d(uplo, trans, diag, n, a, ad, lda, x, xd, incx)
  ! Tangent of dtrsv (radtap built-in): op(A)*x' = x, so xd' = op(A)^-1*(xd - op(Ad)*x'),
  ! Ad taken on A's triangle (without its diagonal when A's is unit).
  implicit none
  character(*) :: uplo, trans, diag
  integer :: n, lda, incx
  real(8) :: a(lda, *), ad(lda, *), x(*), xd(*)
  real(8), allocatable :: t(:)
  call dtrsv(uplo, trans, diag, n, a, lda, x, incx)
  allocate(t(n))
  call dcopy(n, x, incx, t, 1)
  call dtrmv(uplo, trans, diag, n, ad, lda, t, 1)
  if (diag(1:1) == 'U' .or. diag(1:1) == 'u') call daxpy(n, -1.0_8, x, incx, t, 1)
  call daxpy(n, -1.0_8, t, 1, xd, incx)
  deallocate(t)
  call dtrsv(uplo, trans, diag, n, a, lda, xd, incx)
end subroutine dtrsv_d
!> dtrsm_d
subroutine dtrsm_d(side, uplo, transa, diag, m, n, alpha, alphad, a, ad, lda, b, bd, ldb)
  ! Tangent of dtrsm (radtap built-in): op(A)*X = alpha*B (side L), so
  ! Xd = op(A)^-1*(alphad*B + alpha*Bd - op(Ad)*X); side R likewise on the right.
  implicit none
  character(*) :: side, uplo, transa, diag
  integer :: m, n, lda, ldb
  real(8) :: alpha, alphad, a(lda, *), ad(lda, *), b(ldb, *), bd(ldb, *)
  real(8), allocatable :: t(:, :)
  bd(1:m, 1:n) = alpha*bd(1:m, 1:n) + alphad*b(1:m, 1:n)
  call dtrsm(side, uplo, transa, diag, m, n, alpha, a, lda, b, ldb)
  allocate(t(m, n))
  t = b(1:m, 1:n)
  call dtrmm(side, uplo, transa, diag, m, n, 1.0_8, ad, lda, t, m)
  if (diag(1:1) == 'U' .or. diag(1:1) == 'u') t = t - b(1:m, 1:n)
  bd(1:m, 1:n) = bd(1:m, 1:n) - t
  deallocate(t)
  call dtrsm(side, uplo, transa, diag, m, n, 1.0_8, a, lda, bd, ldb)
end subroutine dtrsm_d
