// radtap: -head lookup -vars "x" -outvars "y"
// sizes: x=1 y=1
// A value returned from inside a search loop: the adjoint cannot restructure it around one
// result (guards and if/else returns outside loops it can, `il::early_return`). Refused at
// the return in adjoint mode; the tangent takes it.
static const double knots[5] = {0.0, 0.5, 1.0, 1.5, 2.0};

static double interp(double t)
{
    int k;
    for (k = 0; k < 4; k++) {
        if (t < knots[k + 1])
            return (k + 1.0) * t * t - k * knots[k];
    }
    return 5.0 * t;
}

void lookup(const double *x, double *y)
{
    *y = interp(x[0]) + interp(0.5 * x[0]);
}
