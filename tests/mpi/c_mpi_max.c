// radtap: -head "peak(cost)/(x)"
// sizes: cost=1
// The largest value of each of three quantities over the ranks (MPI_Allreduce with
// MPI_MAX): its derivative comes from, and its adjoint goes to, the rank holding it.
#include <mpi.h>

void peak(double x[3], double *cost) {
    int rank, i;
    double a[3], m[3];
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (i = 0; i < 3; i++)
        a[i] = x[i] * x[i] * (1.0 + 0.25 * ((rank + i) % 3)) + 0.1 * rank * x[(i + 1) % 3];
    MPI_Allreduce(a, m, 3, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    *cost = m[0] * m[1] + m[2] * x[0];
}
