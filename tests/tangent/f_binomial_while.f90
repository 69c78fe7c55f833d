! radtap: -head binomw -vars "x c" -outvars "y"
! sizes: n=4 x=n
! The directive BINOMIAL-CKP on a DO WHILE time loop of 1,000 steps driven by a step counter
! the body advances (nsteps given as nt+1, 10 snapshots). The forward sweep counts the trips;
! the adjoint reverses the loop under the revolve schedule against that count, the counter
! being part of the step state. Peak stack checked against store-all in tests/adjoint.rs.
subroutine binomw(n, x, c, y)
  integer, parameter :: nt = 1000
  integer n, it, k, km
  real(8) x(n), c, y
  real(8) u(4), v(4)
  do k = 1, n
    u(k) = x(k)
  end do
  it = 1
  !$AD BINOMIAL-CKP nt+1 10 1
  do while (it <= nt)
    do k = 1, n
      v(k) = u(k)
    end do
    do k = 1, n
      km = k - 1
      if (k == 1) km = n
      u(k) = v(k) + 0.001d0*(c*sin(v(km)) - 0.5d0*v(k)**3)
    end do
    it = it + 1
  end do
  y = 0
  do k = 1, n
    y = y + u(k)*u(k)
  end do
end subroutine binomw
