#include <complex.h>
int main(void)
{
    double complex z = 1.0 + 2.0 * I;
    return (int)creal(z);
}
