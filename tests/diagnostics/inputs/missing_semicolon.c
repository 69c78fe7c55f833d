#include <stdio.h>
int main(void)
{
    int x = 1
    printf("%d\n", x);
    return 0;
}
