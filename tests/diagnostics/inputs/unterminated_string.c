#include <stdio.h>
int main(void)
{
    printf("this string never ends\n);
    return 0;
}
