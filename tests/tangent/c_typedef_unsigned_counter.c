// radtap: -head "chain(y)/(x)"
// sizes: n=4 x=n y=1
// Loop counters of a typedef'd unsigned type (`typedef unsigned int uint;`, as portable C
// libraries declare their index types). The backward loop ran `for (j = n - 1; j >= 0; --j)`,
// always true for an unsigned `j`: the adjoint popped past the bottom of the stack.
#include <math.h>

typedef unsigned int uint;
typedef uint index_t;

void chain(index_t n, const double *x, double *y)
{
    index_t j;
    double s = 1.0;
    for (j = 0; j < n; j++)
        s = sin(s * x[j]) + 0.5 * s;
    y[0] = s;
}
