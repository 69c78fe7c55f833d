// radtap: -head "chain(cost)/(u)" -size cost=1
// sizes: cost=1
// An MPI receive in a helper function, which the adjoint would checkpoint (run again in the
// backward sweep): the root sends its last value to the last rank from the head itself, the
// last rank receives it in a helper and scales its cells by it. Run again in the backward
// sweep, the helper's receive would wait for a message the root never sends again (the root
// waits for the adjoint meanwhile): the adjoint splits helpers that communicate.
#include <mpi.h>

static void take_edge(double *w, int src) {
    MPI_Recv(w, 1, MPI_DOUBLE, src, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

void chain(double u[4], double *cost) {
    int rank, size, i;
    double w = 1.0, local = 0.0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0)
        MPI_Send(&u[3], 1, MPI_DOUBLE, size - 1, 7, MPI_COMM_WORLD);
    else if (rank == size - 1)
        take_edge(&w, 0);
    for (i = 0; i < 4; i++)
        local += u[i] * u[i] * w * (1.0 + 0.5 * rank);
    MPI_Allreduce(&local, cost, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}
