// radtap: -head lookup -vars "x" -outvars "y"
// sizes: x=1 y=1
// A value returned from inside a nested loop: a `break` would leave the inner loop only, so
// the adjoint cannot restructure it around one result (a return in one loop it can,
// c_return_in_loop.c, `il::early_return`). Refused at the return in adjoint mode; the
// tangent takes it.
static const double knots[5] = {0.0, 0.5, 1.0, 1.5, 2.0};

static double interp(double t)
{
    int k, j;
    for (j = 0; j < 2; j++) {
        for (k = 0; k < 4; k++) {
            if (t < knots[k + 1] + j)
                return (k + 1.0) * t * t - k * knots[k];
        }
    }
    return 5.0 * t;
}

void lookup(const double *x, double *y)
{
    *y = interp(x[0]) + interp(0.5 * x[0]);
}
