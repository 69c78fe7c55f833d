// radtap: -head nested_jumps -vars "x" -outvars "y"
// sizes: n=5 x=n y=3
// Jumps out of nested C for loops: a goto out of the inner loop to the end of
// the outer body, a goto out of both (taken), a break out of the inner loop and
// a continue of the inner one; the loop variables are used after the loops and
// as indices in the backward sweep.
void nested_jumps(int n, const double *x, double *y)
{
    int i, j, k;
    double s = 1.0, t = 0.5;
    for (i = 0; i < n; i++) {
        for (j = 0; j < n; j++) {
            if (j > i)
                goto next;
            t = t * x[j] * 0.5 + x[i];
        }
    next:;
    }
    for (i = 0; i < n; i++) {
        for (j = 0; j < n; j++) {
            if (i * j > n)
                goto done;
            s = s * x[j] * 0.5 + x[i];
        }
    }
done:
    for (k = 0; k <= i + j; k++)
        s = s + 0.1 * x[k % n] * s;
    y[0] = s;
    for (i = 0; i < n; i++) {
        for (j = 0; j < n; j++) {
            if (j > i)
                break;
            if (j == 1)
                continue;
            t = t * x[j] * 0.6 + x[i];
        }
        t = t + 0.2 * x[j % n] * t;
    }
    y[1] = t;
    y[2] = s * t;
}
