/* goto with labels: error cleanup, loop exits, backward jumps; early returns. */
#include <stdio.h>
#include <stdlib.h>

static int process(int n, int fail_at)
{
    double *a = NULL, *b = NULL;
    int rc = -1;
    int i;

    a = malloc(n * sizeof(double));
    if (!a)
        goto out;
    b = malloc(n * sizeof(double));
    if (!b)
        goto free_a;
    for (i = 0; i < n; i++) {
        if (i == fail_at)
            goto free_b;
        a[i] = i;
        b[i] = a[i] * 2;
    }
    rc = (int)b[n - 1];
free_b:
    free(b);
free_a:
    free(a);
out:
    return rc;
}

static int find_pair(int target)
{
    int i, j;
    for (i = 1; i < 10; i++)
        for (j = 1; j < 10; j++)
            if (i * j == target)
                goto found;
    return -1;
found:
    return i * 10 + j;
}

static int count_down(int n)
{
    int steps = 0;
again:
    if (n <= 0)
        return steps;
    n -= 3;
    steps++;
    goto again;
}

static int first_negative(const int *v, int n)
{
    int i;
    for (i = 0; i < n; i++) {
        if (v[i] < 0)
            return i;
    }
    return -1;
}

int main(void)
{
    int v[6] = {4, 8, 15, -16, 23, -42};
    int i = 0;

    printf("process ok: %d\n", process(5, -1));
    printf("process fail: %d\n", process(5, 2));
    printf("find_pair(42) = %d\n", find_pair(42));
    printf("find_pair(97) = %d\n", find_pair(97));
    printf("count_down(10) = %d\n", count_down(10));
    printf("first_negative = %d\n", first_negative(v, 6));

loop:
    if (i < 3) {
        printf("loop %d\n", i);
        i++;
        goto loop;
    }
    {
        int k = 0;
        goto skip;
        k = 100;
    skip:
        k += 1;
        printf("k = %d\n", k);
    }
    goto end;
end:
    ;
    printf("done\n");
    return 0;
}
