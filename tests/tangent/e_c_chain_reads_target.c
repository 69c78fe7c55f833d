// radtap: -head chain -vars "x" -outvars "y" -size x=2 -size y=1
// sizes: x=2 y=1
// A chained assignment whose value reads one of its targets, `a = b = a * b` (hunt 13): the
// tangent wrote `bd = ad*b + a*bd; ad = ad*b + a*bd;`, the second line reading the new `bd`
// (1.40175 instead of 1.2854); now `ad = bd`. The adjoint refuses it (ADJOINT_UNSUPPORTED).
void chain(const double *x, double *y)
{
    double a = x[0], b = x[1];
    a = b = a * b;
    y[0] = a + b * x[0];
}
