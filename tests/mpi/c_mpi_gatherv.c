// radtap: -head "loads(cost)/(f)" -size cost=1
// sizes: cost=1
// An uneven partition: rank r owns r + 1 cells of a field the root holds (at most 6 for three
// ranks). The root scatters the blocks (MPI_Scatterv), each rank computes a nonlinear load
// per cell, the root gathers the loads back into place (MPI_Gatherv) and sums a cost.
#include <mpi.h>

void loads(double f[6], double *cost) {
    int rank, size, r, i, n;
    int counts[3], displs[3];
    double mine[3], load[3], back[6];
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    n = 0;
    for (r = 0; r < size; r++) {
        counts[r] = r + 1;
        displs[r] = n;
        n += r + 1;
    }
    MPI_Scatterv(f, counts, displs, MPI_DOUBLE, mine, rank + 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    for (i = 0; i <= rank; i++)
        load[i] = mine[i] * mine[i] * (1.0 + 0.5 * rank) + mine[0] * mine[i];
    MPI_Gatherv(load, rank + 1, MPI_DOUBLE, back, counts, displs, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    *cost = 0.0;
    if (rank == 0)
        for (i = 0; i < n; i++)
            *cost += back[i] * f[i];
}
