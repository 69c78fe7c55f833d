! radtap: -head "loads(cost)/(f)"
! An uneven partition, in Fortran with `use mpi`: rank r owns r + 1 cells of a field the
! root holds. The root scatters the blocks (MPI_Scatterv), each rank computes a nonlinear
! load per cell, the root gathers the loads back into place (MPI_Gatherv) and sums a cost.
subroutine loads(f, cost)
  use mpi
  implicit none
  real(8), intent(in) :: f(6)
  real(8), intent(out) :: cost
  real(8) :: mine(3), load(3), back(6)
  integer :: counts(3), displs(3)
  integer :: rank, nranks, r, i, n, ierr
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  n = 0
  do r = 1, nranks
    counts(r) = r
    displs(r) = n
    n = n + r
  end do
  call MPI_Scatterv(f, counts, displs, MPI_DOUBLE_PRECISION, mine, rank + 1, &
                    MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD, ierr)
  do i = 1, rank + 1
    load(i) = mine(i)**2 * (1.0d0 + 0.5d0 * rank) + mine(1) * mine(i)
  end do
  call MPI_Gatherv(load, rank + 1, MPI_DOUBLE_PRECISION, back, counts, displs, &
                   MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD, ierr)
  cost = 0.0d0
  if (rank == 0) then
    do i = 1, n
      cost = cost + back(i) * f(i)
    end do
  end if
end subroutine loads
