! radtap: -head "pipeline(out)/(x)"
! A pipeline along the ranks with blocking MPI_Send / MPI_Recv (a status array received),
! in Fortran with `include 'mpif.h'`.
subroutine pipeline(x, out)
  implicit none
  include 'mpif.h'
  real(8), intent(in) :: x(3)
  real(8), intent(out) :: out
  real(8) :: s(2)
  integer :: rank, nproc, i, ierr
  integer :: status(MPI_STATUS_SIZE)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nproc, ierr)
  if (rank == 0) then
    s(1) = x(1)
    s(2) = x(2) * x(3)
  else
    call MPI_Recv(s, 2, MPI_DOUBLE_PRECISION, rank - 1, 7, MPI_COMM_WORLD, status, ierr)
  end if
  do i = 1, 3
    s(1) = s(1) + sin(s(2)) * x(i) * (1.0d0 + rank)
    s(2) = s(2) * 0.9d0 + s(1) * x(i)
  end do
  if (rank < nproc - 1) then
    call MPI_Send(s, 2, MPI_DOUBLE_PRECISION, rank + 1, 7, MPI_COMM_WORLD, ierr)
    out = 0.0d0
  else
    out = s(1) * s(2)
  end if
end subroutine pipeline
