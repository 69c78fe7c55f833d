! radtap: -head "spread(cost)/(p u)"
! MPI through `use mpi_f08` (handles of type MPI_Comm, the error argument optional): the root
! broadcasts a coefficient, halos are exchanged by MPI_Sendrecv, the cost summed by
! MPI_Allreduce; some calls pass `ierr`, others not.
subroutine spread(p, u, cost)
  use mpi_f08
  implicit none
  real(8), intent(inout) :: p(2)
  real(8), intent(inout) :: u(0:5)
  real(8), intent(out) :: cost
  type(MPI_Comm) :: comm
  real(8) :: v(0:5), local
  integer :: rank, nranks, left, right, i, step, ierr
  comm = MPI_COMM_WORLD
  call MPI_Comm_rank(comm, rank)
  call MPI_Comm_size(comm, nranks, ierr)
  left = mod(rank + nranks - 1, nranks)
  right = mod(rank + 1, nranks)
  call MPI_Bcast(p, 2, MPI_DOUBLE_PRECISION, 0, comm)
  do step = 1, 2
    call MPI_Sendrecv(u(4), 1, MPI_DOUBLE_PRECISION, right, 0, u(0), 1, MPI_DOUBLE_PRECISION, &
                      left, 0, comm, MPI_STATUS_IGNORE)
    call MPI_Sendrecv(u(1), 1, MPI_DOUBLE_PRECISION, left, 1, u(5), 1, MPI_DOUBLE_PRECISION, &
                      right, 1, comm, MPI_STATUS_IGNORE, ierr)
    do i = 1, 4
      v(i) = u(i) + p(1) * (u(i - 1) - 2.0d0 * u(i) + u(i + 1)) + p(2) * u(i)**2
    end do
    u(1:4) = v(1:4)
  end do
  local = sum(u(1:4)**2) * (1.0d0 + 0.5d0 * rank)
  call MPI_Allreduce(local, cost, 1, MPI_DOUBLE_PRECISION, MPI_SUM, comm)
end subroutine spread
