/* Pointer arithmetic: walking arrays, pointer differences, pointers to pointers. */
#include <stdio.h>

static double data[12] = {3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0, 5.0, 3.0, 5.0, 8.0};

double sum_range(const double *begin, const double *end)
{
    double s = 0.0;
    while (begin != end)
        s += *begin++;
    return s;
}

const double *find_first(const double *p, int n, double v)
{
    const double *q;
    for (q = p; q < p + n; ++q)
        if (*q == v)
            return q;
    return NULL;
}

void bump_all(double **pp, int n)
{
    int i;
    for (i = 0; i < n; i++)
        *(*pp + i) += 0.5;
    *pp += n;
}

int main(void)
{
    double *p = data;
    double *mid = data + 6;
    const double *hit;
    int idx;

    printf("first half: %.1f\n", sum_range(data, mid));
    printf("second half: %.1f\n", sum_range(mid, data + 12));
    printf("distance: %ld\n", (long)(mid - p));

    hit = find_first(data, 12, 9.0);
    if (hit != NULL) {
        idx = (int)(hit - data);
        printf("found 9 at %d\n", idx);
    }
    hit = find_first(data, 12, 7.0);
    printf("found 7: %s\n", hit ? "yes" : "no");

    bump_all(&p, 4);
    printf("after bump: %.1f %.1f %.1f %.1f\n", data[0], data[1], data[2], data[3]);
    printf("p now at index %ld value %.1f\n", (long)(p - data), *p);

    printf("p[2]=%.1f *(p+3)=%.1f 2[p]=%.1f\n", p[2], *(p + 3), 2[p]);
    p--;
    --p;
    printf("p[-1]=%.1f\n", p[-1]);
    {
        char text[] = "pointer";
        char *c = text;
        int len = 0;
        while (*c++)
            len++;
        printf("len=%d last=%c\n", len, text[len - 1]);
    }
    return 0;
}
