! radtap: -head dnd_step -vars "x" -outvars "y"
! sizes: n=6 x=n y=n
! The directives DO-NOT-DIFF ... END-DO-NOT-DIFF around a time-step choice (a CFL-like maximum, a
! branch, an integer part): primal code only, with zero derivative out of the region (the
! true derivative of dt is zero too, so finite differences agree).
subroutine dnd_step(n, x, y)
  integer n, k, it
  real(8) x(n), y(n), dt, m
  do k = 1, n
    y(k) = x(k)
  end do
  do it = 1, 4
    !$AD DO-NOT-DIFF
    m = 0
    do k = 1, n
      if (abs(y(k)) > m) m = abs(y(k))
    end do
    dt = 0.05d0/(1 + int(m/10.0d0))
    !$AD END-DO-NOT-DIFF
    do k = 2, n
      y(k) = y(k) + dt*sin(y(k-1))*y(k)
    end do
  end do
end subroutine dnd_step
