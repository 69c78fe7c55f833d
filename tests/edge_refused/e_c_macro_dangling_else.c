// radtap: -head f -vars "x" -outvars "y"
// sizes: x=2 y=1
// A statement macro whose body is an `if` without `else`, used as the then-branch of an
// `if … else`: cpp gives the `else` to the macro's `if` (the dangling else), which expanding
// it in place would not do. It writes active data: refused, naming the macro.
#define ADD_POS(acc, v) if ((v) > 0.0) (acc) += (v) * (v)

void f(double *x, double *y)
{
    double s = 0.0;
    if (x[1] > 0.0)
        ADD_POS(s, x[0]);
    else
        s = 5.0 * x[1];
    *y = s;
}
