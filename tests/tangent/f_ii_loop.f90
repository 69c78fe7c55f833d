! radtap: -head ii_outer -vars "x c" -outvars "y"
! sizes: n=40 x=n
! The directive II-LOOP on a loop with independent iterations, each a 20-sub-step
! nonlinear update of x(i) (inline) and a call on x(i): every iteration is checkpointed and
! its snapshot is the element x(i) and the scalars, so the peak stack is about one
! iteration's tape plus O(1) per iteration (checked in tests/adjoint.rs).
subroutine ii_inner(v, c)
  real(8) v, c
  v = v*cos(c*v) + 0.5d0*c*v*v
end subroutine ii_inner

subroutine ii_outer(n, x, c, y)
  integer n, i, k
  real(8) x(n), c, y, t
  !$AD II-LOOP
  do i = 1, n
    t = x(i)
    do k = 1, 20
      t = t + 0.02d0*sin(t)*c
    end do
    x(i) = t
    call ii_inner(x(i), c)
  end do
  y = 0
  do i = 1, n
    y = y + x(i)*x(i)
  end do
end subroutine ii_outer
