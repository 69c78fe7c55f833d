! radtap: -head "calib(cost)/(p x)"
! A calibration split over the ranks, in Fortran with `use mpi`: the root scatters a block of
! two parameters to each rank (MPI_Scatter), each rank fits its own data, the root gathers
! the ranks' residual sums (MPI_Gather), adds them to the cost and updates its parameters
! from them. Two sweeps: the gathered buffer is overwritten by the second gather after its
! values were used.
subroutine calib(p, x, cost)
  use mpi
  implicit none
  real(8), intent(inout) :: p(6)
  real(8), intent(in) :: x(3)
  real(8), intent(out) :: cost
  real(8) :: mine(2), res(2), all(6), r
  integer :: rank, nranks, i, sweep, ierr
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  cost = 0.0d0
  do sweep = 1, 2
    call MPI_Scatter(p, 2, MPI_DOUBLE_PRECISION, mine, 2, MPI_DOUBLE_PRECISION, 0, &
                     MPI_COMM_WORLD, ierr)
    res = 0.0d0
    do i = 1, 3
      r = mine(1) * x(i) + mine(2) * x(i)**2 - (1.0d0 + 0.3d0 * rank) * i
      res(1) = res(1) + r * r
      res(2) = res(2) + r * x(i)
    end do
    call MPI_Gather(res, 2, MPI_DOUBLE_PRECISION, all, 2, MPI_DOUBLE_PRECISION, 0, &
                    MPI_COMM_WORLD, ierr)
    if (rank == 0) then
      do i = 1, 2 * nranks
        cost = cost + 0.5d0 * all(i)**2
        p(i) = p(i) - 0.01d0 * all(i) * p(i)
      end do
    end if
  end do
end subroutine calib
