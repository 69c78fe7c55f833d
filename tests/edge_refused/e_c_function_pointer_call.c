// radtap: -head "head_(r)/(a)"
// sizes:
// The objective passed to a solver as a function pointer (f2c's `D_fp f; (*f)(&c)`, the
// QUADPACK/MINPACK way). The call was taken for a passive call reading nothing: its
// argument's assignment was deleted and no derivative went through it (tangent 0 instead
// of 31.16, no message). Refused at the call.
typedef double (*D_fp)();
double fun_(double *t) { return *t * *t; }
void q_(D_fp f, double *a, double *r)
{
    double c, fc;
    c = *a * 3.0;
    fc = (*f)(&c);
    *r = fc * *a;
}
void head_(double *a, double *r) { q_((D_fp)fun_, a, r); }
