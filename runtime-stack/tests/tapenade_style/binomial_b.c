/*
 * binomial_b.c -- a hand-written adjoint in the style of Tapenade's
 * BINOMIAL-CKP output, calling only ADFirstAidKit's published API (the names,
 * argument conventions and action codes 1..6 of its adStack.h/adBinomial.h).
 * It is linked with radtap's runtime to check that such code runs unchanged
 * and gives the right gradient (tests/tapenade_compat.rs).
 *
 * Primal: a time loop "for (i = 1; i <= nsteps; ++i) x = f(x, i)".
 * The adjoint declares `len` steps to the schedule, as the directive
 * "$AD BINOMIAL-CKP len snaps 1" would: len = nsteps+1 is Tapenade's usual
 * (the last step is the empty exit of the loop), len = nsteps makes the
 * FIRST TURN tape the last iteration, and len > nsteps+1 makes an ADVANCE
 * find the loop finished and call adBinomial_resize().
 */
#include <adStack.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* As Tapenade's adBinomial.h declares them (generated code does not include
 * a header for these). */
extern void adBinomial_init(int length, int nbSnap, int firstStep);
extern int adBinomial_next(int *action, int *step);
extern void adBinomial_resize();

void ts(double *x, int n, int nsteps)
{
    int i, k;
    double t;
    for (i = 1; i <= nsteps; ++i) {
        t = x[0];
        for (k = 0; k < n - 1; ++k) x[k] = x[k] * sin(x[k + 1]) + 0.1 * t;
        if (i % 3 == 0)
            x[n - 1] = x[n - 1] * cos(t);
        else
            x[n - 1] = x[n - 1] + 0.3 * t * t;
    }
}

/* One iteration, taped (forward sweep). */
static void step_fwd(double *x, int n, double *t, int *i)
{
    int k;
    pushReal8(*t);
    *t = x[0];
    for (k = 0; k < n - 1; ++k) {
        pushReal8(x[k]);
        x[k] = x[k] * sin(x[k + 1]) + 0.1 * *t;
    }
    pushReal8(x[n - 1]);
    if (*i % 3 == 0) {
        x[n - 1] = x[n - 1] * cos(*t);
        pushControl1b(1);
    } else {
        x[n - 1] = x[n - 1] + 0.3 * *t * *t;
        pushControl1b(0);
    }
    pushInteger4(*i);
    *i = *i + 1;
}

/* The backward sweep of the iteration taped last. */
static void step_bwd(double *x, double *xb, int n, double *t, int *i)
{
    int k, branch;
    double tb;
    popInteger4(i);
    popControl1b(&branch);
    popReal8(&x[n - 1]);
    if (branch == 1) {
        tb = -(sin(*t) * x[n - 1] * xb[n - 1]);
        xb[n - 1] = cos(*t) * xb[n - 1];
    } else {
        tb = 0.6 * *t * xb[n - 1];
    }
    for (k = n - 2; k > -1; --k) {
        popReal8(&x[k]);
        xb[k + 1] = xb[k + 1] + cos(x[k + 1]) * x[k] * xb[k];
        tb = tb + 0.1 * xb[k];
        xb[k] = sin(x[k + 1]) * xb[k];
    }
    popReal8(t);
    xb[0] = xb[0] + tb;
}

void ts_b(double *x, double *xb, int n, int nsteps, int len, int snaps)
{
    int i, k, i0, adCount = 1, action, step;
    double t = 0.0;
    i = 1;
    adBinomial_init(len, snaps, 1);
    while (adBinomial_next(&action, &step)) {
        switch (action) {
        case 1: /* Push Snapshot */
            pushReal8Array(x, n);
            pushInteger4(i);
            goto next;
        case 2: /* Look Snapshot */
            adStack_startRepeat();
            popInteger4(&i);
            popReal8Array(x, n);
            adStack_resetRepeat();
            adStack_endRepeat();
            goto next;
        case 3: /* Pop Snapshot */
            popInteger4(&i);
            popReal8Array(x, n);
            goto next;
        case 4: /* Advance: one iteration */
            if (i <= nsteps) {
                t = x[0];
                for (k = 0; k < n - 1; ++k) x[k] = x[k] * sin(x[k + 1]) + 0.1 * t;
                if (i % 3 == 0)
                    x[n - 1] = x[n - 1] * cos(t);
                else
                    x[n - 1] = x[n - 1] + 0.3 * t * t;
                i = i + 1;
                goto next;
            } else {
                adBinomial_resize();
                break;
            }
        case 5: /* First Turn: tape the rest of the loop */
            adCount = 1;
            while (i <= nsteps) {
                step_fwd(x, n, &t, &i);
                adCount = adCount + 1;
            }
            goto sweep;
        case 6: /* Turn: one iteration forward and back */
            step_fwd(x, n, &t, &i);
            step_bwd(x, xb, n, &t, &i);
            goto next;
        }
    sweep:
        if (action != 4)
            for (i0 = 1; i0 < adCount + 1; ++i0)
                if (i0 != 1) step_bwd(x, xb, n, &t, &i);
    next:;
    }
}

/* ---- the check: gradient vs central differences, empty stack ---- */

long long adStack_currentBytes(void); /* radtap's statistics, for the check */

static double objective(const double *x0, const double *w, int n, int nsteps)
{
    double x[8], s = 0.0;
    int k;
    for (k = 0; k < n; ++k) x[k] = x0[k];
    ts(x, n, nsteps);
    for (k = 0; k < n; ++k) s += w[k] * x[k];
    return s;
}

int main(void)
{
    enum { N = 4 };
    static const int nsteps_list[] = {1, 2, 5, 11};
    int failures = 0, cases = 0, a, s, d, j;
    double x0[N], w[N];
    for (j = 0; j < N; ++j) {
        x0[j] = 0.5 + 0.23 * (j + 1) - 0.17 * (j % 2);
        w[j] = 1.0 - 0.3 * j;
    }
    for (a = 0; a < 4; ++a)
        for (s = 1; s <= 4; ++s)
            for (d = -1; d <= 4; ++d) {
                int nsteps = nsteps_list[a], len = nsteps + 1 + d;
                double x[N], xb[N];
                if (len < 1) continue;
                for (j = 0; j < N; ++j) {
                    x[j] = x0[j];
                    xb[j] = w[j];
                }
                ts_b(x, xb, N, nsteps, len, s);
                cases++;
                if (adStack_currentBytes() != 0) {
                    printf("FAILED nsteps=%d len=%d snaps=%d: %lld bytes left on the stack\n",
                           nsteps, len, s, adStack_currentBytes());
                    failures++;
                }
                for (j = 0; j < N; ++j) {
                    double h = 1e-6, xp[N], xm[N], fd, err;
                    int k;
                    for (k = 0; k < N; ++k) xp[k] = xm[k] = x0[k];
                    xp[j] += h;
                    xm[j] -= h;
                    fd = (objective(xp, w, N, nsteps) - objective(xm, w, N, nsteps)) / (2 * h);
                    err = fabs(fd - xb[j]) / (1.0 + fabs(fd));
                    if (!(err < 1e-7)) {
                        printf("FAILED nsteps=%d len=%d snaps=%d: d/dx[%d] adjoint %.12g, "
                               "finite differences %.12g\n",
                               nsteps, len, s, j, xb[j], fd);
                        failures++;
                    }
                }
            }
    /* the kit's other public entry points: bits, 4-byte pointer names,
     * diagnostics */
    {
        int bits[] = {1, 0, 0, 1, 1}, b, y = 7, *p = &y, *q = NULL;
        for (b = 0; b < 5; ++b) pushBit(bits[b]);
        pushPointer4(p);
        pushBit(1);
        adStack_showStackSize(1);
        adStack_showStack("after pushes");
        if (popBit() != 1) failures++;
        popPointer4((void **)&q);
        if (q != p) failures++;
        for (b = 4; b >= 0; --b)
            if (popBit() != bits[b]) failures++;
        if (stackIsThreadSafe() != 0) failures++;
        if (adStack_currentBytes() != 0) failures++;
        adStack_showPeakSize();
        adStack_showTotalTraffic();
        printf("\n");
    }
    printf("tapenade-style binomial adjoint: %d cases, %d failures\n", cases, failures);
    return failures ? 1 : 0;
}
