// radtap: -head "blocks(y)/(x)" -size x=n
// sizes: n=5 x=n y=3
// Issue 47 (vector tangent of records with pointer members, the shape of ADBench's hand
// tracker): a record whose `data` member is allocated by a helper (`mat_new`, an allocator
// radtap recognises, and `mat_resize`, a differentiated helper that frees and reallocates
// the member), rows of the member block passed to a helper over a length known only at run
// time (`axpy(m->ncols, …, m->data + i * m->ncols)`), a pointer walking a member block
// (`const double *row = c->data + k * c->ncols;`). Vector mode keeps one derivative record
// for all directions with the directions innermost (`double (*data)[NBDirsMax]`): the rows
// and the walking pointer are derivative addresses like any other. With one record per
// direction, vector mode refused both (no one derivative pointer could follow them).
#include <stdlib.h>
#include <math.h>

typedef struct {
    int nrows;
    int ncols;
    double *data;
} Mat;

static Mat *mat_new(int nrows, int ncols)
{
    Mat *m = (Mat *)malloc(sizeof(Mat));
    m->nrows = nrows;
    m->ncols = ncols;
    m->data = (double *)malloc(nrows * ncols * sizeof(double));
    return m;
}

static void mat_delete(Mat *m)
{
    free(m->data);
    free(m);
}

static void mat_resize(Mat *m, int nrows, int ncols)
{
    if (m->nrows * m->ncols != nrows * ncols) {
        free(m->data);
        m->data = (double *)malloc(nrows * ncols * sizeof(double));
    }
    m->nrows = nrows;
    m->ncols = ncols;
}

static void axpy(int n, double a, const double *x, double *y)
{
    int i;
    for (i = 0; i < n; i++)
        y[i] += a * x[i];
}

static double row_dot(const Mat *c, int k)
{
    const double *row = c->data + k * c->ncols;
    double s = 0.0;
    int j;
    for (j = 0; j < c->ncols; j++)
        s += row[j] * row[j];
    return s;
}

void blocks(int n, const double *x, double *y)
{
    int i, j;
    Mat *a = mat_new(2, n);
    Mat *c = mat_new(1, 1);
    c->data[0] = x[0];
    mat_resize(c, 3, n);
    for (j = 0; j < n; j++) {
        a->data[j] = sin(x[j]);
        a->data[n + j] = x[j] * x[(j + 1) % n];
    }
    for (i = 0; i < 3; i++) {
        double w = x[i];
        for (j = 0; j < n; j++)
            c->data[i * n + j] = 0.5 * x[j];
        axpy(a->ncols, w, a->data + (i % 2) * a->ncols, c->data + i * c->ncols);
    }
    for (i = 0; i < 3; i++)
        y[i] = row_dot(c, i) + a->data[i] * a->data[n + i];
    mat_delete(c);
    mat_delete(a);
}
