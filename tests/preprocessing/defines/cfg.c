#include <math.h>
#ifdef SQUARED
#define POW2(a) ((a) * (a))
#else
#define POW2(a) (a)
#endif
LIBAPI double scaled(double x, double y)
{
    return SCALE * POW2(x) * sin(y);
}
