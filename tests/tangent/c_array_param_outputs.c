// radtap: -head "smooth(y)/(x)"
// sizes: x=4 y=1
// A C array parameter (`double work[4]`, `double grid[2][3]`) written as a work area and
// read back, neither a dependent nor an independent: its adjoint on entry is no input and
// its tangent on entry is no input either (DESIGN.md). The adjoint kept whatever the caller
// passed in `workb` (only pointers were cleared), and the tangent read `workd` as given.
#include <math.h>

void smooth(double work[4], double grid[2][3], double *x, double *y)
{
    int i, j;
    for (i = 0; i < 4; i++)
        work[i] += x[i] * x[i];
    for (i = 0; i < 2; i++)
        for (j = 0; j < 3; j++)
            grid[i][j] = work[i + j] * x[j];
    y[0] = 0.0;
    for (i = 0; i < 4; i++)
        y[0] += sin(work[i]);
    for (i = 0; i < 2; i++)
        for (j = 0; j < 3; j++)
            y[0] += grid[i][j] * grid[1 - i][2 - j];
}
