// radtap: -head "calib(cost)/(p x)" -size cost=1
// sizes: cost=1
// A calibration split over the ranks: the root scatters a block of two parameters to each
// rank (MPI_Scatter), each rank fits its own data, the root gathers the ranks' residual sums
// (MPI_Gather), adds them to the cost and updates its parameters from them. Two sweeps: the
// gathered buffer is overwritten by the second gather after its values were used, so the
// adjoint restores it around the call.
#include <mpi.h>

void calib(double p[6], double x[3], double *cost) {
    int rank, size, i, sweep;
    double mine[2], res[2], all[6];
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    *cost = 0.0;
    for (sweep = 0; sweep < 2; sweep++) {
        MPI_Scatter(p, 2, MPI_DOUBLE, mine, 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        res[0] = 0.0;
        res[1] = 0.0;
        for (i = 0; i < 3; i++) {
            double r = mine[0] * x[i] + mine[1] * x[i] * x[i] - (1.0 + 0.3 * rank) * (i + 1);
            res[0] += r * r;
            res[1] += r * x[i];
        }
        MPI_Gather(res, 2, MPI_DOUBLE, all, 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        if (rank == 0) {
            for (i = 0; i < 2 * size; i++) {
                *cost += 0.5 * all[i] * all[i];
                p[i] = p[i] - 0.01 * all[i] * p[i];
            }
        }
    }
}
