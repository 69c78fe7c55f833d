// radtap: -head bri -vars "x" -outvars "y"
// sizes: y=1
// local arrays brace-initialised: with active values (tangent only, the
// adjoint refuses it), with constants only, and with fewer items than
// elements (the rest zero).
void bri(double x, double *y)
{
    double v[3] = {x, 1.0, x * x};
    double w[4] = {0.5};
    w[2] = v[0] * w[0];
    *y = v[1] + v[2] * w[2] + w[3] + w[1];
}
