/* sizeof(type), sizeof expr, casts between integer and floating types, %lu. */
#include <stdio.h>
#include <stdlib.h>

struct pair {
    int a;
    int b;
};

int main(void)
{
    double arr[12];
    struct pair pr[3];
    int i = 7;
    double d = 3.99;
    double neg = -3.99;
    unsigned long total;
    char buf[32];
    int *ip = malloc(sizeof *ip * 4);
    unsigned char uc;
    short s;

    printf("sizeof(char) = %lu\n", (unsigned long)sizeof(char));
    printf("sizeof(int) = %lu\n", (unsigned long)sizeof(int));
    printf("sizeof(double) = %lu\n", (unsigned long)sizeof(double));
    printf("sizeof(float) = %lu\n", (unsigned long)sizeof(float));
    printf("sizeof arr = %lu\n", (unsigned long)sizeof arr);
    printf("elements = %lu\n", (unsigned long)(sizeof arr / sizeof arr[0]));
    printf("sizeof pr = %lu\n", (unsigned long)(sizeof pr / sizeof(struct pair)));
    printf("sizeof buf = %lu\n", (unsigned long)sizeof buf);
    printf("sizeof(d + i) = %lu\n", (unsigned long)sizeof(d + i));
    printf("sizeof i + 1 = %lu\n", (unsigned long)(sizeof i + 1));
    printf("sizeof(int[5]) = %lu\n", (unsigned long)sizeof(int[5]));
    printf("sizeof(double *) == sizeof ip: %d\n", sizeof(double *) == sizeof ip);

    total = 0;
    total += sizeof(short) + sizeof(long);
    printf("short+long = %lu\n", total);

    printf("(int)d = %d, (int)neg = %d\n", (int)d, (int)neg);
    printf("(double)i / 2 = %.2f, (double)(i / 2) = %.2f\n", (double)i / 2, (double)(i / 2));
    printf("(float)1/3 = %.5f\n", (double)((float)1 / 3));
    printf("(long)1e10 = %ld\n", (long)1e10);
    printf("(unsigned)-1 == max: %d\n", (unsigned)-1 == 4294967295u);
    uc = (unsigned char)300;
    s = (short)-2;
    printf("uc = %d, s = %d\n", uc, s);
    printf("(char)('a' + 2) = %c\n", (char)('a' + 2));
    printf("(int)'A' = %d\n", (int)'A');
    printf("(unsigned long)3000000000u = %lu\n", (unsigned long)3000000000u);

    if (ip != NULL) {
        int k;
        for (k = 0; k < 4; k++)
            ip[k] = k * k;
        printf("ip sum = %d\n", ip[0] + ip[1] + ip[2] + ip[3]);
        free((void *)ip);
    }
    return 0;
}
