/* static helper functions, static globals, static locals, prototypes before definitions. */
#include <stdio.h>

static int call_count;
static double running_total = 0.0;
static const char *labels[3] = {"low", "mid", "high"};

static int next_id(void);
static double record(double v);
static const char *bucket(double v);
int public_api(int n);

static int next_id(void)
{
    static int id = 1000;
    call_count++;
    return id++;
}

static double record(double v)
{
    running_total += v;
    return running_total;
}

static const char *bucket(double v)
{
    int b = v < 1.0 ? 0 : (v < 10.0 ? 1 : 2);
    return labels[b];
}

int public_api(int n)
{
    int i, last = 0;
    for (i = 0; i < n; i++)
        last = next_id();
    return last;
}

static unsigned hash_step(unsigned h, unsigned c)
{
    return h * 31u + c;
}

static unsigned hash_str(const char *s)
{
    unsigned h = 7u;
    while (*s)
        h = hash_step(h, (unsigned char)*s++);
    return h;
}

int main(void)
{
    double vals[5] = {0.5, 3.0, 12.0, 7.5, 0.01};
    int i;

    for (i = 0; i < 5; i++)
        printf("record(%.2f) -> total %.2f [%s]\n", vals[i], record(vals[i]), bucket(vals[i]));
    printf("ids: %d %d\n", next_id(), next_id());
    printf("public_api(3) -> %d\n", public_api(3));
    printf("call_count = %d\n", call_count);
    printf("hash(\"abc\") = %u\n", hash_str("abc"));
    printf("hash(\"static\") = %u\n", hash_str("static"));
    return 0;
}
