// radtap: -head head -vars "x" -outvars "out" -size row=m
// sizes: n=3 m=4 x=n*m out=n
// A row pointer into an argument (`const double *row = X + i * m;`), in split mode
// (-nocheckpoint): f_fwd set `rowb = Xb + i * m` with no `Xb` (the output did not compile).
static void rowsum(const double *X, double *out, int n, int m)
{
    for (int i = 0; i < n; i++) {
        const double *row = X + i * m;
        double acc = 0.0;
        for (int j = 0; j < m; j++)
            acc += row[j] * row[j];
        out[i] = acc;
    }
}

void head(const double *x, double *out, int n, int m)
{
    rowsum(x, out, n, m);
}
