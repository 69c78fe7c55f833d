// radtap: -head relax -vars "y" -outvars "y"
// sizes: y=4
// Addresses of active memory stored where the analyses do not follow them: a record member
// (set in the head and in a helper with no derivative of its own), an array of pointers, a
// brace initialiser. A write through the stored copy in a callee was seen as a write of the
// record, not of `y`: the tangent left `y` alone and `validate` failed. Refused at each store.
#include <stddef.h>

typedef struct {
    double *p;
    int n;
} view_t;

static const double c = 0.5;

static void damp(double *v, int n)
{
    int i;
    for (i = 1; i < n; i++)
        v[i] = v[i] - c * v[i - 1] * v[i];
}

static void step(view_t *w)
{
    damp(w->p, w->n);
}

static void bind(view_t *w, double *p, int n)
{
    w->p = p;
    w->n = n;
}

void relax(double *y)
{
    view_t w, h;
    double *rows[2];
    w.p = y;
    w.n = 2;
    step(&w);
    bind(&h, y + 2, 2);
    step(&h);
    rows[0] = y;
    rows[1] = y + 2;
    damp(rows[1], 2);
    {
        view_t v = {y + 1, 2};
        step(&v);
    }
}
