// radtap: -head "f(y)/(x)"
// sizes: x=4 y=1
// Two pointers into one array whose ranges overlap: smooth(3, &a[0], &a[1]) reads in[0..3)
// and writes out[0..3), a[1..4): each element the callee writes is also one it reads through
// the other pointer. The adjoint would update one through the other: refused at the call
// (constant subscripts are distinct elements only for what the callee reaches one of).
static void smooth(int n, const double *in, double *out)
{
    int i;
    for (i = 0; i < n; i++)
        out[i] = 0.5 * in[i] * in[i] + out[i];
}

void f(const double *x, double *y)
{
    double a[4];
    int i;
    for (i = 0; i < 4; i++)
        a[i] = x[i];
    smooth(3, &a[0], &a[1]);
    *y = a[0] + a[1] * a[2] + a[3];
}
