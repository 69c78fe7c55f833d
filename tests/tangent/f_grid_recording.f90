! radtap: -head "grid_m.step(cost)/(a t)"
! sizes:
! A grid loop in SICOPOLIS's shapes (issue 50), recorded element by element: a checkpointed
! call on one element of a module array (`call limit(a(i))`), a checkpointed call writing
! one element of module arrays addressed by its dummy (`call adjust(i)`), and a split call
! rewriting one column of a module array (`call column(j)` under `$AD NOCHECKPOINT`), and a
! checkpointed call rewriting one column in its own loop (`call relax(j)`: `r(:, j)`).
! tests/adjoint_speed.rs runs it at 500 and 2,000 points for the peak of the AD stack.
module grid_m
  implicit none
  integer, parameter :: n = 6
  real(8) :: a(n), h(n), acc(n), t(8, n), tnew(8, n), r(8, n), cost
contains
  subroutine limit(x)
    real(8), intent(inout) :: x
    x = x - 0.01d0*x*x
  end subroutine limit

  subroutine adjust(i)
    integer, intent(in) :: i
    real(8) :: old
    old = h(i)
    if (h(i) < 0.1d0) h(i) = 0.1d0
    h(i) = h(i)*h(i)
    acc(i) = acc(i) + (h(i) - old)
  end subroutine adjust

  subroutine column(j)
    integer, intent(in) :: j
    integer :: k
    do k = 1, 8
      tnew(k, j) = tnew(k, j)*(1.0d0 + 0.1d0*sin(tnew(k, j))) + t(k, j)
    end do
  end subroutine column

  subroutine relax(j)
    integer, intent(in) :: j
    integer :: k
    do k = 1, 8
      r(k, j) = r(k, j)*(0.5d0 + 0.1d0*r(k, j)) + t(k, j)**2
    end do
  end subroutine relax

  subroutine step()
    integer :: i, j
    do i = 1, n
      call limit(a(i))
    end do
    h = a
    acc = 0.0d0
    do i = 1, n
      call adjust(i)
    end do
    tnew = t
    do j = 1, n
      !$AD NOCHECKPOINT
      call column(j)
    end do
    r = t
    do j = 1, n
      call relax(j)
    end do
    cost = sum(h) + sum(acc) + sum(tnew**2) + sum(r**2)
  end subroutine step
end module grid_m
