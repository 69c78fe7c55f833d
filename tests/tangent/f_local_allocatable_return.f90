! radtap: -head lar_run -vars "x" -outvars "y"
! sizes:
! Local allocatable work arrays, allocated after an early RETURN guard and freed at the
! end, the way library routines size their scratch space from their arguments; one of
! them is read nonlinearly, so the backward sweep needs its values. The adjoint refused
! the ALLOCATE ("inside a loop": the RETURN made the body a lowered region, all taken as
! looping) and, in split mode, any local ALLOCATE.
module lar_mod
  implicit none
contains
  subroutine smooth_sq(f, g, n, m, tol)
    integer, intent(in) :: n, m
    real(8), intent(in) :: f(n, m)
    real(8), intent(out) :: g(n, m)
    real(8), intent(in) :: tol
    real(8), allocatable :: w(:, :), v(:)
    integer :: i, j
    g = f
    if (n < 3 .or. tol > 1.0d0) return
    allocate(w(n, m), v(0:m - 1))
    w = f*f
    do j = 1, m
      v(j - 1) = sum(w(:, j))
    end do
    do j = 1, m
      do i = 2, n - 1
        g(i, j) = 0.25d0*(w(i - 1, j) + w(i + 1, j)) + 0.5d0*sin(w(i, j)) + 0.1d0*v(j - 1)
      end do
    end do
    deallocate(w, v)
  end subroutine smooth_sq
end module lar_mod

subroutine lar_run(x, y)
  use lar_mod
  implicit none
  real(8), intent(in) :: x(12)
  real(8), intent(out) :: y
  real(8) :: a(4, 3), b(4, 3)
  a = reshape(x, [4, 3])
  call smooth_sq(a, b, 4, 3, 0.5d0)
  call smooth_sq(b, a, 4, 3, 2.0d0)
  y = sum(a*b) + b(2, 2)*a(3, 1)
end subroutine lar_run
