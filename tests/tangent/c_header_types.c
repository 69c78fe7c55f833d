// radtap: -head log_wishart -vars "w x" -outvars "log_wishart"
// sizes: n=5 x=n
// Types from the user's header next to the source (#include "c_header_types.h"):
// a typedef'd anonymous struct passed by pointer with an active field, a struct
// tag and its typedef used for locals, prototypes of the functions (the helper is
// defined after its caller), a macro and an extern global defined here.
#include <math.h>
#include "c_header_types.h"

double wscale = 1.5;

double log_wishart(const Wishart *w, int n, const double *x)
{
    Point p;
    double s = 0.0;
    int i;
    p.x = 0.0;
    p.y = w->gamma;
    for (i = 0; i < n; i++) {
        shift(&p, x[i]);
        s += HALF * p.x * p.x + log(p.y) * w->m;
    }
    return wscale * s + w->gamma * w->gamma;
}

void shift(Point *p, double s)
{
    p->x = p->x + sin(s) * p->y;
    p->y = p->y + 0.1 * s * s;
}
