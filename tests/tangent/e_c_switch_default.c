// radtap: -head swd -vars "x" -outvars "y"
// sizes: n=7 x=n
// switch on i % 3 where case 2 falls into default, default placed first in a
// second switch, and a case with a nested if.
void swd(int n, const double *x, double *y)
{
    int i;
    double a = 1.0, b = 0.5;
    for (i = 0; i < n; i++) {
        switch (i % 3) {
        case 0:
            a = a * x[i];
            break;
        case 2:
            b = b + x[i];
            /* fall through */
        default:
            a = a + 0.5 * x[i] * b;
        }
        switch (i) {
        default:
            b = b * 0.9;
            break;
        case 1:
            if (x[i] > 0.0)
                b = b + x[i] * x[i];
            break;
        }
    }
    *y = a + b;
}
