! radtap: -head omp_map -vars "x p" -outvars "y"
! sizes: n=7
! A parallel loop calling a pure function of a shared scalar, with a 2-D array whose
! columns the iterations own (issue 45).
module omp_map_m
  implicit none
contains
  pure real(8) function act(u, p)
    real(8), intent(in) :: u, p
    act = u * tanh(p * u) + 0.25d0 * u * u
  end function act

  subroutine omp_map(n, x, p, y)
    integer, intent(in) :: n
    real(8), intent(in) :: x(2, n), p
    real(8), intent(out) :: y(2, n)
    integer :: i, k
    !$omp parallel do private(k)
    do i = 1, n
      do k = 1, 2
        y(k, i) = act(x(k, i), p) * x(3 - k, i)
      end do
    end do
    !$omp end parallel do
  end subroutine omp_map
end module omp_map_m
