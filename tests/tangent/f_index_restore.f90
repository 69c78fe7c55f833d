! radtap: -head "colsys.top(cost)/(t)"
! sizes:
! A work array reused by a passive system after an active one, addressed by an index set by a
! scalar assignment (`k = n`) that a later DO loop reuses (SICOPOLIS's calc_temp pattern): the
! adjoint restores `a(k)` in its backward sweep and must see `k = n` again, not the DO loop's
! end value n+1 (it restored a(n+1): silently wrong in joint and split mode). Also under a
! DO WHILE that calls such a column routine until a passive criterion holds, and in a DO
! WHILE of a routine called under `$AD NOCHECKPOINT` (SICOPOLIS's shift_cts_downward calling
! calc_temp3: the second error of issue 50, the same restore).
module colsys
  implicit none
  integer, parameter :: n = 4
  real(8) :: t(0:n), tnew(0:n), age(0:n), agenew(0:n), cost
contains
  subroutine solve(a, b, x, m)
    integer, intent(in) :: m
    real(8), intent(in) :: a(0:m), b(0:m)
    real(8), intent(out) :: x(0:m)
    integer :: k
    do k = 0, m
      x(k) = b(k)/a(k)
    end do
  end subroutine solve

  subroutine col(s)
    real(8), intent(in) :: s
    real(8) :: a(0:n+1), x(0:n), y(0:n)
    integer :: k
    do k = 0, n
      a(k) = 1.0d0 + s*t(k)**2
    end do
    a(n+1) = 7.0d0
    call solve(a, t, x, n)
    do k = 0, n
      tnew(k) = tnew(k) + x(k)
    end do
    k = n
    if (age(k) > 0.0d0) then
      a(k) = 2.0d0
    else
      a(k) = 3.0d0
    end if
    call solve(a, age, y, n)
    do k = 0, n
      agenew(k) = y(k)
    end do
  end subroutine col

  subroutine col_inline(s)
    real(8), intent(in) :: s
    real(8) :: a(0:n+1), x(0:n)
    integer :: k
    do k = 0, n
      a(k) = 1.0d0 + s*t(k)**2
    end do
    do k = 0, n
      x(k) = t(k)/a(k)
    end do
    do k = 0, n
      tnew(k) = tnew(k) + x(k)
    end do
    k = n
    a(k) = 2.0d0 + age(k)
    do k = 0, n
      agenew(k) = age(k)/a(k)
    end do
  end subroutine col_inline

  ! SICOPOLIS's shift_cts_downward: a split routine re-solving a column in a DO WHILE.
  subroutine shift(s)
    real(8), intent(inout) :: s
    integer :: it
    it = 0
    do while (it < 2)
      call col_inline(s)
      s = s + 0.25d0
      it = it + 1
    end do
  end subroutine shift

  subroutine top()
    integer :: k, it
    real(8) :: s
    age = 1.0d0
    tnew = 0.0d0
    s = 1.0d0
    it = 0
    do while (it < 3)
      call col(s)
      s = s + 0.5d0
      it = it + 1
    end do
    !$AD NOCHECKPOINT
    call shift(s)
    call col(0.25d0)
    cost = 0.0d0
    do k = 0, n
      if (agenew(k) > 0.1d0) then
        cost = cost + 2.0d0*tnew(k)**2
      else
        cost = cost + tnew(k)**2
      end if
    end do
  end subroutine top
end module colsys
