// radtap: -head incs -vars "x" -outvars "y"
// sizes: n=6 x=n y=n
// Side effects in subscripts: y[k++] = ..., x[j--], a pre-increment in an index (il::incdec
// makes each increment a statement of its own: refused before).
void incs(int n, const double *x, double *y)
{
    int k = 0, j = n - 1, i;
    for (i = 0; i < n; i++)
        y[i] = 0.0;
    while (k < n)
        y[k++] = x[j--] * 2.0;
    k = 0;
    for (i = 0; i < n - 1; i++)
        y[++k] += x[i] * x[i];
}
