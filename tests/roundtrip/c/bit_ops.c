/* Bit operations, unsigned arithmetic, integer division and modulo. */
#include <stdio.h>

static int popcount(unsigned v)
{
    int c = 0;
    while (v) {
        v &= v - 1u;
        c++;
    }
    return c;
}

static unsigned reverse_bits8(unsigned v)
{
    unsigned r = 0;
    int i;
    for (i = 0; i < 8; i++) {
        r = (r << 1) | (v & 1u);
        v >>= 1;
    }
    return r;
}

static unsigned rotl32(unsigned v, int s)
{
    return (v << s) | (v >> (32 - s));
}

static unsigned long gcd(unsigned long a, unsigned long b)
{
    while (b != 0) {
        unsigned long t = a % b;
        a = b;
        b = t;
    }
    return a;
}

int main(void)
{
    unsigned a = 0xF0F0u, b = 0x0FF0u;
    unsigned flags = 0;
    int n;
    int values[4] = {17, -17, 5, -5};

    printf("a&b=%#x a|b=%#x a^b=%#x ~a&0xFFFF=%#x\n", a & b, a | b, a ^ b, ~a & 0xFFFFu);
    printf("a<<4=%#x a>>4=%#x\n", a << 4, a >> 4);
    printf("popcount: %d %d %d\n", popcount(0u), popcount(0xFFu), popcount(a));
    printf("reverse_bits8(0x01)=%#x reverse_bits8(0xB4)=%#x\n", reverse_bits8(0x01u), reverse_bits8(0xB4u));
    printf("rotl32(0x80000001, 4)=%#x\n", rotl32(0x80000001u, 4));

    flags |= 1u << 3;
    flags |= 1u << 0;
    flags &= ~(1u << 0);
    flags ^= 1u << 5;
    printf("flags=%u bit3=%d bit0=%d\n", flags, (flags >> 3) & 1u ? 1 : 0, (int)(flags & 1u));

    for (n = 0; n < 4; n++) {
        int x = values[n];
        printf("%d / 3 = %d, %d %% 3 = %d\n", x, x / 3, x, x % 3);
    }
    printf("7u / 2u = %u, 7u %% 2u = %u\n", 7u / 2u, 7u % 2u);
    printf("unsigned wrap: %u\n", 0u - 1u);
    printf("gcd(1071, 462) = %lu\n", gcd(1071ul, 462ul));
    printf("big = %lu\n", 1ul << 40);
    printf("is power of two: %d %d\n", (64 & 63) == 0, (96 & 95) == 0);
    printf("low byte %u, high nibble %u\n", 0xABCDu & 0xFFu, (0xABCDu >> 12) & 0xFu);
    printf("xor swap: ");
    {
        unsigned x = 12, y = 34;
        x ^= y;
        y ^= x;
        x ^= y;
        printf("%u %u\n", x, y);
    }
    return 0;
}
