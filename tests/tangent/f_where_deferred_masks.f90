! radtap: -head wdm_run -vars "x" -outvars "y"
! sizes:
! WHERE on allocatable module arrays and on an assumed-shape dummy (the masks' temporaries
! are allocatable), and a WHERE / ELSEWHERE clipping whose ELSEWHERE mask reads, element by
! element, the array the first arm wrote. The adjoint refused both ("a WHERE mask whose
! shape is not that of an array of fixed extents", "an ELSEWHERE mask reading what an
! earlier arm wrote"). Every mask is decided the same way over the input box (margin 0.1).
module wdm_mod
  implicit none
  real(8), allocatable :: h(:, :), h0(:, :)
  integer, allocatable :: kind_of(:, :)
contains
  subroutine clip(a, lo, hi)
    real(8), intent(inout) :: a(:, :)
    real(8), intent(in) :: lo, hi
    where (a < lo)
      a = lo + 0.1d0*a
    elsewhere (a > hi)
      a = hi + 0.5d0*(a - hi)
    elsewhere
      a = a*1.01d0
    end where
  end subroutine clip

  subroutine wdm_step(x)
    real(8), intent(in) :: x(3, 2)
    where (kind_of == 0) h = h0*x
    where (kind_of /= 0)
      h = h + 0.3d0*sin(x)*h0
    end where
    call clip(h, 0.9d0, 1.6d0)
  end subroutine wdm_step
end module wdm_mod

subroutine wdm_run(x, y)
  use wdm_mod
  implicit none
  real(8), intent(in) :: x(3, 2)
  real(8), intent(out) :: y
  integer :: it
  allocate(h(3, 2), h0(3, 2), kind_of(3, 2))
  h0 = reshape([0.2d0, 0.9d0, 3.5d0, 1.5d0, 2.2d0, 0.4d0], [3, 2])
  kind_of = reshape([0, 1, 0, 1, 1, 0], [3, 2])
  h = h0
  do it = 1, 2
    call wdm_step(x)
  end do
  y = sum(h**2)
  deallocate(h, h0, kind_of)
end subroutine wdm_run
