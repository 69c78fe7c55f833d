// radtap: -head "cube(y)/(x)"
// sizes: x=4 y=4
// The countdown idiom `for (i = n; i-- > 0;)`: the condition changes the counter the loop
// body indexes with. The adjoint records what statements overwrite, not what a test does,
// and its backward sweep ran every iteration with i = -1 (out of bounds). Refused in
// adjoint mode; a counter only the test reads (`while (k++ < n)`) is accepted.
void cube(const double *x, double *y)
{
    int i;
    for (i = 4; i-- > 0;) {
        double z = x[i] * x[i];
        y[i] = z * x[i];
    }
}
