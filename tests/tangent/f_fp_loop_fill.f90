! radtap: -head fpfill -vars "p c" -outvars "y"
! sizes: n=6
! FP-LOOP naming only the state `x` of an iteration that fills a temporary element by element
! before reading it (the shape of a Gauss-Seidel-like sweep, issue 44 item 10):
! `xn(1) = …; do i = 2, n: xn(i) = … xn(i-1) …; err = maxval(abs(xn - x)); x = xn`. Every
! element of xn is written before it is read in an iteration, so xn carries nothing to the
! next one: the loop is a fixed-point loop of x (one converged iteration taped; the peak stack
! and the gradient against store-all are checked in tests/adjoint.rs). It was warned AD050
! ("`xn` may be read before being written") and taped whole.
subroutine fpfill(n, p, c, y)
  integer n, i, k
  real(8) p(n), c, y
  real(8) x(n), xn(n), err
  do i = 1, n
    x(i) = 1.0d0
  end do
  err = 1.0d0
  k = 0
  !$AD FP-LOOP "x" adj_reduction=1.d-15
  do while (err > 1.0d-15 .and. k < 300)
    xn(1) = 0.5d0*p(1) + 0.3d0*cos(c*x(1))
    do i = 2, n
      xn(i) = 0.4d0*p(i) + 0.25d0*sin(x(i)) + 0.2d0*xn(i-1)*x(i-1)
    end do
    err = maxval(abs(xn - x))
    x = xn
    k = k + 1
  end do
  y = c*x(n)
  do i = 1, n
    y = y + p(i)*x(i)*x(i)
  end do
end subroutine fpfill
