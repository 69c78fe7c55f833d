/*
 * test_runtime.c -- unit tests of the radtap C runtime (adStack, adBinomial).
 *
 * Build and run (tests/runtime.rs does this with both block sizes):
 *   gcc -O2 -Wall -Werror -o t test_runtime.c adStack.c adBinomial.c && ./t
 *   gcc -O2 -Wall -Werror -DADSTACK_BLOCK_BYTES=4096 -o t test_runtime.c adStack.c adBinomial.c && ./t
 * Prints every failing check (the first 50) and exits with status 1 if any
 * failed, 0 otherwise.
 */
#include "adBinomial.h"
#include "adStack.h"

#include <limits.h>
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef ADSTACK_BLOCK_BYTES
#define ADSTACK_BLOCK_BYTES (16u * 1024u * 1024u) /* must match adStack.c */
#endif
#define BLOCK ((size_t)(ADSTACK_BLOCK_BYTES))

static long failures = 0;
static long checks = 0;

#define CHECK(cond)                                                                  \
    do {                                                                             \
        checks++;                                                                    \
        if (!(cond)) {                                                               \
            if (failures < 50) printf("FAILED %s:%d: %s\n", __FILE__, __LINE__, #cond); \
            failures++;                                                              \
        }                                                                            \
    } while (0)

/* Same bytes (so -0.0 differs from 0.0 and doubles compare exactly). */
#define SAME(a, b) (memcmp(&(a), &(b), sizeof(a)) == 0)

/* Deterministic LCG (Knuth MMIX constants); rnd() returns 31 bits. */
static unsigned long long lcg = 12345;
static unsigned long rnd(void)
{
    lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL;
    return (unsigned long)(lcg >> 33);
}

/* ------------------------------------------------------------ statistics */

static void test_statistics(void)
{
    int i, v;
    double d;
    adStack_reset();
    adStack_resetStatistics();
    CHECK(adStack_currentBytes() == 0);
    CHECK(adStack_peakBytes() == 0);
    CHECK(adStack_totalTraffic() == 0);

    for (i = 0; i < 10; i++) pushReal8(i + 0.25);
    for (i = 0; i < 3; i++) pushInteger4(-i);
    CHECK(adStack_currentBytes() == 92);
    CHECK(adStack_peakBytes() == 92);
    CHECK(adStack_totalTraffic() == 92);
    for (i = 2; i >= 0; i--) { popInteger4(&v); CHECK(v == -i); }
    CHECK(adStack_currentBytes() == 80);
    pushCharacter('x');
    CHECK(adStack_currentBytes() == 81);
    CHECK(adStack_peakBytes() == 92);
    CHECK(adStack_totalTraffic() == 93);
    { char c; popCharacter(&c); CHECK(c == 'x'); }
    for (i = 9; i >= 0; i--) { popReal8(&d); CHECK(d == i + 0.25); }
    CHECK(adStack_currentBytes() == 0);
    CHECK(adStack_peakBytes() == 92);
    CHECK(adStack_totalTraffic() == 93);

    /* control bits: 8 bytes per 64-bit word holding at least one live bit */
    adStack_resetStatistics();
    CHECK(adStack_peakBytes() == 0);
    pushControl1b(1);
    CHECK(adStack_currentBytes() == 8);
    for (i = 1; i < 64; i++) pushControl1b(i & 1);
    CHECK(adStack_currentBytes() == 8);  /* 64 bits: one word */
    pushControl1b(1);
    CHECK(adStack_currentBytes() == 16); /* 65 bits: two words */
    pushReal4(1.5f);
    CHECK(adStack_currentBytes() == 20);
    CHECK(adStack_totalTraffic() == 20);
    { float f; popReal4(&f); CHECK(f == 1.5f); }
    popControl1b(&v); CHECK(v == 1);
    CHECK(adStack_currentBytes() == 8);
    for (i = 63; i >= 1; i--) { popControl1b(&v); CHECK(v == (i & 1)); }
    CHECK(adStack_currentBytes() == 8);
    popControl1b(&v); CHECK(v == 1);
    CHECK(adStack_currentBytes() == 0);
    CHECK(adStack_peakBytes() == 20);
    CHECK(adStack_totalTraffic() == 20);

    /* arrays count n * element size; look changes nothing */
    {
        double a[5] = {1, 2, 3, 4, 5}, b[5];
        adStack_resetStatistics();
        pushReal8Array(a, 5);
        pushReal8Array(a, 0); /* no-op */
        CHECK(adStack_currentBytes() == 40);
        lookReal8Array(b, 5);
        CHECK(adStack_currentBytes() == 40);
        CHECK(memcmp(a, b, sizeof a) == 0);
        popReal8Array(b, 5);
        CHECK(adStack_currentBytes() == 0);
        CHECK(adStack_totalTraffic() == 40);
    }
}

/* --------------------------------------------------------------- scalars */

static void test_scalars(void)
{
    float r4[] = {0.0f, -0.0f, 1.0f, -3.4e38f, FLT_MIN, 1e-40f /* subnormal */, 0.1f};
    double r8[] = {0.0, -0.0, 1e-300, -1.7976931348623157e308, 4.9e-324, DBL_MIN, -2.5};
    int i4[] = {0, -1, INT_MIN, INT_MAX, 123456789};
    long long i8[] = {0, -1, LLONG_MIN, LLONG_MAX, 0x123456789abcdef0LL, -9000000000LL};
    short i2[] = {0, -1, SHRT_MIN, SHRT_MAX, 12345};
    int bo[] = {0, 1, -1};
    char ch[] = {'\0', 'a', (char)-1, (char)127, (char)-128};
    ccmplx c8[] = {{1.5f, -2.5f}, {-0.0f, 3e38f}, {FLT_MIN, -FLT_MIN}};
    cdcmplx c16[] = {{1e-300, -1e300}, {-0.0, 0.5}, {DBL_MAX, -DBL_MIN}};
    typedef void *vptr;
    vptr pt[] = {NULL, (void *)r8, (void *)&lcg, (void *)~(size_t)0};
    size_t k;
    adStack_reset();

#define ROUND_TRIP(arr, T, push, pop, look)                                   \
    for (k = 0; k < sizeof arr / sizeof arr[0]; k++) push(arr[k]);           \
    for (k = sizeof arr / sizeof arr[0]; k-- > 0;) {                          \
        T got, seen;                                                          \
        long long before = adStack_currentBytes();                            \
        memset(&got, 0x5a, sizeof got);                                       \
        memset(&seen, 0x5a, sizeof seen);                                     \
        look(&seen);                                                          \
        CHECK(adStack_currentBytes() == before);                              \
        CHECK(SAME(seen, arr[k]));                                            \
        pop(&got);                                                            \
        CHECK(SAME(got, arr[k]));                                             \
        CHECK(adStack_currentBytes() == before - (long long)sizeof(T));      \
    }                                                                         \
    CHECK(adStack_currentBytes() == 0);

    ROUND_TRIP(r4, float, pushReal4, popReal4, lookReal4)
    ROUND_TRIP(r8, double, pushReal8, popReal8, lookReal8)
    ROUND_TRIP(i4, int, pushInteger4, popInteger4, lookInteger4)
    ROUND_TRIP(i8, long long, pushInteger8, popInteger8, lookInteger8)
    ROUND_TRIP(i2, short, pushInteger2, popInteger2, lookInteger2)
    ROUND_TRIP(bo, int, pushBoolean, popBoolean, lookBoolean)
    ROUND_TRIP(ch, char, pushCharacter, popCharacter, lookCharacter)
    ROUND_TRIP(c8, ccmplx, pushComplex8, popComplex8, lookComplex8)
    ROUND_TRIP(c16, cdcmplx, pushComplex16, popComplex16, lookComplex16)
    ROUND_TRIP(pt, vptr, pushPointer8, popPointer8, lookPointer8)
#undef ROUND_TRIP

    {   /* extended precision (C long double, Fortran real(16)): values beyond double's range
         * come back exactly; compared by value (the storage has padding) */
        long double r16[3] = {1.0L / 3.0L, -2.5e-4000L, 7.0L}, g16, a16[3], b16[3];
        for (k = 0; k < 3; k++) pushReal16(r16[k]);
        for (k = 3; k-- > 0;) {
            lookReal16(&g16);
            CHECK(g16 == r16[k]);
            popReal16(&g16);
            CHECK(g16 == r16[k]);
        }
        for (k = 0; k < 3; k++) a16[k] = r16[k] * (long double)k;
        pushReal16Array(a16, 3);
        CHECK(adStack_currentBytes() == 3 * (long long)sizeof(long double));
        popReal16Array(b16, 3);
        for (k = 0; k < 3; k++) CHECK(b16[k] == a16[k]);
        CHECK(adStack_currentBytes() == 0);
    }

    /* the Fortran aliases (by address) on the same data */
    for (k = 0; k < 7; k++) { pushreal8_(&r8[k]); pushreal4_(&r4[k]); }
    for (k = 0; k < 5; k++) { pushinteger4_(&i4[k]); pushcharacter_(&ch[k]); }
    for (k = 0; k < 3; k++) {
        pushinteger8_(&i8[k]); pushboolean_(&bo[k]); pushcomplex8_(&c8[k]);
        pushcomplex16_(&c16[k]); pushpointer8_(&pt[k]);
    }
    for (k = 3; k-- > 0;) {
        long long a; int b; ccmplx c; cdcmplx d; void *p, *q;
        lookpointer8_(&q); poppointer8_(&p); CHECK(p == pt[k] && q == pt[k]);
        popcomplex16_(&d); CHECK(SAME(d, c16[k]));
        lookcomplex8_(&c); CHECK(SAME(c, c8[k]));
        popcomplex8_(&c); CHECK(SAME(c, c8[k]));
        lookboolean_(&b); CHECK(b == bo[k]);
        popboolean_(&b); CHECK(b == bo[k]);
        lookinteger8_(&a); CHECK(a == i8[k]);
        popinteger8_(&a); CHECK(a == i8[k]);
    }
    for (k = 5; k-- > 0;) {
        int a; char c;
        lookcharacter_(&c); CHECK(c == ch[k]);
        popcharacter_(&c); CHECK(c == ch[k]);
        lookinteger4_(&a); CHECK(a == i4[k]);
        popinteger4_(&a); CHECK(a == i4[k]);
    }
    for (k = 7; k-- > 0;) {
        float f; double d;
        lookreal4_(&f); CHECK(SAME(f, r4[k]));
        popreal4_(&f); CHECK(SAME(f, r4[k]));
        lookreal8_(&d); CHECK(SAME(d, r8[k]));
        popreal8_(&d); CHECK(SAME(d, r8[k]));
    }
    CHECK(adStack_currentBytes() == 0);
}

/* ---------------------------------------------------------------- arrays */

static void test_arrays(void)
{
    enum { N = 1000 };
    static float r4[N], r4b[N];
    static double r8[N], r8b[N];
    static int i4[N], i4b[N], bo[N], bob[N];
    static long long i8[N], i8b[N];
    static char ch[N], chb[N];
    static ccmplx c8[N], c8b[N];
    static cdcmplx c16[N], c16b[N];
    int lens[] = {1, 7, N};
    int j, l;
    adStack_reset();
    for (j = 0; j < N; j++) {
        r4[j] = (float)(j - 500) * 1.25e-3f;
        r8[j] = (j % 2 ? -1e-300 : 1e300) * (j + 1);
        i4[j] = j % 3 ? INT_MIN + j : INT_MAX - j;
        i8[j] = (long long)j * 0x100000001LL - (1LL << 62);
        bo[j] = j % 2;
        ch[j] = (char)(j * 7);
        c8[j].r = (float)j; c8[j].i = -(float)j / 3.0f;
        c16[j].r = 1e-300 * j; c16[j].i = -1e300 / (j + 1);
    }
    for (l = 0; l < 3; l++) {
        int n = lens[l];
        long long bytes = (long long)n * (4 + 8 + 4 + 8 + 4 + 1 + 8 + 16);
        pushReal4Array(r4, n);
        pushReal8Array(r8, n);
        pushInteger4Array(i4, n);
        pushInteger8Array(i8, n);
        pushBooleanArray(bo, n);
        pushCharacterArray(ch, n);
        pushComplex8Array(c8, n);
        pushComplex16Array(c16, n);
        CHECK(adStack_currentBytes() == bytes);

#define POP_ARRAY(a, b, look, pop)                                                           \
        memset(b, 0, sizeof b); look(b, n); CHECK(memcmp(a, b, (size_t)n * sizeof a[0]) == 0); \
        memset(b, 0, sizeof b); pop(b, n); CHECK(memcmp(a, b, (size_t)n * sizeof a[0]) == 0);
        POP_ARRAY(c16, c16b, lookComplex16Array, popComplex16Array)
        POP_ARRAY(c8, c8b, lookComplex8Array, popComplex8Array)
        POP_ARRAY(ch, chb, lookCharacterArray, popCharacterArray)
        POP_ARRAY(bo, bob, lookBooleanArray, popBooleanArray)
        POP_ARRAY(i8, i8b, lookInteger8Array, popInteger8Array)
        POP_ARRAY(i4, i4b, lookInteger4Array, popInteger4Array)
        POP_ARRAY(r8, r8b, lookReal8Array, popReal8Array)
        POP_ARRAY(r4, r4b, lookReal4Array, popReal4Array)
        CHECK(adStack_currentBytes() == 0);

        /* Fortran aliases */
        pushreal4array_(r4, &n); pushreal8array_(r8, &n); pushinteger4array_(i4, &n);
        pushinteger8array_(i8, &n); pushbooleanarray_(bo, &n); pushcharacterarray_(ch, &n);
        pushcomplex8array_(c8, &n); pushcomplex16array_(c16, &n);
#define POP_ARRAY_F(a, b, look, pop)                                                          \
        memset(b, 0, sizeof b); look(b, &n); CHECK(memcmp(a, b, (size_t)n * sizeof a[0]) == 0); \
        memset(b, 0, sizeof b); pop(b, &n); CHECK(memcmp(a, b, (size_t)n * sizeof a[0]) == 0);
        POP_ARRAY_F(c16, c16b, lookcomplex16array_, popcomplex16array_)
        POP_ARRAY_F(c8, c8b, lookcomplex8array_, popcomplex8array_)
        POP_ARRAY_F(ch, chb, lookcharacterarray_, popcharacterarray_)
        POP_ARRAY_F(bo, bob, lookbooleanarray_, popbooleanarray_)
        POP_ARRAY_F(i8, i8b, lookinteger8array_, popinteger8array_)
        POP_ARRAY_F(i4, i4b, lookinteger4array_, popinteger4array_)
        POP_ARRAY_F(r8, r8b, lookreal8array_, popreal8array_)
        POP_ARRAY_F(r4, r4b, lookreal4array_, popreal4array_)
        CHECK(adStack_currentBytes() == 0);
#undef POP_ARRAY
#undef POP_ARRAY_F
    }
}

/* ------------------------------------------------- control bits, interleaving */

typedef void (*PushCtl)(int);
typedef void (*PopCtl)(int *);
static PushCtl push_ctl[9] = {NULL, pushControl1b, pushControl2b, pushControl3b, pushControl4b,
                              pushControl5b, pushControl6b, pushControl7b, pushControl8b};
static PopCtl pop_ctl[9] = {NULL, popControl1b, popControl2b, popControl3b, popControl4b,
                            popControl5b, popControl6b, popControl7b, popControl8b};
static PopCtl look_ctl[9] = {NULL, lookControl1b, lookControl2b, lookControl3b, lookControl4b,
                             lookControl5b, lookControl6b, lookControl7b, lookControl8b};
static PopCtl pushf_ctl[9] = {NULL, pushcontrol1b_, pushcontrol2b_, pushcontrol3b_, pushcontrol4b_,
                              pushcontrol5b_, pushcontrol6b_, pushcontrol7b_, pushcontrol8b_};
static PopCtl popf_ctl[9] = {NULL, popcontrol1b_, popcontrol2b_, popcontrol3b_, popcontrol4b_,
                             popcontrol5b_, popcontrol6b_, popcontrol7b_, popcontrol8b_};
static PopCtl lookf_ctl[9] = {NULL, lookcontrol1b_, lookcontrol2b_, lookcontrol3b_, lookcontrol4b_,
                              lookcontrol5b_, lookcontrol6b_, lookcontrol7b_, lookcontrol8b_};

static void test_interleave(void)
{
    int w, rep, v;
    double d;
    adStack_reset();

    /* the example of the contract: real, control, real, control */
    pushReal8(1.0); pushControl1b(1); pushReal8(2.0); pushControl2b(2);
    popControl2b(&v); CHECK(v == 2);
    popReal8(&d); CHECK(d == 2.0);
    popControl1b(&v); CHECK(v == 1);
    popReal8(&d); CHECK(d == 1.0);
    CHECK(adStack_currentBytes() == 0);

    /* every width with its max, zero and a middle value, interleaved with
     * values, repeated so that words spill at every possible offset */
    for (rep = 0; rep < 70; rep++) {
        for (w = 1; w <= 8; w++) {
            push_ctl[w]((1 << w) - 1);
            pushInteger4(w * 1000 + rep);
            push_ctl[w](0);
            pushCharacter((char)w);
            push_ctl[w]((1 << w) / 2 + rep % 2);
        }
    }
    for (rep = 69; rep >= 0; rep--) {
        for (w = 8; w >= 1; w--) {
            char c;
            int mid = ((1 << w) / 2 + rep % 2) & ((1 << w) - 1);
            look_ctl[w](&v); CHECK(v == mid);
            pop_ctl[w](&v); CHECK(v == mid);
            popCharacter(&c); CHECK(c == (char)w);
            look_ctl[w](&v); CHECK(v == 0);
            pop_ctl[w](&v); CHECK(v == 0);
            popInteger4(&v); CHECK(v == w * 1000 + rep);
            pop_ctl[w](&v); CHECK(v == (1 << w) - 1);
        }
    }
    CHECK(adStack_currentBytes() == 0);

    /* high bits beyond the width are ignored */
    pushControl3b(0x1ff); pushControl8b(-1); pushControl1b(2);
    popControl1b(&v); CHECK(v == 0);
    popControl8b(&v); CHECK(v == 255);
    popControl3b(&v); CHECK(v == 7);

    /* Fortran aliases, all widths, across several words */
    for (rep = 0; rep < 40; rep++)
        for (w = 1; w <= 8; w++) { int c = (rep * 37 + w) & ((1 << w) - 1); pushf_ctl[w](&c); }
    for (rep = 39; rep >= 0; rep--)
        for (w = 8; w >= 1; w--) {
            int c = (rep * 37 + w) & ((1 << w) - 1);
            lookf_ctl[w](&v); CHECK(v == c);
            popf_ctl[w](&v); CHECK(v == c);
        }
    CHECK(adStack_currentBytes() == 0);
}

/* ------------------------------------- random walk against a model stack */

enum {
    K_R4, K_R8, K_I4, K_I8, K_BO, K_CH, K_C8, K_C16, K_PT, /* scalars */
    K_AR4, K_AR8, K_AI4, K_AI8, K_ABO, K_ACH, K_AC8, K_AC16, /* arrays  */
    K_CTL, K_COUNT
};
static const size_t elem_size[K_COUNT] = {4, 8, 4, 8, 4, 1, 8, 16, 8, 4, 8, 4, 8, 4, 1, 8, 16, 0};

typedef struct { int kind, n; size_t off, bytes; } Rec; /* n: array length or control width */

typedef struct {
    Rec *recs; size_t nrec, caprec;
    unsigned char *arena; size_t used, cap;
    long long valbytes, ctlbits;
} Model;

static void model_free(Model *m) { free(m->recs); free(m->arena); memset(m, 0, sizeof *m); }

static void model_copy(Model *dst, const Model *src)
{
    dst->nrec = dst->caprec = src->nrec;
    dst->used = dst->cap = src->used;
    dst->recs = (Rec *)malloc(src->nrec * sizeof(Rec) + 1);
    dst->arena = (unsigned char *)malloc(src->used + 1);
    if (!dst->recs || !dst->arena) { printf("test: out of memory\n"); exit(2); }
    memcpy(dst->recs, src->recs, src->nrec * sizeof(Rec));
    memcpy(dst->arena, src->arena, src->used);
    dst->valbytes = src->valbytes;
    dst->ctlbits = src->ctlbits;
}

static long long expected_bytes(const Model *m) { return m->valbytes + 8 * ((m->ctlbits + 63) / 64); }

static void do_push(int kind, int n, void *p)
{
    switch (kind) {
    case K_R4: pushReal4(*(float *)p); break;
    case K_R8: pushReal8(*(double *)p); break;
    case K_I4: pushInteger4(*(int *)p); break;
    case K_I8: pushInteger8(*(long long *)p); break;
    case K_BO: pushBoolean(*(int *)p); break;
    case K_CH: pushCharacter(*(char *)p); break;
    case K_C8: pushComplex8(*(ccmplx *)p); break;
    case K_C16: pushComplex16(*(cdcmplx *)p); break;
    case K_PT: pushPointer8(*(void **)p); break;
    case K_AR4: pushReal4Array((float *)p, n); break;
    case K_AR8: pushReal8Array((double *)p, n); break;
    case K_AI4: pushInteger4Array((int *)p, n); break;
    case K_AI8: pushInteger8Array((long long *)p, n); break;
    case K_ABO: pushBooleanArray((int *)p, n); break;
    case K_ACH: pushCharacterArray((char *)p, n); break;
    case K_AC8: pushComplex8Array((ccmplx *)p, n); break;
    case K_AC16: pushComplex16Array((cdcmplx *)p, n); break;
    case K_CTL: push_ctl[n](*(int *)p); break;
    }
}

static void do_pop(int kind, int n, void *p, int look)
{
    switch (kind) {
    case K_R4: if (look) lookReal4((float *)p); else popReal4((float *)p); break;
    case K_R8: if (look) lookReal8((double *)p); else popReal8((double *)p); break;
    case K_I4: if (look) lookInteger4((int *)p); else popInteger4((int *)p); break;
    case K_I8: if (look) lookInteger8((long long *)p); else popInteger8((long long *)p); break;
    case K_BO: if (look) lookBoolean((int *)p); else popBoolean((int *)p); break;
    case K_CH: if (look) lookCharacter((char *)p); else popCharacter((char *)p); break;
    case K_C8: if (look) lookComplex8((ccmplx *)p); else popComplex8((ccmplx *)p); break;
    case K_C16: if (look) lookComplex16((cdcmplx *)p); else popComplex16((cdcmplx *)p); break;
    case K_PT: if (look) lookPointer8((void **)p); else popPointer8((void **)p); break;
    case K_AR4: if (look) lookReal4Array((float *)p, n); else popReal4Array((float *)p, n); break;
    case K_AR8: if (look) lookReal8Array((double *)p, n); else popReal8Array((double *)p, n); break;
    case K_AI4: if (look) lookInteger4Array((int *)p, n); else popInteger4Array((int *)p, n); break;
    case K_AI8: if (look) lookInteger8Array((long long *)p, n); else popInteger8Array((long long *)p, n); break;
    case K_ABO: if (look) lookBooleanArray((int *)p, n); else popBooleanArray((int *)p, n); break;
    case K_ACH: if (look) lookCharacterArray((char *)p, n); else popCharacterArray((char *)p, n); break;
    case K_AC8: if (look) lookComplex8Array((ccmplx *)p, n); else popComplex8Array((ccmplx *)p, n); break;
    case K_AC16: if (look) lookComplex16Array((cdcmplx *)p, n); else popComplex16Array((cdcmplx *)p, n); break;
    case K_CTL: if (look) look_ctl[n]((int *)p); else pop_ctl[n]((int *)p); break;
    }
}

/* Random value(s) of the given kind into buf (finite floats only, so that
 * passing them by value cannot alter them). */
static size_t random_value(int kind, int n, unsigned char *buf)
{
    size_t i, bytes;
    if (kind == K_CTL) {
        int v = (int)(rnd() & ((1u << n) - 1));
        memcpy(buf, &v, sizeof v);
        return sizeof v;
    }
    if (kind < K_AR4) n = 1;
    bytes = (size_t)n * elem_size[kind];
    for (i = 0; i < bytes; i++) buf[i] = (unsigned char)rnd();
    if (kind == K_R4 || kind == K_AR4 || kind == K_C8 || kind == K_AC8) {
        float *f = (float *)buf;
        for (i = 0; i < bytes / 4; i++) f[i] = (float)((long)rnd() - 0x40000000L) * 1e-3f;
    } else if (kind == K_R8 || kind == K_AR8 || kind == K_C16 || kind == K_AC16) {
        double *d = (double *)buf;
        for (i = 0; i < bytes / 8; i++) d[i] = (double)((long)rnd() - 0x40000000L) * 1e-300;
    }
    return bytes;
}

static void model_push(Model *m, int kind, int n, const unsigned char *buf, size_t bytes)
{
    Rec *r;
    if (m->nrec == m->caprec) {
        m->caprec = m->caprec ? 2 * m->caprec : 1024;
        m->recs = (Rec *)realloc(m->recs, m->caprec * sizeof(Rec));
    }
    while (m->used + bytes > m->cap) {
        m->cap = m->cap ? 2 * m->cap : 65536;
        m->arena = (unsigned char *)realloc(m->arena, m->cap);
    }
    if (!m->recs || !m->arena) { printf("test: out of memory\n"); exit(2); }
    r = &m->recs[m->nrec++];
    r->kind = kind; r->n = n; r->off = m->used; r->bytes = bytes;
    memcpy(m->arena + m->used, buf, bytes);
    m->used += bytes;
    if (kind == K_CTL) m->ctlbits += n; else m->valbytes += (long long)bytes;
}

/* Pop (or look at) the top record from the real stack and check it. */
static void check_top(Model *m, int look)
{
    static unsigned char got[64 * 16 + 16];
    Rec *r = &m->recs[m->nrec - 1];
    long long before = adStack_currentBytes();
    memset(got, 0xa5, r->bytes);
    do_pop(r->kind, r->n, got, look);
    CHECK(memcmp(got, m->arena + r->off, r->bytes) == 0);
    if (look) {
        CHECK(adStack_currentBytes() == before);
    } else {
        m->nrec--;
        m->used = r->off;
        if (r->kind == K_CTL) m->ctlbits -= r->n; else m->valbytes -= (long long)r->bytes;
    }
}

static void random_walk(unsigned long long seed, long iterations, int use_repeat)
{
    Model m, marks[8];
    int nmarks = 0;
    long it;
    unsigned char buf[64 * 16 + 16];
    memset(&m, 0, sizeof m);
    lcg = seed;
    adStack_reset();
    for (it = 0; it < iterations; it++) {
        unsigned long r = rnd() % 1000;
        if (m.nrec == 0 || r < 520) {
            int kind = (int)(rnd() % K_COUNT);
            int n = kind == K_CTL ? (int)(rnd() % 8) + 1 : kind >= K_AR4 ? (int)(rnd() % 65) : 1;
            size_t bytes = random_value(kind, n, buf);
            do_push(kind, n, buf);
            model_push(&m, kind, n, buf, bytes);
        } else if (r < 900) {
            check_top(&m, 0);
        } else if (r < 960) {
            check_top(&m, 1);
        } else if (!use_repeat) {
            continue;
        } else if (r < 970) {
            if (nmarks < 8) { adStack_startRepeat(); model_copy(&marks[nmarks++], &m); }
        } else if (r < 985) {
            if (nmarks > 0) { adStack_resetRepeat(); model_free(&m); model_copy(&m, &marks[nmarks - 1]); }
        } else {
            if (nmarks > 0) { adStack_endRepeat(); model_free(&marks[--nmarks]); }
        }
        CHECK(adStack_currentBytes() == expected_bytes(&m));
        if (failures > 0) break;
    }
    while (m.nrec > 0 && failures == 0) check_top(&m, 0);
    while (nmarks > 0) { adStack_endRepeat(); model_free(&marks[--nmarks]); }
    CHECK(adStack_currentBytes() == 0);
    model_free(&m);
}

/* ------------------------------------------------------ block boundaries */

static double pattern(long i, long j) { return (double)i * 1000.0 + (double)j * 0.001; }

static void test_blocks(void)
{
    static double arr[1600], got[1600];
    long i, count = 0;
    int v;
    double d;
    adStack_reset();

    /* a scalar straddling the first block boundary */
    {
        size_t fill = BLOCK - 3;
        char *c = (char *)malloc(fill), *c2 = (char *)malloc(fill);
        if (!c || !c2) { printf("test: out of memory\n"); exit(2); }
        for (i = 0; i < (long)fill; i++) c[i] = (char)(i * 13);
        pushCharacterArray(c, (int)fill);
        pushReal8(-1e-300);
        pushInteger4(-77);
        popInteger4(&v); CHECK(v == -77);
        lookReal8(&d); CHECK(d == -1e-300);
        popReal8(&d); CHECK(d == -1e-300);
        popCharacterArray(c2, (int)fill);
        CHECK(memcmp(c, c2, fill) == 0);
        free(c); free(c2);
    }
    CHECK(adStack_currentBytes() == 0);

    /* one array larger than two blocks */
    {
        size_t n = BLOCK * 2 + BLOCK / 3 + 5;
        char *c = (char *)malloc(n), *c2 = (char *)malloc(n);
        if (!c || !c2) { printf("test: out of memory\n"); exit(2); }
        for (i = 0; i < (long)n; i++) c[i] = (char)(i * 31 + 7);
        pushInteger4(5);
        pushCharacterArray(c, (int)n);
        memset(c2, 0, n); lookCharacterArray(c2, (int)n); CHECK(memcmp(c, c2, n) == 0);
        memset(c2, 0, n); popCharacterArray(c2, (int)n); CHECK(memcmp(c, c2, n) == 0);
        popInteger4(&v); CHECK(v == 5);
        free(c); free(c2);
    }
    CHECK(adStack_currentBytes() == 0);

    /* 3.5 blocks of mixed scalar, array and control pushes */
    while ((size_t)adStack_currentBytes() < BLOCK * 7 / 2) {
        int n = (int)(count * 37 % 1500) + 1;
        long j;
        for (j = 0; j < n; j++) arr[j] = pattern(count, j);
        pushReal8Array(arr, n);
        pushInteger4((int)count);
        pushCharacter((char)count);
        pushControl3b((int)(count & 7));
        pushReal8(count * 0.5);
        count++;
    }
    for (i = count - 1; i >= 0; i--) {
        int n = (int)(i * 37 % 1500) + 1, ok = 1;
        long j;
        char c;
        popReal8(&d); CHECK(d == i * 0.5);
        popControl3b(&v); CHECK(v == (int)(i & 7));
        popCharacter(&c); CHECK(c == (char)i);
        popInteger4(&v); CHECK(v == (int)i);
        lookReal8Array(got, n);
        for (j = 0; j < n; j++) ok &= got[j] == pattern(i, j);
        CHECK(ok);
        memset(got, 0, sizeof got);
        popReal8Array(got, n);
        for (j = 0; j < n; j++) ok &= got[j] == pattern(i, j);
        CHECK(ok);
        if (failures) break;
    }
    CHECK(adStack_currentBytes() == 0);
}

/* ---------------------------------------------------------------- repeat */

static void test_repeat(void)
{
    double a = 1.5, b = -2.25, c = 1e-300, d, x;
    int v, k;
    adStack_reset();

    /* the basic contract */
    pushReal8(a); pushReal8(b); pushReal8(c);
    adStack_startRepeat();
    popReal8(&x); CHECK(x == c);
    popReal8(&x); CHECK(x == b);
    popReal8(&x); CHECK(x == a);
    CHECK(adStack_currentBytes() == 0);
    adStack_resetRepeat();
    CHECK(adStack_currentBytes() == 24);
    adStack_endRepeat();
    popReal8(&x); CHECK(x == c);
    popReal8(&x); CHECK(x == b);
    popReal8(&x); CHECK(x == a);
    CHECK(adStack_currentBytes() == 0);

    /* control bits (across a spilled word) are restored too */
    for (k = 0; k < 70; k++) pushControl2b(k & 3);
    pushReal8(a);
    adStack_startRepeat();
    for (int pass = 0; pass < 3; pass++) {
        popReal8(&x); CHECK(x == a);
        for (k = 69; k >= 0; k--) { popControl2b(&v); CHECK(v == (k & 3)); }
        CHECK(adStack_currentBytes() == 0);
        adStack_resetRepeat();
    }
    adStack_endRepeat();
    popReal8(&x); CHECK(x == a);
    for (k = 69; k >= 0; k--) { popControl2b(&v); CHECK(v == (k & 3)); }
    CHECK(adStack_currentBytes() == 0);

    /* nested marks */
    pushReal8(1); pushReal8(2); pushReal8(3); pushReal8(4);
    adStack_startRepeat();              /* M1 at [1 2 3 4] */
    popReal8(&x); CHECK(x == 4);
    adStack_startRepeat();              /* M2 at [1 2 3] */
    popReal8(&x); CHECK(x == 3);
    popReal8(&x); CHECK(x == 2);
    adStack_resetRepeat();              /* back to M2 */
    popReal8(&x); CHECK(x == 3);
    popReal8(&x); CHECK(x == 2);
    popReal8(&x); CHECK(x == 1);
    adStack_resetRepeat();              /* back to M2 again */
    adStack_endRepeat();                /* forget M2, top stays at [1 2 3] */
    popReal8(&x); CHECK(x == 3);
    adStack_resetRepeat();              /* back to M1 */
    popReal8(&x); CHECK(x == 4);
    popReal8(&x); CHECK(x == 3);
    popReal8(&x); CHECK(x == 2);
    popReal8(&x); CHECK(x == 1);
    adStack_endRepeat();
    CHECK(adStack_currentBytes() == 0);

    /* pushes below a mark do not overwrite the protected data */
    pushReal8(a); pushReal8(b); pushReal8(c);
    adStack_startRepeat();
    popReal8(&x); CHECK(x == c);
    pushReal8(100); pushInteger4(101); pushControl1b(1);
    popControl1b(&v); CHECK(v == 1);
    popInteger4(&v); CHECK(v == 101);
    popReal8(&x); CHECK(x == 100);
    popReal8(&x); CHECK(x == b);
    pushReal8(200);
    popReal8(&x); CHECK(x == 200);
    popReal8(&x); CHECK(x == a);
    CHECK(adStack_currentBytes() == 0);
    adStack_resetRepeat();
    popReal8(&x); CHECK(x == c);
    popReal8(&x); CHECK(x == b);
    popReal8(&x); CHECK(x == a);
    adStack_resetRepeat();
    adStack_endRepeat();
    pushReal8(300); /* after endRepeat the push goes right on top */
    popReal8(&x); CHECK(x == 300);
    popReal8(&x); CHECK(x == c);
    popReal8(&x); CHECK(x == b);
    popReal8(&x); CHECK(x == a);
    CHECK(adStack_currentBytes() == 0);

    /* the logical stack stays one byte stream across a redirected push:
     * reading 8 bytes takes the 4 pushed above the mark and the 4 below */
    {
        int ia = 0x11223344, ib = 0x55667788, ic = 0x0a0b0c0d;
        unsigned char want[8], got8[8];
        long long both;
        pushInteger4(ia); pushInteger4(ib);
        adStack_startRepeat();
        popInteger4(&v); CHECK(v == ib);
        pushInteger4(ic);              /* goes above the protected ib */
        memcpy(want, &ia, 4); memcpy(want + 4, &ic, 4);
        lookInteger8(&both); memcpy(got8, &both, 8); CHECK(memcmp(got8, want, 8) == 0);
        popInteger8(&both); memcpy(got8, &both, 8); CHECK(memcmp(got8, want, 8) == 0);
        CHECK(adStack_currentBytes() == 0);
        adStack_resetRepeat();
        popInteger4(&v); CHECK(v == ib);
        popInteger4(&v); CHECK(v == ia);
        adStack_endRepeat();
        CHECK(adStack_currentBytes() == 0);
    }

    /* a fixed-point style reversal: a tape spanning several blocks is read
     * five times, with nested push/pop traffic while it is being read */
    {
        enum { N = 700 };
        static double t[N], u[N];
        long rounds = (long)(BLOCK * 5 / 2 / (N * 8)) + 2, i, j;
        for (i = 0; i < rounds; i++) {
            for (j = 0; j < N; j++) t[j] = pattern(i, j);
            pushReal8Array(t, N);
            pushControl5b((int)(i % 32));
        }
        adStack_startRepeat();
        for (k = 0; k < 5; k++) {
            for (i = rounds - 1; i >= 0; i--) {
                int ok = 1;
                popControl5b(&v); CHECK(v == (int)(i % 32));
                popReal8Array(u, N);
                for (j = 0; j < N; j++) ok &= u[j] == pattern(i, j);
                CHECK(ok);
                if (i % 7 == k) { /* nested checkpoint-like traffic */
                    pushReal8Array(u, N / 2); pushControl4b(9); pushInteger4((int)i);
                    popInteger4(&v); CHECK(v == (int)i);
                    popControl4b(&v); CHECK(v == 9);
                    popReal8Array(u, N / 2);
                }
                if (failures) break;
            }
            adStack_resetRepeat();
        }
        adStack_endRepeat();
        for (i = rounds - 1; i >= 0; i--) {
            int ok = 1;
            popControl5b(&v); CHECK(v == (int)(i % 32));
            popReal8Array(u, N);
            for (j = 0; j < N; j++) ok &= u[j] == pattern(i, j);
            CHECK(ok);
            if (failures) break;
        }
        CHECK(adStack_currentBytes() == 0);
    }

    /* Fortran aliases */
    d = 42;
    pushreal8_(&d);
    adstack_startrepeat_();
    popreal8_(&x); CHECK(x == 42);
    adstack_resetrepeat_();
    adstack_endrepeat_();
    popreal8_(&x); CHECK(x == 42);
    CHECK(adstack_currentbytes_() == 0);
}

/* -------------------------------------------------------------- binomial */

static long long binom(long long n, long long k)
{
    long long r = 1, i;
    if (k < 0 || k > n) return 0;
    for (i = 1; i <= k; i++) r = r * (n - k + i) / i;
    return r;
}

/* Closed form of the minimal number of forward steps (Griewank & Walther). */
static long long optimal_advances(long long steps, long long snaps)
{
    long long r = 0;
    while (binom(snaps + r, snaps) < steps) r++;
    return r * steps - binom(snaps + r, snaps + 1);
}

/* The state map of the simulated time loop: x_{s+1} = f(x_s, s). */
static unsigned long long step_map(unsigned long long x, int s)
{
    return x * 6364136223846793005ULL + (unsigned long long)(s * 2 + 1);
}

/* Drive one schedule; returns the number of primal steps run by ADVANCE. */
static long long run_schedule(int steps, int snaps, int first, int nested)
{
    enum { MAXN = 200 };
    unsigned long long truth[MAXN + 1], x, snap_x[MAXN];
    int snap_step[MAXN], nsnap = 0, maxsnap = 0, cur = first, stale = 0;
    int next_turn = first + steps - 1, action, step, k;
    long long advances = 0;
    truth[0] = 0x9e3779b97f4a7c15ULL;
    for (k = 0; k < steps; k++) truth[k + 1] = step_map(truth[k], first + k);
    x = truth[0];
    adBinomial_init(steps, snaps, first);
    while (adBinomial_next(&action, &step)) {
        switch (action) {
        case AD_BINOMIAL_PUSH_SNAPSHOT:
            CHECK(!stale && step == cur);
            CHECK(nsnap < MAXN);
            snap_x[nsnap] = x; snap_step[nsnap] = step; nsnap++;
            if (nsnap > maxsnap) maxsnap = nsnap;
            break;
        case AD_BINOMIAL_LOOK_SNAPSHOT:
        case AD_BINOMIAL_POP_SNAPSHOT:
            CHECK(nsnap > 0);
            if (nsnap == 0) return -1;
            CHECK(snap_step[nsnap - 1] == step);
            x = snap_x[nsnap - 1]; cur = step; stale = 0;
            if (action == AD_BINOMIAL_POP_SNAPSHOT) nsnap--;
            break;
        case AD_BINOMIAL_ADVANCE:
            CHECK(!stale && step > cur);
            for (; cur < step; cur++) { x = step_map(x, cur); advances++; }
            break;
        case AD_BINOMIAL_FIRST_TURN:
        case AD_BINOMIAL_TURN:
            CHECK(!stale && step == cur);
            CHECK(step == next_turn);
            CHECK((action == AD_BINOMIAL_FIRST_TURN) == (step == first + steps - 1));
            if (step >= first && step < first + steps) CHECK(x == truth[step - first]);
            if (nested) { /* an inner time loop inside this turn */
                long long inner = run_schedule(5 + step % 4, 2, 1, 0);
                CHECK(inner == optimal_advances(5 + step % 4, 2));
            }
            next_turn--;
            stale = 1; x = 0; /* the taped sweep leaves the state unusable */
            break;
        default:
            CHECK(!"unknown action");
            return -1;
        }
        if (failures) return -1;
    }
    CHECK(action == 0 && step == 0);
    CHECK(next_turn == first - 1); /* every step turned once, in reverse */
    CHECK(nsnap == 0);             /* every snapshot popped */
    CHECK(maxsnap <= snaps || (snaps < 1 && maxsnap <= 1));
    CHECK(adBinomial_advanceCount() == advances);
    return advances;
}

static void test_binomial(void)
{
    /* dp[l][s]: minimal forward steps to reverse l steps holding s snapshots
     * (one of them on the initial state): advance m, reverse the tail with
     * s-1, then the head with s. */
    enum { L = 60, S = 6 };
    static long long dp[L + 1][S + 1];
    int l, s, first;
    for (s = 1; s <= S; s++) {
        dp[1][s] = 0;
        for (l = 2; l <= L; l++) {
            long long best = -1;
            int m;
            for (m = 1; m < l; m++) {
                long long c;
                if (s == 1 && l - m > 1) continue; /* tail needs a snapshot */
                c = m + (s > 1 ? dp[l - m][s - 1] : 0) + dp[m][s];
                if (best < 0 || c < best) best = c;
            }
            dp[l][s] = best;
        }
    }
    /* hand-checked values of the closed form */
    CHECK(optimal_advances(1, 1) == 0);
    CHECK(optimal_advances(2, 1) == 1);  /* push 0, advance 0->1, turn 1, pop 0, turn 0 */
    CHECK(optimal_advances(3, 1) == 3);  /* 2 + 1 */
    CHECK(optimal_advances(5, 2) == 6);  /* 0->2, 2->4, 2->3, 0->1 */
    CHECK(optimal_advances(10, 3) == 15); /* r = 2: 2*10 - C(5,4) */
    for (s = 1; s <= S; s++)
        for (l = 1; l <= L; l++) CHECK(dp[l][s] == optimal_advances(l, s));

    /* every schedule: correct turns and states, snapshot bound, optimal */
    for (first = -3; first <= 1; first += 2)
        for (s = 1; s <= S; s++)
            for (l = 1; l <= L; l++) {
                long long adv = run_schedule(l, s, first, 0);
                CHECK(adv == optimal_advances(l, s));
                if (failures) { printf("  (steps=%d snaps=%d first=%d)\n", l, s, first); return; }
            }
    /* larger ones, and more snapshots than steps */
    CHECK(run_schedule(200, 3, 1, 0) == optimal_advances(200, 3));
    CHECK(run_schedule(200, 10, 0, 0) == optimal_advances(200, 10));
    CHECK(run_schedule(7, 20, 1, 0) == 6);
    CHECK(run_schedule(1, 1, 1, 0) == 0);
    CHECK(run_schedule(6, 0, 1, 0) == optimal_advances(6, 1)); /* snaps < 1 means 1 */
    /* an empty loop has an empty schedule */
    {
        int action = -1, step = -1;
        adBinomial_init(0, 3, 1);
        CHECK(adBinomial_next(&action, &step) == 0);
    }
    /* nested sessions: an inner schedule inside each turn of an outer one */
    CHECK(run_schedule(20, 3, 1, 1) == optimal_advances(20, 3));

    /* the exact action sequence of a small case, checked by hand: steps 1..4,
     * 2 snapshots; ADVANCE runs 1 + 2 + 1 = 4 steps, the optimum
     * 2*4 - C(4,3) = 4 (storing nothing else, 1 snapshot would need 6).
     * Each ADVANCE is one step (ADFirstAidKit's meaning). */
    {
        static const int want[][2] = {
            {AD_BINOMIAL_PUSH_SNAPSHOT, 1}, /* x_1 saved                    */
            {AD_BINOMIAL_ADVANCE, 2},       /* run step 1                   */
            {AD_BINOMIAL_PUSH_SNAPSHOT, 2}, /* x_2 saved (2 held)           */
            {AD_BINOMIAL_ADVANCE, 3},       /* run step 2                   */
            {AD_BINOMIAL_ADVANCE, 4},       /* run step 3                   */
            {AD_BINOMIAL_FIRST_TURN, 4},    /* taped step 4 + its adjoint   */
            {AD_BINOMIAL_LOOK_SNAPSHOT, 2}, /* back to x_2, keep it         */
            {AD_BINOMIAL_ADVANCE, 3},       /* run step 2                   */
            {AD_BINOMIAL_TURN, 3},
            {AD_BINOMIAL_POP_SNAPSHOT, 2},  /* back to x_2, last use        */
            {AD_BINOMIAL_TURN, 2},
            {AD_BINOMIAL_POP_SNAPSHOT, 1},
            {AD_BINOMIAL_TURN, 1},
        };
        int n = (int)(sizeof want / sizeof want[0]), i = 0, action, step;
        adBinomial_init(4, 2, 1);
        while (adBinomial_next(&action, &step)) {
            CHECK(i < n);
            if (i >= n) break;
            CHECK(action == want[i][0] && step == want[i][1]);
            i++;
        }
        CHECK(i == n);
        CHECK(adBinomial_advanceCount() == 4);
    }

    /* every ADVANCE is exactly one step, for every schedule */
    for (s = 1; s <= 4; s++)
        for (l = 1; l <= 30; l++) {
            int action, step, cur = 1;
            adBinomial_init(l, s, 1);
            while (adBinomial_next(&action, &step)) {
                if (action == AD_BINOMIAL_ADVANCE) CHECK(step == cur + 1);
                cur = step;
            }
        }

    /* early exit: a loop declared with 10 steps (the last one the empty exit
     * of the loop, as Tapenade's nsteps+1) that runs only l iterations: the
     * ADVANCE of step l+1 finds the loop finished and resizes (no resize when
     * l == 9); then the exit step l+1 is the FIRST_TURN and l .. 1 follow */
    for (s = 1; s <= 4; s++)
        for (l = 0; l <= 9; l++) {
            int action, step, cur = 1, truelen = l, next_turn = -1, nsnap = 0, resized = 0;
            int snap_at[16];
            adBinomial_init(10, s, 1);
            while (adBinomial_next(&action, &step)) {
                switch (action) {
                case AD_BINOMIAL_PUSH_SNAPSHOT:
                    CHECK(step == cur && nsnap < 16);
                    if (nsnap < 16) snap_at[nsnap++] = step;
                    break;
                case AD_BINOMIAL_LOOK_SNAPSHOT:
                case AD_BINOMIAL_POP_SNAPSHOT:
                    CHECK(nsnap > 0 && snap_at[nsnap - 1] == step);
                    if (action == AD_BINOMIAL_POP_SNAPSHOT) nsnap--;
                    cur = step;
                    break;
                case AD_BINOMIAL_ADVANCE:
                    CHECK(step == cur + 1);
                    if (cur > truelen) { /* loop condition false: not run */
                        CHECK(!resized);
                        adBinomial_resize();
                        resized = 1;
                    } else {
                        cur = step;
                    }
                    break;
                case AD_BINOMIAL_FIRST_TURN:
                    CHECK(resized == (l < 9) && step == cur && step == truelen + 1);
                    next_turn = step - 1;
                    break;
                case AD_BINOMIAL_TURN:
                    CHECK(step == cur && step == next_turn);
                    next_turn--;
                    break;
                }
                if (failures) break;
            }
            CHECK(next_turn == 0 && nsnap == 0);
            if (failures) { printf("  (resize: true length %d snaps %d)\n", l, s); return; }
        }

    /* Fortran aliases */
    {
        int steps = 3, snaps = 1, first = 1, action, step, nturn = 0;
        adbinomial_init_(&steps, &snaps, &first);
        while (adbinomial_next_(&action, &step))
            if (action == AD_BINOMIAL_TURN || action == AD_BINOMIAL_FIRST_TURN) nturn++;
        CHECK(nturn == 3);
        CHECK(adbinomial_advancecount_() == 3);
        steps = 5;
        adbinomial_init_(&steps, &snaps, &first);
        while (adbinomial_next_(&action, &step))
            if (action == AD_BINOMIAL_ADVANCE && step == 3) adbinomial_resize_();
        CHECK(adbinomial_advancecount_() == 1);
    }
}

/* -------------------------------------------------------------- FP-LOOP */

/* adFixedPoint_next: a norm halving each iteration stops once it is at most
 * eps times the largest seen; one that stagnates stops at the cap (with the
 * warning on stderr); addNorm sums squares. */
static void test_fixed_point(void)
{
    double a[3] = {1.0, 2.0, 2.0}, n2 = 0.0, max2, norm;
    int more = 1, iter = 0;
    adFixedPoint_addNorm(&n2, a, 3);
    CHECK(n2 == 9.0);
    max2 = 1.0;
    norm = 1.0;
    while (more) {
        norm *= 0.5;
        adFixedPoint_next(&more, norm * norm, &max2, 1e-3, &iter, 7);
    }
    CHECK(iter == 10); /* 2^-10 <= 1e-3 < 2^-9 */
    CHECK(max2 == 1.0);
    more = 1;
    iter = 0;
    while (more) adFixedPoint_next(&more, 1.0, &max2, 1e-3, &iter, 7);
    CHECK(iter == AD_FIXEDPOINT_MAX_ITER);
    more = 1;
    iter = 0;
    max2 = 0.0;
    adFixedPoint_next(&more, 0.0, &max2, 1e-3, &iter, 7);
    CHECK(more == 0 && iter == 1);
}

/* ------------------------------------------------------------------ main */

int main(void)
{
    test_statistics();
    test_scalars();
    test_arrays();
    test_interleave();
    random_walk(1, 200000, 0);
    random_walk(2, 200000, 1);
    random_walk(3, 200000, 1);
    test_blocks();
    test_repeat();
    test_binomial();
    test_fixed_point();

    adStack_reset();
    adStack_showStack("end of tests");
    adStack_showPeakSize();
    adStack_showTotalTraffic();
    printf("block size %llu bytes: %ld checks, %ld failed\n", (unsigned long long)BLOCK, checks,
           failures);
    return failures ? 1 : 0;
}
