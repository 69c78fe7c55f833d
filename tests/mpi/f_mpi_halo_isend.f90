! radtap: -head "relax(cost u)/(u c)"
! Non-blocking halo exchange (MPI_Irecv, MPI_Isend, MPI_Waitall on four requests) and a cost
! summed by MPI_Allreduce, in Fortran with `use mpi`.
subroutine relax(u, c, cost)
  use mpi
  implicit none
  real(8), intent(inout) :: u(0:6)
  real(8), intent(in) :: c
  real(8), intent(out) :: cost
  real(8) :: v(0:6), local
  integer :: rank, nproc, left, right, i, it, ierr
  integer :: req(4)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nproc, ierr)
  left = mod(rank + nproc - 1, nproc)
  right = mod(rank + 1, nproc)
  do it = 1, 2
    call MPI_Irecv(u(0), 1, MPI_DOUBLE_PRECISION, left, 3, MPI_COMM_WORLD, req(1), ierr)
    call MPI_Irecv(u(6), 1, MPI_DOUBLE_PRECISION, right, 4, MPI_COMM_WORLD, req(2), ierr)
    call MPI_Isend(u(5), 1, MPI_DOUBLE_PRECISION, right, 3, MPI_COMM_WORLD, req(3), ierr)
    call MPI_Isend(u(1), 1, MPI_DOUBLE_PRECISION, left, 4, MPI_COMM_WORLD, req(4), ierr)
    call MPI_Waitall(4, req, MPI_STATUSES_IGNORE, ierr)
    do i = 1, 5
      v(i) = u(i) + c * (u(i - 1) - 2.0d0 * u(i) + u(i + 1)) * (1.0d0 + 0.2d0 * rank)
    end do
    do i = 1, 5
      u(i) = v(i) * v(i) * 0.5d0 + u(i) * 0.5d0
    end do
  end do
  local = 0.0d0
  do i = 1, 5
    local = local + u(i) * u(i)
  end do
  call MPI_Allreduce(local, cost, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
end subroutine relax
