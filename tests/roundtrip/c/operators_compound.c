/* Compound assignment, increment/decrement, ternary, comma operator, precedence. */
#include <stdio.h>

int main(void)
{
    int a = 10, b = 3, c;
    unsigned u = 1u;
    long l = 100L;
    double d = 1.0;
    int arr[5] = {1, 2, 3, 4, 5};
    int *p = arr;
    int i, x, y;

    a += 5;
    printf("a += 5 -> %d\n", a);
    a -= b;
    printf("a -= b -> %d\n", a);
    a *= 2;
    printf("a *= 2 -> %d\n", a);
    a /= 5;
    printf("a /= 5 -> %d\n", a);
    a %= 3;
    printf("a %%= 3 -> %d\n", a);
    u <<= 5;
    printf("u <<= 5 -> %u\n", u);
    u |= 3u;
    printf("u |= 3 -> %u\n", u);
    u &= 0x21u;
    printf("u &= 0x21 -> %u\n", u);
    u ^= 0xFFu;
    printf("u ^= 0xFF -> %u\n", u);
    u >>= 2;
    printf("u >>= 2 -> %u\n", u);
    l *= l;
    l -= 1;
    printf("l = %ld\n", l);
    d /= 4.0;
    d += 0.125;
    d *= -2.0;
    printf("d = %.4f\n", d);

    i = 5;
    x = i++;
    y = ++i;
    printf("post/pre inc: x=%d y=%d i=%d\n", x, y, i);
    x = i--;
    y = --i;
    printf("post/pre dec: x=%d y=%d i=%d\n", x, y, i);

    *p++ += 10;
    ++*p;
    (*p)++;
    p[1] -= 1;
    printf("arr: %d %d %d %d %d\n", arr[0], arr[1], arr[2], arr[3], arr[4]);

    c = (a > b) ? a : b;
    printf("max(a,b) = %d\n", c);
    c = a < 0 ? -1 : a == 0 ? 0 : 1;
    printf("sign(a) = %d\n", c);
    c = (b & 1) ? (b > 2 ? 100 : 200) : 300;
    printf("nested ternary = %d\n", c);

    c = (x = 2, y = 3, x * y);
    printf("comma: c=%d x=%d y=%d\n", c, x, y);
    for (i = 0, c = 0; i < 4; c += i, i++)
        ;
    printf("comma loop: c=%d\n", c);

    printf("precedence: %d %d %d\n", 2 + 3 * 4, (2 + 3) * 4, 20 - 6 / 2 % 4);
    printf("shifts/logic: %d %d %d\n", 1 << 2 * 2, (1 << 2) + 1, -3 * -2 - -1);
    printf("unary: %d %d %d\n", -b, !b, ~b);
    x = y = 7;
    x += y -= 2;
    printf("chained: x=%d y=%d\n", x, y);
    return 0;
}
