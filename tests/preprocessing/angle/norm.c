#include <math.h>
#include <vec.h>
scal norm2(int n, const scal *v)
{
    scal s = 0;
    int i;
    for (i = 0; i < n; i++) s += v[i] * v[i];
    return sqrt(s);
}
