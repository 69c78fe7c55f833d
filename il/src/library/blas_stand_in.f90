! Stand-in bodies of the reference BLAS radtap describes built in (blas.lib): what the analyses
! read for a call (never written out). Each touches exactly the elements the reference routine
! may touch, in loops over its dimensions (`il::extent::footprint` proves LAPACK's blocks of one
! matrix disjoint from them: `DTRSM('Left', ...)` touches an M by M corner of A), and makes each
! output depend on the inputs the record says. A vector is walked element by element only when
! its increment is 1 (a constant 1 at the call keeps that arm alone); any other increment
! touches an element nothing knows, so no footprint is claimed for it. Sections: `!> NAME`.
!> dscal
subroutine dscal(n, da, dx, incx)
  integer :: n, incx, i, radtap_k
  real(8) :: da, dx(*)
  if (incx == 1) then
    do i = 1, n
      dx(i) = da * dx(i)
    end do
  else
    dx(radtap_k) = da * dx(radtap_k) + n + incx
  end if
end subroutine dscal
!> idamax
integer function idamax(n, dx, incx)
  integer :: n, incx, i, radtap_k
  real(8) :: dx(*)
  idamax = 0
  if (incx == 1) then
    do i = 1, n
      if (dx(i) > dx(1)) idamax = i
    end do
  else
    if (dx(radtap_k) > 0) idamax = n + incx
  end if
end function idamax
!> dswap
subroutine dswap(n, dx, incx, dy, incy)
  integer :: n, incx, incy, i, radtap_k
  real(8) :: dx(*), dy(*), t
  if (incx == 1 .and. incy == 1) then
    do i = 1, n
      t = dx(i)
      dx(i) = dy(i)
      dy(i) = t
    end do
  else
    t = dx(radtap_k)
    dx(radtap_k) = dy(radtap_k) + n + incx + incy
    dy(radtap_k) = t
  end if
end subroutine dswap
!> daxpy
subroutine daxpy(n, da, dx, incx, dy, incy)
  integer :: n, incx, incy, i, radtap_k
  real(8) :: da, dx(*), dy(*)
  if (incx == 1 .and. incy == 1) then
    do i = 1, n
      dy(i) = dy(i) + da * dx(i)
    end do
  else
    dy(radtap_k) = dy(radtap_k) + da * dx(radtap_k) + n + incx + incy
  end if
end subroutine daxpy
!> dtrsm
subroutine dtrsm(side, uplo, transa, diag, m, n, alpha, a, lda, b, ldb)
  character :: side, uplo, transa, diag
  integer :: m, n, lda, ldb, i, j, k, radtap_reads
  real(8) :: alpha, a(lda, *), b(ldb, *)
  radtap_reads = ichar(uplo) + ichar(transa) + ichar(diag)
  if (side == 'L' .or. side == 'l') then
    do j = 1, n
      do i = 1, m
        do k = 1, m
          b(i, j) = alpha * b(i, j) + a(i, k) * b(k, j)
        end do
      end do
    end do
  else
    do j = 1, n
      do i = 1, m
        do k = 1, n
          b(i, j) = alpha * b(i, j) + b(i, k) * a(k, j)
        end do
      end do
    end do
  end if
end subroutine dtrsm
!> dgemm
subroutine dgemm(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
  character :: transa, transb
  integer :: m, n, k, lda, ldb, ldc, i, j, l
  real(8) :: alpha, a(lda, *), b(ldb, *), beta, c(ldc, *)
  if (transa == 'N' .or. transa == 'n') then
    if (transb == 'N' .or. transb == 'n') then
      do j = 1, n
        do l = 1, k
          do i = 1, m
            c(i, j) = beta * c(i, j) + alpha * a(i, l) * b(l, j)
          end do
        end do
      end do
    else
      do j = 1, n
        do l = 1, k
          do i = 1, m
            c(i, j) = beta * c(i, j) + alpha * a(i, l) * b(j, l)
          end do
        end do
      end do
    end if
  else
    if (transb == 'N' .or. transb == 'n') then
      do j = 1, n
        do l = 1, k
          do i = 1, m
            c(i, j) = beta * c(i, j) + alpha * a(l, i) * b(l, j)
          end do
        end do
      end do
    else
      do j = 1, n
        do l = 1, k
          do i = 1, m
            c(i, j) = beta * c(i, j) + alpha * a(l, i) * b(j, l)
          end do
        end do
      end do
    end if
  end if
end subroutine dgemm
