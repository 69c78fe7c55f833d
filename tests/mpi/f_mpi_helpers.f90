! radtap: -head "relax(cost)/(u)"
! MPI calls inside helper subroutines, which the adjoint would checkpoint (run again in the
! backward sweep): halo exchanges every rank calls (MPI_Sendrecv; the same non-blocking), and
! a receive on the last rank whose partner, the root, sends from the head itself. Run again in
! the backward sweep, the helper's receive would wait for a message the root never sends
! again: the adjoint splits the helpers that communicate (the non-blocking one stays
! checkpointed, its messages repeated by every rank).
subroutine exchange(u, left, right)
  use mpi
  implicit none
  real(8), intent(inout) :: u(6)
  integer, intent(in) :: left, right
  integer :: ierr
  call MPI_Sendrecv(u(5), 1, MPI_DOUBLE_PRECISION, right, 0, u(1), 1, MPI_DOUBLE_PRECISION, &
                    left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  call MPI_Sendrecv(u(2), 1, MPI_DOUBLE_PRECISION, left, 1, u(6), 1, MPI_DOUBLE_PRECISION, &
                    right, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
end subroutine exchange

subroutine exchange_nb(u, left, right)
  use mpi
  implicit none
  real(8), intent(inout) :: u(6)
  integer, intent(in) :: left, right
  integer :: ierr, req(4)
  call MPI_Irecv(u(1), 1, MPI_DOUBLE_PRECISION, left, 2, MPI_COMM_WORLD, req(1), ierr)
  call MPI_Irecv(u(6), 1, MPI_DOUBLE_PRECISION, right, 3, MPI_COMM_WORLD, req(2), ierr)
  call MPI_Isend(u(5), 1, MPI_DOUBLE_PRECISION, right, 2, MPI_COMM_WORLD, req(3), ierr)
  call MPI_Isend(u(2), 1, MPI_DOUBLE_PRECISION, left, 3, MPI_COMM_WORLD, req(4), ierr)
  call MPI_Waitall(4, req, MPI_STATUSES_IGNORE, ierr)
end subroutine exchange_nb

subroutine take_boundary(w, src)
  use mpi
  implicit none
  real(8), intent(out) :: w
  integer, intent(in) :: src
  integer :: ierr
  call MPI_Recv(w, 1, MPI_DOUBLE_PRECISION, src, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
end subroutine take_boundary

subroutine relax(u, cost)
  use mpi
  implicit none
  real(8), intent(inout) :: u(6)
  real(8), intent(out) :: cost
  real(8) :: v(6), w, local
  integer :: rank, nranks, left, right, i, step, ierr
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  left = mod(rank + nranks - 1, nranks)
  right = mod(rank + 1, nranks)
  do step = 1, 2
    if (step == 1) then
      call exchange(u, left, right)
    else
      call exchange_nb(u, left, right)
    end if
    do i = 2, 5
      v(i) = u(i) + 0.1d0 * (u(i - 1) - 2.0d0 * u(i) + u(i + 1)) + 0.05d0 * u(i)**2
    end do
    u(2:5) = v(2:5)
  end do
  if (rank == 0) then
    call MPI_Send(u(2), 1, MPI_DOUBLE_PRECISION, nranks - 1, 7, MPI_COMM_WORLD, ierr)
  else if (rank == nranks - 1) then
    call take_boundary(w, 0)
    u(5) = u(5) * w
  end if
  local = sum(u(2:5)**2) * (1.0d0 + 0.25d0 * rank)
  call MPI_Allreduce(local, cost, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
end subroutine relax
