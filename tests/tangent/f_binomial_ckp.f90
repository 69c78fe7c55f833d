! radtap: -head binom -vars "x c" -outvars "y"
! sizes: n=4 x=n
! The directive BINOMIAL-CKP on a nonlinear time loop of 1,000 steps with 10 snapshots, nsteps
! given as nt+1 (Tapenade's habit: one more than the trip count, so the schedule ends its
! first forward sweep early). The adjoint reverses it under the revolve schedule; its peak
! stack is checked against store-all in tests/adjoint.rs.
subroutine binom(n, x, c, y)
  integer, parameter :: nt = 1000
  integer n, it, k, km
  real(8) x(n), c, y
  real(8) u(4), v(4)
  do k = 1, n
    u(k) = x(k)
  end do
  !$AD BINOMIAL-CKP nt+1 10 1
  do it = 1, nt
    do k = 1, n
      v(k) = u(k)
    end do
    do k = 1, n
      km = k - 1
      if (k == 1) km = n
      u(k) = v(k) + 0.001d0*(c*sin(v(km)) - 0.5d0*v(k)**3)
    end do
  end do
  y = 0
  do k = 1, n
    y = y + u(k)*u(k)
  end do
end subroutine binom
