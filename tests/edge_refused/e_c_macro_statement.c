// radtap: -head head -vars "x" -outvars "s"
// sizes: x=2 s=1
// A macro whose body is no expression (a `do ... while (0)` block) cannot be expanded at
// its use; it writes active data (`*s`), so differentiating the call as an unknown passive
// one would be wrong: refused, naming the macro.
#define ACC(p, v) do { *(p) += (v); } while (0)

void head(double *x, double *s)
{
    *s = x[0];
    ACC(s, x[1] * x[1]);
}
