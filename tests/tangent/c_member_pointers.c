// radtap: -head mixture -vars "x" -outvars "y"
// sizes: x=6 y=2
/* Local pointers into array members of records (hunt 12): `const double *mu = p->mu + k * 2;`
   in a helper taking the record by pointer (as in GMM codes), and `double *t = c->t;` walking
   a column's member array. Tangent and adjoint follow the pointers; so does vector mode since
   its derivative record holds every direction innermost (issue 47: with a record per
   direction no one derivative pointer could follow the primal's, and it refused them). */
#include <math.h>

typedef struct {
    double mu[4];
    double w[2];
} Params;

typedef struct {
    double t[3];
    double k;
} Column;

static double comp(const Params *p, int k, const double *z)
{
    const double *mu = p->mu + k * 2;
    double d0 = z[0] - mu[0], d1 = z[1] - mu[1];
    return p->w[k] * exp(-0.5 * (d0 * d0 + d1 * d1));
}

static void relax(Column *c)
{
    double *t = c->t;
    int i;
    for (i = 1; i < 3; i++)
        t[i] = t[i] + c->k * (t[i - 1] - t[i]);
}

void mixture(const double *x, double *y)
{
    Params p;
    Column c;
    int i;
    for (i = 0; i < 4; i++)
        p.mu[i] = 0.25 * i + 0.1 * x[i];
    p.w[0] = x[4];
    p.w[1] = 0.5;
    y[0] = comp(&p, 0, &x[4]) + comp(&p, 1, &x[3]);
    c.t[0] = x[0];
    c.t[1] = x[1] * x[5];
    c.t[2] = 0.3;
    c.k = 0.4 * x[2];
    relax(&c);
    y[1] = c.t[2] + c.t[1] * c.t[0];
}
