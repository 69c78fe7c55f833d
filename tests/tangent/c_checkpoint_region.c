// radtap: -head ckp_region -vars "x a" -outvars "y"
// sizes: n=8 x=n y=1
// The directives CHECKPOINT-START/END make regions in C: around the body of a time loop (each step
// checkpointed; the re-run needs the step counter, the state and a coefficient the loop
// overwrites after the region), nested in a branch with a call, and at the top level with
// an input overwritten after it. The dependent is written outside the regions.
#include <math.h>

static void stepf(int n, double *u, double c)
{
    for (int k = 1; k < n; k++)
        u[k] = u[k] + c * sin(u[k - 1]) * u[k];
}

void ckp_region(int n, const double *x, double a, double *y)
{
    double u[8], w[8], c, s, acc;
    int it, k, sub;
    for (k = 0; k < n; k++)
        u[k] = x[k];
    c = a;
    for (it = 0; it < 6; it++) {
        /* $AD CHECKPOINT-START */
        for (k = 0; k < n; k++)
            w[k] = u[k] * u[k];
        s = 0.1 * cos(c);
        for (sub = 0; sub < 10; sub++)
            for (k = 0; k < n; k++)
                u[k] = u[k] + s * w[k] / (1.0 + w[k] * u[k]);
        if (it > 1) {
            // $AD CHECKPOINT-START
            stepf(n, u, s);
            u[0] = u[0] * exp(-0.1 * u[n - 1]);
            // $AD CHECKPOINT-END
        }
        /* $AD CHECKPOINT-END */
        c = c * 0.9 + 0.05 * u[1];
    }
    // $AD CHECKPOINT-START
    acc = 0;
    for (k = 0; k < n; k++)
        acc = acc + u[k] * u[k] * c;
    // $AD CHECKPOINT-END
    c = 0;
    u[0] = 0;
    *y = acc;
}
