! radtap: -head md_implicit.weigh -vars "x" -outvars "s"
! sizes: n=4
! A module with IMPLICIT DOUBLE PRECISION (A-H, O-Z) instead of IMPLICIT NONE, whose procedure
! uses implicitly typed locals: an implied-DO index `i`, a loop index `k`, a `t` that carries a
! derivative (hunt 13). The derivative module was written with `implicit none` and declared
! none of them (no compile in any mode); it keeps the module's own implicit typing now (`td`
! is double precision like `t`; with no IMPLICIT at all, a default REAL).
module md_implicit
  implicit double precision (a-h, o-z)
contains
  subroutine weigh(n, x, s)
    integer :: n
    real(8) :: x(n), s
    s = sum(x * [(dble(i), i = 1, n)]) * 0.1d0
    do k = 1, n
      t = x(k) * 2d0
      s = s + t * x(k)
    end do
  end subroutine weigh
end module md_implicit
