// radtap: -head head -vars "x" -outvars "s"
// sizes: x=3 s=1
// Object-like macros whose expansion reads active data (`XFIRST` is `x[0]`, `SCALE`
// reads `x[1]`, `TWICE` uses `SCALE`) are expanded and differentiated; the constant `HALF`
// stays a name. It was `*sd = xd[2]`: the macros were taken for passive constants.
#define HALF 0.5
#define XFIRST x[0]
#define SCALE (2.0 * x[1])
#define TWICE (HALF * SCALE * SCALE)

void head(double *x, double *s)
{
    *s = XFIRST * SCALE + x[2];
    *s = *s + TWICE * XFIRST;
}
