// radtap: -head spm -vars "p x" -outvars "e"
// sizes:
// An independent struct whose member `cut` only decides a branch: the derivative struct has
// `a` alone, and the drivers (validate's too: it filled `pd.cut`, which did not compile)
// set and read only the members it has.
typedef struct {
    double a;
    double cut;
} Spm;

void spm(const Spm *p, double *x, double *e)
{
    *e = 0.0;
    if (*x < p->cut)
        *e = p->a * *x * *x;
    else
        *e = p->a + *x;
}
