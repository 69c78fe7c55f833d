// radtap: -head loops -vars "x" -outvars "r"
// for loop with continue/break, a while loop, and a switch with fallthrough.
// break/continue edges merge at the loop exit/head, so s is varied after the
// for loop; the tests x[i] < 0, t > 1 are diff-live control. Case 1 falls
// through into case 2 (t = t*t then t = t + s; t is TBR at t = t*t); case 3
// sets t from a constant, killing its variedness on that path only.
void loops(const double *x, int n, int mode, double *r)
{
    int i;
    double s = 0.0;
    double t;
    for (i = 0; i < n; i++) {
        if (x[i] < 0.0)
            continue;
        if (x[i] > 100.0)
            break;
        s += x[i] * x[i];
    }
    t = s;
    i = 0;
    while (t > 1.0 && i < 50) {
        t = 0.5 * t;
        i++;
    }
    switch (mode) {
    case 1:
        t = t * t;
        /* fall through */
    case 2:
        t = t + s;
        break;
    case 3:
        t = 4.0;
        break;
    default:
        break;
    }
    *r = t;
}
