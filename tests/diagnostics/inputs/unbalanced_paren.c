#include <stdio.h>
int main(void)
{
    double y = (1.0 + (2.0 * 3.0);
    printf("%f\n", y);
    return 0;
}
