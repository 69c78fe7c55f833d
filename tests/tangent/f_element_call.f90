! radtap: -head elem_outer -vars "x c" -outvars "y"
! sizes: n=40 x=n
! A checkpointed call on one element per iteration, call inner(x(i), c) with a scalar
! dummy: the snapshot of each call records x(i), not the whole x (the peak stack is
! O(n), checked in tests/adjoint.rs, instead of O(n^2)).
subroutine elem_inner(v, c)
  real(8) v, c
  v = v*cos(c*v) + 0.5d0*c*v*v
end subroutine elem_inner

subroutine elem_outer(n, x, c, y)
  integer n, i
  real(8) x(n), c, y
  do i = 1, n
    call elem_inner(x(i), c)
  end do
  y = 0
  do i = 1, n
    y = y + x(i)*x(i)
  end do
end subroutine elem_outer
