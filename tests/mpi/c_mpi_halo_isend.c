// radtap: -head "relax(cost u)/(u c)"
// sizes: cost=1
// The diffusion step of c_mpi_diffusion.c with non-blocking halo exchange: MPI_Irecv and
// MPI_Isend of both halos, MPI_Waitall on the four requests, then the update; the cost is
// summed over the ranks by MPI_Allreduce.
#include <mpi.h>

void relax(double u[7], double c, double *cost) {
    int rank, size, left, right, i, it;
    double v[7];
    double local;
    MPI_Request req[4];
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    left = (rank + size - 1) % size;
    right = (rank + 1) % size;
    for (it = 0; it < 2; it++) {
        MPI_Irecv(&u[0], 1, MPI_DOUBLE, left, 3, MPI_COMM_WORLD, &req[0]);
        MPI_Irecv(&u[6], 1, MPI_DOUBLE, right, 4, MPI_COMM_WORLD, &req[1]);
        MPI_Isend(&u[5], 1, MPI_DOUBLE, right, 3, MPI_COMM_WORLD, &req[2]);
        MPI_Isend(&u[1], 1, MPI_DOUBLE, left, 4, MPI_COMM_WORLD, &req[3]);
        MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
        for (i = 1; i <= 5; i++)
            v[i] = u[i] + c * (u[i - 1] - 2.0 * u[i] + u[i + 1]) * (1.0 + 0.2 * rank);
        for (i = 1; i <= 5; i++)
            u[i] = v[i] * v[i] * 0.5 + u[i] * 0.5;
    }
    local = 0.0;
    for (i = 1; i <= 5; i++)
        local = local + u[i] * u[i];
    MPI_Allreduce(&local, cost, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}
