// radtap: -head cptr -vars "x" -outvars "y"
// sizes: n=4 x=n y=n
// compound assignments through pointers: *p += / -= / *= / /= on a scalar
// output and on elements reached through a walking pointer.
void cptr(int n, const double *x, double *y)
{
    double *p = y;
    int i;
    for (i = 0; i < n; i++)
        y[i] = 1.0;
    for (i = 0; i < n; i++) {
        *p += x[i] * x[i];
        *p *= x[0];
        *p -= 0.5 * x[i];
        *p /= (1.0 + x[i]);
        p++;
    }
    y[0] += y[n - 1] * 0.25;
}
