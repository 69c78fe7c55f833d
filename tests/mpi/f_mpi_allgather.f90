! radtap: -head "smooth(y)/(x)"
! A distributed vector, two entries per rank, gathered on every rank (MPI_Allgather) for a
! global matrix-vector product whose rows each rank owns; two nonlinear iterations, the
! gathered vector reused. Fortran with `include 'mpif.h'`.
subroutine smooth(x, y)
  implicit none
  include 'mpif.h'
  real(8), intent(in) :: x(2)
  real(8), intent(out) :: y(2)
  real(8) :: v(2), full(6), s
  integer :: rank, nranks, i, j, it, gi, ierr
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  v = x
  do it = 1, 2
    call MPI_Allgather(v, 2, MPI_DOUBLE_PRECISION, full, 2, MPI_DOUBLE_PRECISION, &
                       MPI_COMM_WORLD, ierr)
    do i = 1, 2
      gi = 2 * rank + i
      s = 0.0d0
      do j = 1, 2 * nranks
        s = s + full(j) / (gi + j - 1.0d0) + 0.1d0 * full(j) * full(gi)
      end do
      v(i) = s
    end do
  end do
  y(1) = v(1) * full(1)
  y(2) = v(2) * v(1)
end subroutine smooth
