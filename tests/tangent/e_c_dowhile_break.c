// radtap: -head dwb -vars "x" -outvars "y"
// sizes: n=5 x=n
// do/while with an integer exit condition, a break taken inside it, and a
// while(1) loop left by break.
void dwb(int n, const double *x, double *y)
{
    int i = 0;
    double s = 1.0;
    do {
        s = s * x[i] + 0.1;
        i++;
        if (i == 3)
            break;
    } while (i < n);
    i = 0;
    while (1) {
        s = s + x[i] * x[n - 1 - i];
        i++;
        if (i >= n)
            break;
    }
    *y = s;
}
