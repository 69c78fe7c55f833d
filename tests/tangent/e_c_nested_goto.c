// radtap: -head ngo -vars "x" -outvars "y"
// sizes: n=5 x=n
// break and continue in nested loops, and a goto out of two loops.
void ngo(int n, const double *x, double *y)
{
    int i, j;
    double s = 1.0;
    for (i = 0; i < n; i++) {
        for (j = 0; j < n; j++) {
            if (j > i)
                break;
            if (j == 1)
                continue;
            s = s * 0.9 + x[i] * x[j];
        }
    }
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) {
            if (i * n + j == 7)
                goto done;
            s = s + 0.1 * x[j] * x[i];
        }
done:
    *y = s + x[i] * (double)j;
}
