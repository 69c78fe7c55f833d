// radtap: -head "smooth(y)/(x)"
// sizes: x=2 y=2
// A distributed vector, two entries per rank, gathered on every rank (MPI_Allgather) for a
// global matrix-vector product whose rows each rank owns; two nonlinear iterations, the
// gathered vector reused.
#include <mpi.h>

void smooth(double x[2], double y[2]) {
    int rank, size, i, j, it, gi;
    double v[2], full[6], s;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    v[0] = x[0];
    v[1] = x[1];
    for (it = 0; it < 2; it++) {
        MPI_Allgather(v, 2, MPI_DOUBLE, full, 2, MPI_DOUBLE, MPI_COMM_WORLD);
        for (i = 0; i < 2; i++) {
            gi = 2 * rank + i;
            s = 0.0;
            for (j = 0; j < 2 * size; j++)
                s += full[j] / (1.0 + gi + j) + 0.1 * full[j] * full[gi];
            v[i] = s;
        }
    }
    y[0] = v[0] * full[0];
    y[1] = v[1] * v[0];
}
