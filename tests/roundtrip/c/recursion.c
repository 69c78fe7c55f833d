/* Recursion: factorial, fibonacci, ackermann, binary search, towers of hanoi, mutual recursion. */
#include <stdio.h>

static long factorial(int n);
static long fib(int n);
static int is_even(unsigned n);
static int is_odd(unsigned n);

static long factorial(int n)
{
    return n <= 1 ? 1L : n * factorial(n - 1);
}

static long fib(int n)
{
    if (n < 2)
        return n;
    return fib(n - 1) + fib(n - 2);
}

static int ackermann(int m, int n)
{
    if (m == 0)
        return n + 1;
    if (n == 0)
        return ackermann(m - 1, 1);
    return ackermann(m - 1, ackermann(m, n - 1));
}

static int bsearch_rec(const double *a, int lo, int hi, double key)
{
    int mid;
    if (lo > hi)
        return -1;
    mid = lo + (hi - lo) / 2;
    if (a[mid] == key)
        return mid;
    else if (a[mid] < key)
        return bsearch_rec(a, mid + 1, hi, key);
    else
        return bsearch_rec(a, lo, mid - 1, key);
}

static int hanoi(int n, char from, char to, char via)
{
    int moves;
    if (n == 0)
        return 0;
    moves = hanoi(n - 1, from, via, to);
    if (n >= 3)
        printf("move disk %d %c->%c\n", n, from, to);
    moves++;
    moves += hanoi(n - 1, via, to, from);
    return moves;
}

static int is_even(unsigned n)
{
    return n == 0 ? 1 : is_odd(n - 1);
}

static int is_odd(unsigned n)
{
    return n == 0 ? 0 : is_even(n - 1);
}

static double power(double x, int n)
{
    double h;
    if (n == 0)
        return 1.0;
    if (n < 0)
        return 1.0 / power(x, -n);
    h = power(x, n / 2);
    return (n % 2) ? h * h * x : h * h;
}

int main(void)
{
    double sorted[8] = {-3.0, -1.0, 0.5, 2.0, 4.0, 8.0, 16.0, 32.0};
    int i;

    for (i = 0; i <= 12; i += 4)
        printf("factorial(%d) = %ld\n", i, factorial(i));
    printf("fib(20) = %ld\n", fib(20));
    printf("ackermann(2, 3) = %d\n", ackermann(2, 3));
    printf("search 8.0 -> %d, 5.0 -> %d\n", bsearch_rec(sorted, 0, 7, 8.0), bsearch_rec(sorted, 0, 7, 5.0));
    printf("hanoi(4) moves = %d\n", hanoi(4, 'A', 'C', 'B'));
    printf("is_even(10) = %d, is_odd(7) = %d\n", is_even(10u), is_odd(7u));
    printf("power(2, 10) = %.1f, power(2, -3) = %.5f, power(1.5, 5) = %.5f\n",
           power(2.0, 10), power(2.0, -3), power(1.5, 5));
    return 0;
}
