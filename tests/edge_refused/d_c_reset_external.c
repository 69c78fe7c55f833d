// radtap: -head g -vars "x" -outvars "out"
// A routine with no source (`zero_out`, declared only) clearing an array before a loop that
// accumulates into it: copied as primal code, yd kept the caller's values and the tangent
// read them. Refused in tangent mode until such routines can be described (issue 42).
void zero_out(double *y, int n);

void g(int n, const double *x, double *y, double *out)
{
    int i;
    zero_out(y, n);
    for (i = 0; i < n; i++)
        y[i] += x[i] * x[i];
    out[0] = y[0] * y[n - 1];
}
