// radtap: -head f -vars "x" -outvars "y"
// sizes: x=2 y=1
// MPI in C: MPI_Gather is not among the MPI routines radtap differentiates (issue 46): with
// active data it is refused at its line in every mode (it was MPI_Allreduce before issue 46,
// taken as a library function: derivatives without the communication).
#include <mpi.h>

void f(double *x, double *y)
{
    double t = x[0] * x[0];
    double s[8];
    MPI_Gather(&t, 1, MPI_DOUBLE, s, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    *y = s[0] * x[1];
}
