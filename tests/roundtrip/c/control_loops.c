/* for (with declarations and comma expressions), while, do-while, break, continue. */
#include <stdio.h>

#define N 10

static int is_palindrome(const char *s, int n)
{
    int i, j;
    for (i = 0, j = n - 1; i < j; i++, j--)
        if (s[i] != s[j])
            return 0;
    return 1;
}

static int collatz_steps(long n)
{
    int steps = 0;
    while (n != 1) {
        n = (n % 2 == 0) ? n / 2 : 3 * n + 1;
        steps++;
    }
    return steps;
}

static int digit_sum(unsigned v)
{
    int s = 0;
    do {
        s += v % 10;
        v /= 10;
    } while (v > 0);
    return s;
}

int main(void)
{
    double acc = 0.0;
    int count = 0;

    for (int i = 0; i < N; i++) {
        if (i % 3 == 0)
            continue;
        if (i > 8)
            break;
        acc += i * 0.5;
        count++;
    }
    printf("acc=%.2f count=%d\n", acc, count);

    for (int i = 0, j = 10; i < j; i += 2, j -= 1)
        printf("(%d,%d) ", i, j);
    printf("\n");

    printf("level palindrome: %d\n", is_palindrome("level", 5));
    printf("lever palindrome: %d\n", is_palindrome("lever", 5));

    for (long n = 1; n <= 9; n++)
        printf("collatz(%ld)=%d\n", n, collatz_steps(n));

    printf("digit_sum(0)=%d digit_sum(98765)=%d\n", digit_sum(0u), digit_sum(98765u));

    {
        int k = 0;
        for (;;) {
            if (++k >= 5)
                break;
        }
        printf("k=%d\n", k);
    }
    {
        int outer, inner, found = -1;
        for (outer = 1; outer < 20 && found < 0; outer++) {
            inner = 0;
            while (inner < outer) {
                if (outer * inner == 42) {
                    found = outer * 100 + inner;
                    break;
                }
                inner++;
            }
        }
        printf("found=%d\n", found);
    }
    {
        int n = 0;
        do
            n += 3;
        while (n < 10);
        printf("n=%d\n", n);
    }
    {
        int empty = 0;
        while (empty++ < 3)
            ;
        printf("empty=%d\n", empty);
    }
    return 0;
}
