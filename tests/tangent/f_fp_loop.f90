! radtap: -head fpw -vars "x c" -outvars "y"
! sizes: n=5
! The directive FP-LOOP on a DO WHILE fixed-point loop z = Φ(z; x, c) (a contraction, about
! 60 iterations to 1e-15): the adjoint tapes one iteration at the converged z and iterates its
! adjoint until the adjoint of z changes by less than 1e-15 (Christianson). The peak stack
! does not depend on the iteration count (tests/adjoint.rs).
subroutine fpw(n, x, c, y)
  integer n, i, j, k
  real(8) x(n), c, y
  real(8) z(n), znew(n), err
  do i = 1, n
    z(i) = x(i)
  end do
  err = 1.0d0
  k = 0
  !$AD FP-LOOP "z znew" adj_reduction=1.e-15
  do while (err > 1.0d-15 .and. k < 300)
    err = 0.0d0
    do i = 1, n
      j = mod(i, n) + 1
      znew(i) = 0.5d0*x(i) + 0.3d0*c*sin(z(i)) + 0.2d0*z(j)
      err = max(err, abs(znew(i) - z(i)))
    end do
    z = znew
    k = k + 1
  end do
  y = c*z(1)
  do i = 1, n
    y = y + z(i)*z(i)
  end do
end subroutine fpw
