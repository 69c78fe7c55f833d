// radtap: -head f -vars "x" -outvars "y"
// sizes: x=2 y=1
// MPI in C: `<mpi.h>` is not read, and MPI_Allreduce was taken as a library function
// producing a new value in `s` (derivatives without the communication: wrong tangents, a
// crashing adjoint, AD060 warnings only). Refused in every mode until MPI is differentiated.
#include <mpi.h>

void f(double *x, double *y)
{
    double t = x[0] * x[0];
    double s;
    MPI_Allreduce(&t, &s, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    *y = s * x[1];
}
