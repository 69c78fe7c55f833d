! radtap: -head fpe -vars "x c" -outvars "y"
! sizes: n=5
! The directive FP-LOOP (Tapenade's spelling, no quotes) on a counted DO fixed-point loop that
! leaves by an `if (…) exit` as its last statement: one converged iteration taped, its adjoint
! iterated to 1e-15 (tests/adjoint.rs checks the peak stack against the iteration count).
subroutine fpe(n, x, c, y)
  integer n, i, j, k
  real(8) x(n), c, y
  real(8) z(n), znew(n), err
  do i = 1, n
    z(i) = 1.0d0
  end do
  !$AD FP-LOOP z,znew adj_reduction=1.d-15
  do k = 1, 300
    err = 0.0d0
    do i = 1, n
      j = mod(i, n) + 1
      znew(i) = 0.4d0*x(i)*x(i) + 0.25d0*cos(c*z(i)) + 0.2d0*z(j)*x(j)
      err = max(err, abs(znew(i) - z(i)))
    end do
    z = znew
    if (err <= 1.0d-15) exit
  end do
  y = 0.0d0
  do i = 1, n
    y = y + x(i)*z(i)
  end do
end subroutine fpe
