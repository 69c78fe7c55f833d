// radtap: -head mwork -vars "x" -outvars "y"
// sizes: n=6 x=n y=1
// A work array allocated with malloc inside the differentiated code, filled
// from the inputs, read back nonlinearly, then freed.
#include <math.h>
#include <stdlib.h>

void mwork(int n, const double *x, double *y)
{
    double *w = (double *)malloc(n * sizeof(double));
    int i;
    for (i = 0; i < n; i++)
        w[i] = sin(x[i]) * x[i];
    *y = 0.0;
    for (i = 0; i < n; i++)
        *y += w[i] * w[i] * x[i];
    free(w);
}
