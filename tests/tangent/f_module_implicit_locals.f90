! radtap: -head md_implicit.weigh -vars "x" -outvars "s"
! sizes: n=4
! A module without IMPLICIT NONE whose procedures use implicitly typed locals: an implied-DO
! index `i`, a loop index `k`, a REAL `t` that carries a derivative (hunt 13). The derivative
! module was written with `implicit none` and declared none of them (no compile in any mode);
! it keeps the module's own implicit typing now (`td` is a default REAL like `t`).
module md_implicit
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
