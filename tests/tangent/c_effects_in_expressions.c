// radtap: -head "objective(objective)/(x)"
// sizes: n=4 x=n grad=n
/* Calls with effects inside expressions, in the shapes of NLopt's test functions and of
   cephes (issue 44 item 7): a status helper counting the calls in a global and printing
   when asked, whose value is returned (`#define RETURN(f) return status(n, x, f);`); an
   error flag set by a helper of a function referenced inside an expression (cephes'
   `merror`), in a loop; a function advancing an integer through a pointer, whose old value
   the adjoint of an earlier statement reads; a counted value the adjoint needs
   (`sin(status(…))`: its cosine); effects nested in one expression; an assignment inside an
   expression (NLopt's paviani, `f -= (prod = pow(prod, 0.2))`). The adjoint runs each
   effect once, in the forward sweep. */
#include <math.h>
#include <stdio.h>

int evals = 0;
int verbose = 0;
int merr = 0;

static double sqr(double x)
{
    return x * x;
}

static double status(unsigned n, const double *x, double f)
{
    ++evals;
    if (verbose) {
        unsigned i;
        printf("f_%d (%g", evals, x[0]);
        for (i = 1; i < n; ++i)
            printf(", %g", x[i]);
        printf(") = %g\n", f);
    }
    return f;
}

#define RETURN(f) return status(n, x, f);

static int mtherr(int code)
{
    merr = code;
    return 0;
}

/* erfc-like: the error flag on underflow, else a smooth tail. */
static double tail(double a)
{
    double z = -a * a;
    if (z < -700.0) {
        mtherr(4);
        return 0.0;
    }
    return exp(z) / (1.0 + a);
}

static double erf_like(double x)
{
    return 1.0 - tail(fabs(x));
}

/* Advances a counter through a pointer. */
static double step(double t, int *k)
{
    *k = *k + 1;
    return t * t;
}

double objective(unsigned n, const double *x, double *grad)
{
    unsigned i;
    int k = 1;
    double f, prod = 1;
    double w = x[0] * k;
    double s = step(x[1], &k);
    f = w * s * k;
    for (i = 0; i < n; ++i) {
        f += sqr(x[i] - 0.5) * erf_like(x[i]);
        prod *= 1.5 + sin(x[i]);
    }
    f -= (prod = pow(prod, 0.2));
    f += sin(status(n, x, prod * x[2]));
    f += status(n, x, 2.0 * erf_like(x[3] * x[1]));
    if (grad)
        for (i = 0; i < n; ++i)
            grad[i] = 2 * (x[i] - 0.5);
    RETURN(f * x[0]);
}
