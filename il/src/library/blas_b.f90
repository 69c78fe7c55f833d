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
  notrans = trans(1:1) == 'N' .or. trans(1:1) == 'n'
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
  na = transa(1:1) == 'N' .or. transa(1:1) == 'n'
  nb = transb(1:1) == 'N' .or. transb(1:1) == 'n'
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
!> dswap_b
subroutine dswap_b(n, dx, dxb, incx, dy, dyb, incy)
  ! Adjoint of dswap (radtap built-in).
  implicit none
  integer :: n, incx, incy
  real(8) :: dx(*), dxb(*), dy(*), dyb(*)
  call dswap(n, dxb, incx, dyb, incy)
end subroutine dswap_b
!> dger_b
subroutine dger_b(m, n, alpha, alphab, x, xb, incx, y, yb, incy, a, ab, lda)
  ! Adjoint of dger (radtap built-in).
  implicit none
  integer :: m, n, incx, incy, lda
  real(8) :: alpha, alphab, x(*), xb(*), y(*), yb(*), a(lda, *), ab(lda, *)
  real(8), allocatable :: t(:)
  real(8), external :: ddot
  allocate(t(m))
  call dgemv('N', m, n, 1.0_8, ab, lda, y, incy, 0.0_8, t, 1)
  alphab = alphab + ddot(m, x, incx, t, 1)
  call daxpy(m, alpha, t, 1, xb, incx)
  deallocate(t)
  call dgemv('T', m, n, alpha, ab, lda, x, incx, 1.0_8, yb, incy)
end subroutine dger_b
!> dtrsv_b
subroutine dtrsv_b(uplo, trans, diag, n, a, ab, lda, x, xb, incx)
  ! Adjoint of dtrsv (radtap built-in): with x' = op(A)^-1*x and u = op(A)^-T*xb,
  ! xb := u and Ab := Ab - u*x'^T (op = N) or x'*u^T (op = T), on A's triangle.
  implicit none
  character(*) :: uplo, trans, diag
  integer :: n, lda, incx
  real(8) :: a(lda, *), ab(lda, *), x(*), xb(*)
  real(8), allocatable :: v(:), u(:)
  logical :: upper, unit, notrans
  integer :: i, j
  upper = uplo(1:1) == 'U' .or. uplo(1:1) == 'u'
  unit = diag(1:1) == 'U' .or. diag(1:1) == 'u'
  notrans = trans(1:1) == 'N' .or. trans(1:1) == 'n'
  allocate(v(n), u(n))
  call dcopy(n, x, incx, v, 1)
  call dtrsv(uplo, trans, diag, n, a, lda, v, 1)
  if (notrans) then
    call dtrsv(uplo, 'T', diag, n, a, lda, xb, incx)
  else
    call dtrsv(uplo, 'N', diag, n, a, lda, xb, incx)
  end if
  call dcopy(n, xb, incx, u, 1)
  do j = 1, n
    do i = 1, n
      if ((upper .and. i > j) .or. (.not. upper .and. i < j) .or. (unit .and. i == j)) cycle
      if (notrans) then
        ab(i, j) = ab(i, j) - u(i)*v(j)
      else
        ab(i, j) = ab(i, j) - v(i)*u(j)
      end if
    end do
  end do
  deallocate(v, u)
end subroutine dtrsv_b
!> dtrsm_b
subroutine dtrsm_b(side, uplo, transa, diag, m, n, alpha, alphab, a, ab, lda, b, bb, ldb)
  ! Adjoint of dtrsm (radtap built-in): with X = alpha*op(A)^-1*B (side L) and
  ! C = op(A)^-T*Bb: alphab += <C, B>, Ab -= C*X^T (op = N) or X*C^T (op = T) on A's
  ! triangle, Bb := alpha*C; side R: C = Bb*op(A)^-T, Ab -= X^T*C (N) or C^T*X (T).
  implicit none
  character(*) :: side, uplo, transa, diag
  integer :: m, n, lda, ldb
  real(8) :: alpha, alphab, a(lda, *), ab(lda, *), b(ldb, *), bb(ldb, *)
  real(8), allocatable :: x(:, :), g(:, :)
  logical :: left, upper, unit, notrans
  character :: flip
  integer :: i, j, k
  left = side(1:1) == 'L' .or. side(1:1) == 'l'
  upper = uplo(1:1) == 'U' .or. uplo(1:1) == 'u'
  unit = diag(1:1) == 'U' .or. diag(1:1) == 'u'
  notrans = transa(1:1) == 'N' .or. transa(1:1) == 'n'
  flip = 'N'
  if (notrans) flip = 'T'
  k = n
  if (left) k = m
  allocate(x(m, n), g(k, k))
  x = b(1:m, 1:n)
  call dtrsm(side, uplo, transa, diag, m, n, alpha, a, lda, x, m)
  call dtrsm(side, uplo, flip, diag, m, n, 1.0_8, a, lda, bb, ldb)
  alphab = alphab + sum(bb(1:m, 1:n)*b(1:m, 1:n))
  if (left .and. notrans) then
    call dgemm('N', 'T', m, m, n, 1.0_8, bb, ldb, x, m, 0.0_8, g, k)
  else if (left) then
    call dgemm('N', 'T', m, m, n, 1.0_8, x, m, bb, ldb, 0.0_8, g, k)
  else if (notrans) then
    call dgemm('T', 'N', n, n, m, 1.0_8, x, m, bb, ldb, 0.0_8, g, k)
  else
    call dgemm('T', 'N', n, n, m, 1.0_8, bb, ldb, x, m, 0.0_8, g, k)
  end if
  do j = 1, k
    do i = 1, k
      if ((upper .and. i > j) .or. (.not. upper .and. i < j) .or. (unit .and. i == j)) cycle
      ab(i, j) = ab(i, j) - g(i, j)
    end do
  end do
  bb(1:m, 1:n) = alpha*bb(1:m, 1:n)
  deallocate(x, g)
end subroutine dtrsm_b
