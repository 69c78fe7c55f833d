// radtap: -head "diffuse(cost u)/(u k)"
// sizes: cost=1
// 1-D explicit diffusion on a periodic domain split over the ranks: 6 cells per rank with one
// halo cell at each end, halos exchanged by MPI_Sendrecv, a cost summed over the ranks by
// MPI_Allreduce.
#include <mpi.h>

void diffuse(double u[8], double k, double *cost) {
    int rank, size, left, right, i, step;
    double v[8];
    double local;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    left = (rank + size - 1) % size;
    right = (rank + 1) % size;
    for (step = 0; step < 3; step++) {
        MPI_Sendrecv(&u[6], 1, MPI_DOUBLE, right, 0, &u[0], 1, MPI_DOUBLE, left, 0,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Sendrecv(&u[1], 1, MPI_DOUBLE, left, 1, &u[7], 1, MPI_DOUBLE, right, 1,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (i = 1; i <= 6; i++)
            v[i] = u[i] + k * (u[i - 1] - 2.0 * u[i] + u[i + 1]) + 0.1 * u[i] * u[i] * k;
        for (i = 1; i <= 6; i++)
            u[i] = v[i];
    }
    local = 0.0;
    for (i = 1; i <= 6; i++)
        local = local + u[i] * u[i] * (1.0 + rank);
    MPI_Allreduce(&local, cost, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}
