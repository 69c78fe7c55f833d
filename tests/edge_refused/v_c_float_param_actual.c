// radtap: -head mixed -vars "x c" -outvars "y" -size x=2 -size y=2
/* Helpers taking `float` parameters called with `double` values (hunt 13): `q(x[0])` with
   `float q(float t)`, and `g(u, (float)c)` with `void g(float *u, float c)`. The adjoint
   passed the `double` adjoint's address (`&xb[0]`, or a `double argb`) for the helper's
   `float *tb`: a float written into half of a double (dot-product test 0.43 and 0.73 off;
   gcc 14 rejects it). It goes through a temporary of the parameter's type now (the numbers:
   `tests/validate.rs`, single precision being beyond the corpus suites' tolerances); vector
   mode refuses the call, tested here. */
static float q(float t)
{
    return t * t + 0.5f * t;
}

static void g(float *u, float c)
{
    u[0] = u[0] * c;
}

void mixed(const double *x, double c, double *y)
{
    float u[1];
    u[0] = (float)x[1];
    g(u, (float)c);
    y[0] = q(x[0]) * x[1];
    y[1] = u[0] + x[0] * c;
}
