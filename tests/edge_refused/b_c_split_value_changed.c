// radtap: -head "f(out)/(x)"
// sizes: out=1
// The same variable passed by value and through the output pointer (`sq(z, &z)`; a complex
// product accumulated in place, `cmul(z, w, &z)`). In split mode `sq_bwd` was given the
// overwritten `z` (gradient 2x^2 instead of 2x). Refused in split mode; joint mode is right.
static void sq(double a, double *r) { *r = a * a; }

void f(double x, double *out)
{
    double z = x;
    sq(z, &z);
    *out = z;
}
