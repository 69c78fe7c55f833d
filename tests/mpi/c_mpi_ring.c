// radtap: -head "pipeline(out)/(x)"
// sizes: out=1
// A pipeline along the ranks with blocking MPI_Send / MPI_Recv: rank 0 starts from its
// inputs, each next rank receives the running state, updates it with its own inputs and
// passes it on; the last rank keeps the result.
#include <math.h>
#include <mpi.h>

void pipeline(double x[3], double *out) {
    int rank, size, i;
    double s[2];
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0) {
        s[0] = x[0];
        s[1] = x[1] * x[2];
    } else {
        MPI_Recv(s, 2, MPI_DOUBLE, rank - 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    for (i = 0; i < 3; i++) {
        s[0] = s[0] + sin(s[1]) * x[i] * (1.0 + rank);
        s[1] = s[1] * 0.9 + s[0] * x[i];
    }
    if (rank < size - 1) {
        MPI_Send(s, 2, MPI_DOUBLE, rank + 1, 7, MPI_COMM_WORLD);
        *out = 0.0;
    } else {
        *out = s[0] * s[1];
    }
}
