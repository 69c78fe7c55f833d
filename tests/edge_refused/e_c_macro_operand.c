// radtap: -head mean_sq -vars "x" -outvars "mean_sq"
// sizes: x=8
// A constant macro whose body is no single operand (`NPTS+1`) used as one (`s / NP1`): cpp
// makes it `s / NPTS + 1`, which the derivative code (`sd / NP1`, pasted again) did not
// reproduce: the derivative was off by 1 in every direction. Refused at the use.
#define NPTS 8
#define NP1 NPTS+1

double mean_sq(const double *x)
{
    double s = 0.0;
    int i;
    for (i = 0; i < NPTS; i++)
        s += x[i] * x[i];
    return s / NP1;
}
