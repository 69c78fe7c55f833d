// radtap: -head "fit(cost)/(p x)" -size cost=1
// sizes: cost=1
// A parameter broadcast from the root, a misfit computed on each rank's own data, the cost
// reduced to the root (MPI_Bcast, MPI_Reduce with MPI_SUM). Only the root's p matters.
#include <mpi.h>

void fit(double p[2], double x[4], double *cost) {
    int rank, i;
    double local, r;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Bcast(p, 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    local = 0.0;
    for (i = 0; i < 4; i++) {
        r = p[0] * x[i] + p[1] * x[i] * x[i] - (1.0 + 0.5 * rank) * i;
        local = local + r * r;
    }
    MPI_Reduce(&local, cost, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
}
