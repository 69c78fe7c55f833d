// radtap: -head wloops -vars "x" -outvars "s"
// sizes: n=8 x=n s=1
// while(1) loop left by break, with continue on i % 3 == 1; a do-while on an
// integer counter; a while loop with a real test that never holds.
void wloops(int n, const double *x, double *s)
{
    int i = 0, k = 0;
    double acc = 0.0;
    while (1) {
        if (i >= n)
            break;
        if (i % 3 == 1) {
            i++;
            continue;
        }
        acc += x[i] * x[i];
        i++;
    }
    do {
        acc = acc * 0.5 + x[k] * acc;
        k++;
    } while (k < n / 2);
    while (acc > 1.0e6)
        acc = acc * 0.001;
    *s = acc;
}
