// radtap: -head head -vars "x" -outvars "s"
// sizes: x=2 s=1
// A macro whose expansion is a statement list, used as the body of an unbraced `if`: cpp
// puts only its first statement under the `if` and the second after it, which an expansion
// in place as a block would not do. It writes active data (`*s`): refused, naming the macro
// (in a block, or as a brace block / do-while(0), it is expanded: c_statement_macros.c).
#define ACC(p, v) *(p) += (v); *(p) *= 2.0

void head(double *x, double *s)
{
    *s = x[0];
    if (x[0] > 0.0)
        ACC(s, x[1] * x[1]);
}
