! radtap: -head ckp_region -vars "x a" -outvars "y"
! sizes: n=8 x=n
! The directives CHECKPOINT-START/END make regions: one around the body of a time loop (each step
! checkpointed: the re-run needs the step counter, the state and a coefficient the loop
! overwrites after the region), one nested in a branch with a call, and one at the top level
! whose input is overwritten after it.
subroutine stepf(n, u, c)
  integer n, k
  real(8) u(n), c
  do k = 2, n
    u(k) = u(k) + c*sin(u(k-1))*u(k)
  end do
end subroutine stepf

subroutine ckp_region(n, x, a, y)
  integer n, it, k, sub
  real(8) x(n), a, y, c, s
  real(8) u(8), w(8)
  do k = 1, n
    u(k) = x(k)
  end do
  c = a
  do it = 1, 6
    !$AD CHECKPOINT-START
    do k = 1, n
      w(k) = u(k)*u(k)
    end do
    s = 0.1d0*cos(c)
    do sub = 1, 10
      do k = 1, n
        u(k) = u(k) + s*w(k)/(1.0d0 + w(k)*u(k))
      end do
    end do
    if (it > 2) then
      !$AD CHECKPOINT-START
      call stepf(n, u, s)
      u(1) = u(1)*exp(-0.1d0*u(n))
      !$AD CHECKPOINT-END
    end if
    !$AD CHECKPOINT-END
    c = c*0.9d0 + 0.05d0*u(2)
  end do
  !$AD CHECKPOINT-START
  y = 0
  do k = 1, n
    y = y + u(k)*u(k)*c
  end do
  !$AD CHECKPOINT-END
  c = 0
  u(1) = 0
end subroutine ckp_region
