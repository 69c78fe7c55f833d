// radtap: -head ii_nb -vars "x c" -outvars "y"
// sizes: n=12 x=n y=1
// The directive II-LOOP in C where the element snapshot does not apply: iteration i writes
// x[i-1] too, and x[i] goes to a callee by address. The snapshot keeps all of *x (memory,
// never correctness): the adjoint stays right.
#include <math.h>

static void nb_inner(double *v, double c)
{
    *v = *v * cos(c * *v) + 0.5 * c * *v * *v;
}

void ii_nb(int n, double *x, double c, double *y)
{
    int i;
    /* $AD II-LOOP */
    for (i = 1; i < n; i++) {
        x[i] = x[i] + 0.3 * sin(x[i - 1]) * c;
        x[i - 1] = x[i - 1] * cos(0.2 * x[i]);
        nb_inner(&x[i], c);
    }
    *y = 0.0;
    for (i = 0; i < n; i++)
        *y = *y + x[i] * x[i];
}
