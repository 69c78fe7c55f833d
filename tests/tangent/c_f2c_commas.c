// radtap: -head "scaled_norms(r)/(x)"
// sizes: n=5 x=n r=2
// f2c output keeps Fortran's MAX, MIN and ABS of expressions as comma expressions:
// `d__2 = dmax__, d__3 = (d__1 = x[i__], abs(d__1));` then `dmax__ = max(d__2,d__3);`, and
// f2c's static locals. A comma expression was refused wherever it appeared; a comma
// evaluated with its statement now runs as statements before it (`il::comma`), in
// statements, assignments, call arguments and returns.
#include <math.h>

typedef double doublereal;
typedef int integer;

#define abs(x) ((x) >= 0 ? (x) : -(x))
#define min(a,b) ((a) <= (b) ? (a) : (b))
#define max(a,b) ((a) >= (b) ? (a) : (b))

static doublereal dmaxnrm_(integer *n, doublereal *x)
{
    integer i__1;
    doublereal ret_val, d__1, d__2, d__3;
    static integer i__;
    static doublereal dmax__, s;

    --x;
    dmax__ = 0.;
    s = 0.;
    i__1 = *n;
    for (i__ = 1; i__ <= i__1; ++i__) {
/* Computing MAX */
        d__2 = dmax__, d__3 = (d__1 = x[i__], abs(d__1));
        dmax__ = max(d__2,d__3);
/* Computing 2nd power */
        d__1 = x[i__];
        s += d__1 * d__1;
    }
    ret_val = sqrt(s) + dmax__;
    return ret_val;
}

static void dscal2_(integer *n, doublereal *x, doublereal *lo)
{
    integer i__1;
    doublereal d__1, d__2;
    integer i__;

    --x;
    i__1 = *n;
    for (i__ = 1; i__ <= i__1; ++i__) {
/* Computing MIN */
        d__1 = *lo, d__2 = x[i__] * x[i__];
        *lo = min(d__1,d__2);
    }
}

static doublereal dsoft_(doublereal *a, doublereal *b)
{
    doublereal d__1;
    return (d__1 = *a - *b, abs(d__1)) * 0.5 + *b;
}

void scaled_norms(int n, double *x, double *r)
{
    integer nn = n, k = 0;
    doublereal lo = 1e30, d__1, d__2, d__3, half = 0.5, hi = 0.;
    /* A labelled comma statement jumped to (its label stays on the first statement). */
L10:
    d__2 = hi, d__3 = (d__1 = x[k] - 1., abs(d__1));
    hi = d__2 + d__3 * d__3;
    ++k;
    if (k < nn)
        goto L10;
    r[0] = dmaxnrm_(&nn, x) + hi;
    dscal2_(&nn, x, &lo);
    d__1 = lo;
    r[1] = dsoft_((d__1 = d__1 + x[0], &d__1), &half) + lo;
}
