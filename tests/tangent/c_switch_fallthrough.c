// radtap: -head sw -vars "x" -outvars "y"
// sizes: mode=2 n=6 x=n
// switch with fall-through: in the loop on i % 4 (every case reached, case 1
// falls into case 2), then on the int argument mode (case 2 falls into 3;
// cases 0 and 1 share a body).
#include <math.h>

void sw(int mode, int n, const double *x, double y[2])
{
    int i;
    y[0] = 1.0;
    y[1] = 0.5;
    for (i = 0; i < n; i++) {
        switch (i % 4) {
        case 0:
            y[0] = y[0] + x[i] * x[i];
            break;
        case 1:
            y[1] = y[1] * x[i];
            /* fall through */
        case 2:
            y[0] = y[0] + sin(x[i]) * y[1];
            break;
        default:
            y[1] = y[1] + 0.5 * x[i];
        }
    }
    switch (mode) {
    case 0:
    case 1:
        y[0] = -y[0];
        break;
    case 2:
        y[1] = y[1] * y[0];
        /* fall through */
    case 3:
        y[0] = y[0] + 0.5 * y[1];
        break;
    default:
        y[0] = 2.0 * y[0];
    }
}
