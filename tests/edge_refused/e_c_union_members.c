// radtap: -head "head_(y)/(x)"
// sizes: x=2 y=1
// A union whose members share storage (f2c's COMMON block with other member names in
// another routine). It was differentiated as a struct: the derivative of `p[0]` was not
// the derivative of `a` (tangent 4.58 instead of 9.16). Refused.
union {
    double a;
    double p[1];
} u;

static void set_(double *x) { u.a = *x * *x; }

void head_(double *x, double *y)
{
    set_(x);
    *y = u.p[0] * x[1] + u.a;
}
