! radtap: -head "diffuse(cost u)/(u k)"
! The 1-D diffusion of c_mpi_diffusion.c in Fortran with `use mpi`: halos exchanged by
! MPI_Sendrecv, the cost summed over the ranks by MPI_Allreduce.
subroutine diffuse(u, k, cost)
  use mpi
  implicit none
  real(8), intent(inout) :: u(0:7)
  real(8), intent(in) :: k
  real(8), intent(out) :: cost
  real(8) :: v(0:7), local
  integer :: rank, nproc, left, right, i, step, ierr
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nproc, ierr)
  left = mod(rank + nproc - 1, nproc)
  right = mod(rank + 1, nproc)
  do step = 1, 3
    call MPI_Sendrecv(u(6), 1, MPI_DOUBLE_PRECISION, right, 0, u(0), 1, MPI_DOUBLE_PRECISION, &
                      left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    call MPI_Sendrecv(u(1), 1, MPI_DOUBLE_PRECISION, left, 1, u(7), 1, MPI_DOUBLE_PRECISION, &
                      right, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    do i = 1, 6
      v(i) = u(i) + k * (u(i-1) - 2.0d0 * u(i) + u(i+1)) + 0.1d0 * u(i) * u(i) * k
    end do
    u(1:6) = v(1:6)
  end do
  local = 0.0d0
  do i = 1, 6
    local = local + u(i) * u(i) * (1.0d0 + rank)
  end do
  call MPI_Allreduce(local, cost, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
end subroutine diffuse
