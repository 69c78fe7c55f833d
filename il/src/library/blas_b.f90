! radtap's adjoints of the reference BLAS it describes built in (blas.lib), written as BLAS calls.
! Each real argument is followed by its adjoint, a function's result adjoint comes last. On
! entry the primal arguments hold the values of the call; each adjoint argument goes from the
! adjoint after the call to the adjoint before it (x̄ := Jᵀ x̄). Sections start at `!> NAME`.
!> ddot_b
subroutine ddot_b(n, dx, dxb, incx, dy, dyb, incy, resb)
  ! Adjoint of ddot (radtap built-in).
  implicit none
  integer :: n, incx, incy
  real(8) :: dx(*), dxb(*), dy(*), dyb(*), resb
  call daxpy(n, resb, dy, incy, dxb, incx)
  call daxpy(n, resb, dx, incx, dyb, incy)
  resb = 0.0_8
end subroutine ddot_b
!> dnrm2_b
subroutine dnrm2_b(n, x, xb, incx, resb)
  ! Adjoint of dnrm2 (radtap built-in).
  implicit none
  integer :: n, incx
  real(8) :: x(*), xb(*), resb
  real(8) :: r
  real(8), external :: dnrm2
  r = dnrm2(n, x, incx)
  if (r /= 0.0_8) call daxpy(n, resb/r, x, incx, xb, incx)
  resb = 0.0_8
end subroutine dnrm2_b
!> daxpy_b
subroutine daxpy_b(n, da, dab, dx, dxb, incx, dy, dyb, incy)
  ! Adjoint of daxpy (radtap built-in).
  implicit none
  integer :: n, incx, incy
  real(8) :: da, dab, dx(*), dxb(*), dy(*), dyb(*)
  real(8), external :: ddot
  dab = dab + ddot(n, dx, incx, dyb, incy)
  call daxpy(n, da, dyb, incy, dxb, incx)
end subroutine daxpy_b
!> dscal_b
subroutine dscal_b(n, da, dab, dx, dxb, incx)
  ! Adjoint of dscal (radtap built-in).
  implicit none
  integer :: n, incx
  real(8) :: da, dab, dx(*), dxb(*)
  real(8), external :: ddot
  dab = dab + ddot(n, dx, incx, dxb, incx)
  call dscal(n, da, dxb, incx)
end subroutine dscal_b
!> dcopy_b
subroutine dcopy_b(n, dx, dxb, incx, dy, dyb, incy)
  ! Adjoint of dcopy (radtap built-in).
  implicit none
  integer :: n, incx, incy
  real(8) :: dx(*), dxb(*), dy(*), dyb(*)
  call daxpy(n, 1.0_8, dyb, incy, dxb, incx)
  call dscal(n, 0.0_8, dyb, incy)
end subroutine dcopy_b
!> dgemv_b
subroutine dgemv_b(trans, m, n, alpha, alphab, a, ab, lda, x, xb, incx, beta, betab, y, yb, incy)
  ! Adjoint of dgemv (radtap built-in).
  implicit none
  character(*) :: trans
  integer :: m, n, lda, incx, incy
  real(8) :: alpha, alphab, a(lda, *), ab(lda, *), x(*), xb(*), beta, betab, y(*), yb(*)
  real(8), allocatable :: t(:)
  real(8), external :: ddot
  integer :: ly
  logical :: notrans
  notrans = trans == 'N' .or. trans == 'n'
  ly = m
  if (.not. notrans) ly = n
  allocate(t(ly))
  call dgemv(trans, m, n, 1.0_8, a, lda, x, incx, 0.0_8, t, 1)
  alphab = alphab + ddot(ly, t, 1, yb, incy)
  if (beta /= 0.0_8) betab = betab + ddot(ly, y, incy, yb, incy)
  deallocate(t)
  if (notrans) then
    call dgemv('T', m, n, alpha, a, lda, yb, incy, 1.0_8, xb, incx)
    call dger(m, n, alpha, yb, incy, x, incx, ab, lda)
  else
    call dgemv('N', m, n, alpha, a, lda, yb, incy, 1.0_8, xb, incx)
    call dger(m, n, alpha, x, incx, yb, incy, ab, lda)
  end if
  call dscal(ly, beta, yb, abs(incy))
end subroutine dgemv_b
!> dgemm_b
subroutine dgemm_b(transa, transb, m, n, k, alpha, alphab, a, ab, lda, b, bb, ldb, beta, betab, c, cb, ldc)
  ! Adjoint of dgemm (radtap built-in).
  implicit none
  character(*) :: transa, transb
  integer :: m, n, k, lda, ldb, ldc
  real(8) :: alpha, alphab, a(lda, *), ab(lda, *), b(ldb, *), bb(ldb, *), beta, betab
  real(8) :: c(ldc, *), cb(ldc, *)
  real(8), allocatable :: t(:, :)
  logical :: na, nb
  character :: fa, fb
  na = transa == 'N' .or. transa == 'n'
  nb = transb == 'N' .or. transb == 'n'
  fa = 'N'
  if (na) fa = 'T'
  fb = 'N'
  if (nb) fb = 'T'
  allocate(t(m, n))
  call dgemm(transa, transb, m, n, k, 1.0_8, a, lda, b, ldb, 0.0_8, t, m)
  alphab = alphab + sum(t*cb(1:m, 1:n))
  deallocate(t)
  if (beta /= 0.0_8) betab = betab + sum(c(1:m, 1:n)*cb(1:m, 1:n))
  if (na) then
    call dgemm('N', fb, m, k, n, alpha, cb, ldc, b, ldb, 1.0_8, ab, lda)
  else
    call dgemm(transb, 'T', k, m, n, alpha, b, ldb, cb, ldc, 1.0_8, ab, lda)
  end if
  if (nb) then
    call dgemm(fa, 'N', k, n, m, alpha, a, lda, cb, ldc, 1.0_8, bb, ldb)
  else
    call dgemm('T', transa, n, k, m, alpha, cb, ldc, a, lda, 1.0_8, bb, ldb)
  end if
  cb(1:m, 1:n) = beta*cb(1:m, 1:n)
end subroutine dgemm_b
