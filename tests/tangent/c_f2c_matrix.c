// radtap: -head "matvec(y)/(a x)" -size x=n -size y=n
// sizes: n=3 a=9 x=n y=n
// An f2c-translated matrix-vector product (`a -= a_offset; --x; --y;` for 1-based
// indexing, every argument a pointer), called from a C wrapper. The integer offset only
// moves a pointer: `a -= a_offset` was read as reading nothing, `a_offset = 1 + a_dim1`
// was deleted as dead, and the shifted pointers used an uninitialised offset (tangent
// 2.47 instead of 4.31).
typedef double doublereal;
typedef long int integer;

static void mv_(doublereal *a, integer *lda, integer *n, doublereal *x, doublereal *y)
{
    integer a_dim1, a_offset, i__1, i__2;
    integer i__, j;

    /* Parameter adjustments */
    a_dim1 = *lda;
    a_offset = 1 + a_dim1;
    a -= a_offset;
    --x;
    --y;

    /* Function Body */
    i__1 = *n;
    for (i__ = 1; i__ <= i__1; ++i__) {
        y[i__] = 0.;
        i__2 = *n;
        for (j = 1; j <= i__2; ++j) {
            y[i__] += a[i__ + j * a_dim1] * x[j] * x[i__];
        }
    }
}

void matvec(int n, double *a, double *x, double *y)
{
    integer lda = n, m = n;
    mv_(a, &lda, &m, x, y);
}
