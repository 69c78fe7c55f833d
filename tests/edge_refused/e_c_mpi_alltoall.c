// radtap: -head f -vars "x" -outvars "y"
// sizes: x=2 y=1
// MPI in C: MPI_Alltoall is not among the MPI routines radtap differentiates (issue 46): with
// active data it is refused at its line in every mode (MPI_Gather was, until radtap
// differentiated it).
#include <mpi.h>

void f(double *x, double *y)
{
    double t = x[0] * x[0];
    double s[8];
    MPI_Alltoall(&t, 1, MPI_DOUBLE, s, 1, MPI_DOUBLE, MPI_COMM_WORLD);
    *y = s[0] * x[1];
}
