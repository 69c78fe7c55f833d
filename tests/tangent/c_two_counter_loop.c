// radtap: -head "fold(y)/(x)"
// sizes: n=7 x=n y=1
// Loops with two counters stepped by a comma expression, as two-pointer code writes them
// (`for (i = 0, j = n - 1; i < j; i++, j--)`): the adjoint refused to record "the value
// this `for` step overwrites". Such a loop is a `while` with the step at the end of its
// body (`il::comma`), which the adjoint reverses.
void fold(int n, const double *x, double *y)
{
    double s = 0.0;
    int i, j, k;
    for (i = 0, j = n - 1; i < j; i++, j--)
        s += x[i] * x[j];
    k = 0;
    for (i = 1; i < n; i++, k += 2) {
        if (x[i] > 1.2)
            break;
        s += 0.1 * (double)k * x[i - 1] * x[i];
    }
    *y = s;
}
