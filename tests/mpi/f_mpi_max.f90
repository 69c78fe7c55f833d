! radtap: -head "peak(cost)/(x)"
! The largest of three quantities over the ranks (MPI_Allreduce with MPI_MAX), in Fortran.
subroutine peak(x, cost)
  use mpi
  implicit none
  real(8), intent(in) :: x(3)
  real(8), intent(out) :: cost
  real(8) :: a(3), m(3)
  integer :: rank, i, ierr
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  do i = 1, 3
    a(i) = x(i)**2 * (1.0d0 + 0.25d0 * mod(rank + i, 3)) + 0.1d0 * rank * x(mod(i, 3) + 1)
  end do
  call MPI_Allreduce(a, m, 3, MPI_DOUBLE_PRECISION, MPI_MAX, MPI_COMM_WORLD, ierr)
  cost = m(1) * m(2) + m(3) * x(1)
end subroutine peak
