! radtap: -head "fit(cost)/(p x)"
! A parameter broadcast from the root, a misfit on each rank's own data, the cost reduced to
! the root (MPI_Bcast, MPI_Reduce with MPI_SUM), in Fortran with `use mpi`.
subroutine fit(p, x, cost)
  use mpi
  implicit none
  real(8), intent(inout) :: p(2)
  real(8), intent(in) :: x(4)
  real(8), intent(inout) :: cost
  real(8) :: local, r
  integer :: rank, i, ierr
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Bcast(p, 2, MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD, ierr)
  local = 0.0d0
  do i = 1, 4
    r = p(1) * x(i) + p(2) * x(i)**2 - (1.0d0 + 0.5d0 * rank) * i
    local = local + r * r
  end do
  call MPI_Reduce(local, cost, 1, MPI_DOUBLE_PRECISION, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
end subroutine fit
