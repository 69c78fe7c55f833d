! radtap: -head "f(y)/(p)"
! sizes: n=4
! FP-LOOP naming an array and a scalar ("x s"): the adjoint's convergence norm called
! one runtime routine with `xb` (rank 1) and `sb` (a scalar) in one file, which gfortran
! refuses (rank mismatch); the scalar is now passed as the one-element array `[sb]`.
subroutine f(p, n, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: p(n)
  real(8), intent(out) :: y
  real(8) :: x(n), s, err
  integer :: i
  x = 0d0
  s = 0d0
  err = 1d0
  !$AD FP-LOOP "x s" adj_reduction=1e-14
  do while (err > 1d-15)
    err = 0d0
    do i = 1, n
      err = max(err, abs(0.5d0*cos(x(i)) + p(i) + 0.1d0*s - x(i)))
      x(i) = 0.5d0*cos(x(i)) + p(i) + 0.1d0*s
    end do
    s = 0.2d0*sum(x)
  end do
  y = sum(x**2) + s
end subroutine f
