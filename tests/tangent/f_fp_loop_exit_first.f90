! radtap: -head fpf -vars "x c" -outvars "y"
! sizes: n=4
! The directive FP-LOOP on a `do` fixed-point loop whose only exit is its first statement
! (`do; if (converged) exit; update; end do`): one converged iteration taped, its adjoint
! iterated to 1e-15.
subroutine fpf(n, x, c, y)
  integer n, i, k
  real(8) x(n), c, y
  real(8) z(n)
  do i = 1, n
    z(i) = 1.0d0
  end do
  k = 0
  !$AD FP-LOOP "z" adj_reduction=1.d-15
  do
    if (maxval(abs(0.3d0*x*x + 0.25d0*cos(c*z) - z)) <= 1.0d-15 .or. k >= 300) exit
    k = k + 1
    z = 0.3d0*x*x + 0.25d0*cos(c*z)
  end do
  y = 0.0d0
  do i = 1, n
    y = y + x(i)*sin(z(i))
  end do
end subroutine fpf
