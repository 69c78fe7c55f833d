/*
 * adStack.c -- the push/pop stack of the radtap runtime.  See adStack.h for
 * the contract; this comment describes the implementation.
 *
 * POSITIONS.  The stack is one byte stream laid over blocks of BLOCK bytes:
 * physical position p lives in block p / BLOCK at offset p % BLOCK.  The top
 * is cached as (cur_blk, cur_off, cur_base = blocks[cur_blk]); a position that
 * is an exact multiple of BLOCK is kept as (previous block, offset BLOCK), so
 * the cached block always exists once anything was pushed.  Blocks are never
 * freed: after pops they are reused by later pushes.
 *
 * INTERVALS.  Normally the live data is the single range [0, top).  Repeat
 * marks add one complication: a push made while the top is below protected
 * data (data a pending adStack_resetRepeat() must be able to re-read) must not
 * overwrite it, so it is written at protect_hi, the end of the protected data,
 * instead.  The live data is then a list of physical intervals
 *   [iv_start[0]=0, iv_end[0]), [iv_start[1], iv_end[1]), ..., [iv_start[k], top)
 * with strictly increasing positions; a pop that reaches the start of the last
 * interval continues at the end of the previous one.  Without repeat marks the
 * list always has exactly one interval.
 *
 * FAST PATHS.  push_lim and pop_floor are offsets within the current block
 * that bound what the inline fast paths may touch:
 *   push fast path:  cur_off + n <= push_lim   (push_lim = BLOCK, or 0 when
 *                    the top is inside protected data or no block exists);
 *   pop fast path:   pop_floor + n <= cur_off  (pop_floor = start of the last
 *                    interval or protect_hi, whichever is higher and at or
 *                    below the top, clipped to this block).
 * Everything else (block changes, interval changes, crossing protect_hi) goes
 * through push_slow / pop_slow, which end with refresh() to recompute the
 * bounds.  So the fast paths are a compare, a memcpy and an add.
 *
 * CONTROL BITS.  pushControlNb shifts N bits into the 64-bit accumulator
 * ctl_acc (ctl_n bits used).  When it holds exactly 64 bits it is written as
 * one 8-byte word onto the byte stream ("spilled") and emptied.  A pop takes
 * the low bits of the accumulator and, when it holds fewer bits than asked,
 * reloads the spilled word from the byte stream.  A value of N bits that does
 * not fit in the current word is split: its high bits complete the word, its
 * low bits start the next one; the pop reassembles them in mirror order.
 */
#include "adStack.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Block size in bytes; the tests compile with -DADSTACK_BLOCK_BYTES=4096 to
 * exercise block boundaries cheaply. */
#ifndef ADSTACK_BLOCK_BYTES
#define ADSTACK_BLOCK_BYTES (16u * 1024u * 1024u)
#endif
#define BLOCK ((size_t)(ADSTACK_BLOCK_BYTES))

/* ------------------------------------------------------------------ state */

/* THREADS.  Compiled with OpenMP (-fopenmp defines _OPENMP), each thread has
 * its own stack: the state below is thread-local.  Generated adjoints push and
 * pop inside a parallel loop only within one iteration (issue 45), so each
 * thread's pushes and pops balance on its own stack; outside parallel regions
 * the program's one thread uses the stack as before. */
#ifdef _OPENMP
#define AD_TLS _Thread_local
#else
#define AD_TLS
#endif

static AD_TLS char **blocks = NULL;        /* blocks[0 .. nblocks) */
static AD_TLS size_t nblocks = 0, blocks_cap = 0;

static AD_TLS char *cur_base = NULL;       /* blocks[cur_blk], or NULL if none yet */
static AD_TLS size_t cur_blk = 0;
static AD_TLS size_t cur_off = 0;          /* 0 .. BLOCK */
static AD_TLS size_t push_lim = 0;         /* see FAST PATHS */
static AD_TLS size_t pop_floor = 0;

#define IV_INIT 16
static AD_TLS size_t iv_init_start[IV_INIT], iv_init_end[IV_INIT];
/* Thread-local: no address constant can start them, so NULL stands for the
 * initial arrays. */
static AD_TLS size_t *iv_start_p = NULL, *iv_end_p = NULL;
#define iv_start (iv_start_p ? iv_start_p : iv_init_start)
#define iv_end (iv_end_p ? iv_end_p : iv_init_end)
static AD_TLS size_t n_iv = 1, iv_cap = IV_INIT; /* iv_start[0] == 0 always */

static AD_TLS size_t protect_hi = 0;       /* data below this may be re-read */

typedef struct {
    size_t top;                     /* physical top at the mark */
    size_t n_iv;                    /* interval list at the mark ...      */
    size_t *iv;                     /* ... starts[n_iv] then ends[n_iv-1] */
    size_t iv_cap;                  /* entries iv holds: kept for the next mark
                                       in this slot, so marks allocate only when
                                       the interval list grows */
    size_t old_protect;             /* protect_hi before the mark */
    size_t bytes;                   /* cur_bytes at the mark */
    unsigned long long acc;         /* control accumulator at the mark */
    unsigned ctl_n;
} Mark;
static AD_TLS Mark *marks = NULL;
static AD_TLS size_t n_marks = 0, marks_cap = 0;

static AD_TLS unsigned long long ctl_acc = 0; /* control bits, newest in low bits */
static AD_TLS unsigned ctl_n = 0;             /* bits used in ctl_acc, 0 .. 63 */

static AD_TLS size_t cur_bytes = 0;           /* statistics, see adStack.h */
static AD_TLS size_t peak_bytes = 0;
static AD_TLS unsigned long long traffic = 0;

/* ---------------------------------------------------------------- errors */

static void out_of_memory(void)
{
    fprintf(stderr, "radtap runtime: out of memory for the AD stack (%llu bytes in use)\n",
            (unsigned long long)nblocks * (unsigned long long)BLOCK);
    abort();
}

static void fatal(const char *msg)
{
    fprintf(stderr, "radtap runtime: %s\n", msg);
    abort();
}

void adStack_fatal(const char *msg)
{
    fatal(msg);
}

static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n);
    if (q == NULL) out_of_memory();
    return q;
}

/* -------------------------------------------------------------- positions */

static void ensure_block(size_t b)
{
    while (nblocks <= b) {
        char *p;
        if (nblocks == blocks_cap) {
            blocks_cap = blocks_cap ? 2 * blocks_cap : 64;
            blocks = (char **)xrealloc(blocks, blocks_cap * sizeof *blocks);
        }
        p = (char *)malloc(BLOCK);
        if (p == NULL) out_of_memory();
        blocks[nblocks++] = p;
    }
}

static size_t top_pos(void) { return cur_blk * BLOCK + cur_off; }

static void set_pos(size_t p)
{
    cur_blk = p / BLOCK;
    cur_off = p % BLOCK;
    if (cur_off == 0 && cur_blk > 0) { cur_blk--; cur_off = BLOCK; }
}

/* Recompute cur_base, push_lim and pop_floor from the top position. */
static void refresh(void)
{
    size_t top = top_pos(), base = cur_blk * BLOCK, floor;
    cur_base = cur_blk < nblocks ? blocks[cur_blk] : NULL;
    if (cur_base == NULL) { push_lim = 0; pop_floor = cur_off; return; }
    floor = iv_start[n_iv - 1];
    if (top < protect_hi) {
        push_lim = 0;
    } else {
        push_lim = BLOCK;
        if (protect_hi > floor) floor = protect_hi;
    }
    pop_floor = floor > base ? floor - base : 0;
}

static void ensure_iv(size_t n)
{
    size_t *s, *e;
    if (n <= iv_cap) return;
    while (iv_cap < n) iv_cap *= 2;
    s = (size_t *)malloc(iv_cap * sizeof *s);
    e = (size_t *)malloc(iv_cap * sizeof *e);
    if (s == NULL || e == NULL) out_of_memory();
    memcpy(s, iv_start, n_iv * sizeof *s);
    memcpy(e, iv_end, n_iv * sizeof *e);
    if (iv_start != iv_init_start) { free(iv_start); free(iv_end); }
    iv_start_p = s;
    iv_end_p = e;
}

/* ------------------------------------------------------- raw byte stream */

static void push_slow(const char *src, size_t n)
{
    if (top_pos() < protect_hi) {
        /* The top is inside data a pending resetRepeat will re-read: open a
         * new interval above all protected data. */
        ensure_iv(n_iv + 1);
        iv_end[n_iv - 1] = top_pos();
        iv_start[n_iv++] = protect_hi;
        set_pos(protect_hi);
    }
    while (n > 0) {
        size_t k;
        if (cur_off == BLOCK) { cur_blk++; cur_off = 0; }
        ensure_block(cur_blk);
        cur_base = blocks[cur_blk];
        k = BLOCK - cur_off;
        if (k > n) k = n;
        memcpy(cur_base + cur_off, src, k);
        cur_off += k;
        src += k;
        n -= k;
    }
    refresh();
}

static void pop_slow(char *dst, size_t n)
{
    while (n > 0) {
        size_t top = top_pos(), start = iv_start[n_iv - 1], base, lo, k;
        if (top == start) {
            if (n_iv == 1) fatal("pop from an empty AD stack (pushes and pops do not match)");
            n_iv--;
            set_pos(iv_end[n_iv - 1]);
            continue;
        }
        if (cur_off == 0) { cur_blk--; cur_off = BLOCK; continue; }
        cur_base = blocks[cur_blk];
        base = cur_blk * BLOCK;
        lo = start > base ? start - base : 0;
        k = cur_off - lo;
        if (k > n) k = n;
        cur_off -= k;
        n -= k;
        memcpy(dst + n, cur_base + cur_off, k); /* bytes come off the end first */
    }
    refresh();
}

static inline void stack_write(const void *src, size_t n)
{
    if (cur_off + n <= push_lim) {
        memcpy(cur_base + cur_off, src, n);
        cur_off += n;
    } else {
        push_slow((const char *)src, n);
    }
}

static inline void stack_read(void *dst, size_t n)
{
    if (pop_floor + n <= cur_off) {
        cur_off -= n;
        memcpy(dst, cur_base + cur_off, n);
    } else {
        pop_slow((char *)dst, n);
    }
}

/* The state a look must restore after reading through pop. */
typedef struct {
    size_t blk, off, n_iv, bytes;
    unsigned long long acc;
    unsigned ctl_n;
} Saved;

static void save_state(Saved *s)
{
    s->blk = cur_blk; s->off = cur_off; s->n_iv = n_iv; s->bytes = cur_bytes;
    s->acc = ctl_acc; s->ctl_n = ctl_n;
}

static void restore_state(const Saved *s)
{
    cur_blk = s->blk; cur_off = s->off; n_iv = s->n_iv; cur_bytes = s->bytes;
    ctl_acc = s->acc; ctl_n = s->ctl_n;
    refresh();
}

/* ------------------------------------------------- counted value traffic */

static inline void count_push(size_t n)
{
    cur_bytes += n;
    traffic += n;
    if (cur_bytes > peak_bytes) peak_bytes = cur_bytes;
}

static inline void push_bytes(const void *src, size_t n)
{
    stack_write(src, n);
    count_push(n);
}

static inline void pop_bytes(void *dst, size_t n)
{
    stack_read(dst, n);
    cur_bytes -= n;
}

static void look_bytes(void *dst, size_t n)
{
    if (pop_floor + n <= cur_off) {
        memcpy(dst, cur_base + cur_off - n, n);
    } else {
        Saved s;
        save_state(&s);
        pop_bytes(dst, n);
        restore_state(&s);
    }
}

/* ----------------------------------------------------------- control bits */

#define LOW_BITS(v, n) ((v) & ((1ull << (n)) - 1ull)) /* n < 64 */

static void ctl_push_slow(unsigned nbits, unsigned long long v)
{
    unsigned k = 64u - ctl_n;  /* room left in the word: 1 .. nbits */
    unsigned r = nbits - k;    /* bits for the next word: 0 .. nbits-1 */
    ctl_acc = (ctl_acc << k) | (v >> r);
    stack_write(&ctl_acc, 8); /* spill: the word was counted when begun */
    ctl_acc = 0;
    ctl_n = 0;
    if (r > 0) {
        count_push(8);
        ctl_acc = LOW_BITS(v, r);
        ctl_n = r;
    }
}

static inline void ctl_push(unsigned nbits, int cc)
{
    unsigned long long v = LOW_BITS((unsigned long long)(unsigned)cc, nbits);
    if (ctl_n == 0) count_push(8);
    if (ctl_n + nbits < 64u) {
        ctl_acc = (ctl_acc << nbits) | v;
        ctl_n += nbits;
    } else {
        ctl_push_slow(nbits, v);
    }
}

static int ctl_pop_slow(unsigned nbits)
{
    unsigned m = ctl_n;        /* bits still in the word: 0 .. nbits */
    unsigned r = nbits - m;    /* bits to take from the spilled word below */
    unsigned long long low = LOW_BITS(ctl_acc, m), high;
    if (m > 0) cur_bytes -= 8; /* this word is now empty */
    ctl_acc = 0;
    ctl_n = 0;
    if (r == 0) return (int)low;
    stack_read(&ctl_acc, 8);  /* reload; it stays counted as a live word */
    high = LOW_BITS(ctl_acc, r);
    ctl_acc >>= r;
    ctl_n = 64u - r;
    return (int)((high << m) | low);
}

static inline int ctl_pop(unsigned nbits)
{
    if (ctl_n > nbits) {
        int v = (int)LOW_BITS(ctl_acc, nbits);
        ctl_acc >>= nbits;
        ctl_n -= nbits;
        return v;
    }
    return ctl_pop_slow(nbits);
}

static int ctl_look(unsigned nbits)
{
    Saved s;
    int v;
    if (ctl_n >= nbits) return (int)LOW_BITS(ctl_acc, nbits);
    save_state(&s);
    v = ctl_pop(nbits);
    restore_state(&s);
    return v;
}

/* ------------------------------------------------------------ typed API */

/* Scalars: C API by value, Fortran alias by address.  Generates e.g.
 * pushReal8 popReal8 lookReal8 pushreal8_ popreal8_ lookreal8_. */
#define AD_SCALAR(Name, fname, T)                                        \
    void push##Name(T v) { push_bytes(&v, sizeof(T)); }                  \
    void pop##Name(T *v) { pop_bytes(v, sizeof(T)); }                    \
    void look##Name(T *v) { look_bytes(v, sizeof(T)); }                  \
    void push##fname##_(T *v) { push_bytes(v, sizeof(T)); }              \
    void pop##fname##_(T *v) { pop_bytes(v, sizeof(T)); }                \
    void look##fname##_(T *v) { look_bytes(v, sizeof(T)); }

/* Arrays of n elements, one memcpy per block touched.  Generates e.g.
 * pushReal8Array ... and pushreal8array_ popreal8array_ lookreal8array_. */
#define AD_ARRAY(Name, fname, T)                                                       \
    void push##Name##Array(T *x, int n) { if (n > 0) push_bytes(x, (size_t)n * sizeof(T)); } \
    void pop##Name##Array(T *x, int n) { if (n > 0) pop_bytes(x, (size_t)n * sizeof(T)); }   \
    void look##Name##Array(T *x, int n) { if (n > 0) look_bytes(x, (size_t)n * sizeof(T)); } \
    void push##fname##array_(T *x, int *n) { push##Name##Array(x, *n); }              \
    void pop##fname##array_(T *x, int *n) { pop##Name##Array(x, *n); }                \
    void look##fname##array_(T *x, int *n) { look##Name##Array(x, *n); }

AD_SCALAR(Real4, real4, float)
AD_SCALAR(Real8, real8, double)
AD_SCALAR(Integer4, integer4, int)
AD_SCALAR(Integer8, integer8, long long)
AD_SCALAR(Integer2, integer2, short)
AD_SCALAR(Boolean, boolean, int)
AD_SCALAR(Character, character, char)
AD_SCALAR(Complex8, complex8, ccmplx)
AD_SCALAR(Complex16, complex16, cdcmplx)
AD_SCALAR(Real16, real16, long double)
AD_SCALAR(Complex32, complex32, cqcmplx)

void pushPointer8(void *v) { push_bytes(&v, sizeof v); }
void popPointer8(void **v) { pop_bytes(v, sizeof *v); }
void lookPointer8(void **v) { look_bytes(v, sizeof *v); }
void pushpointer8_(void **v) { push_bytes(v, sizeof *v); }
void poppointer8_(void **v) { pop_bytes(v, sizeof *v); }
void lookpointer8_(void **v) { look_bytes(v, sizeof *v); }

/* pushPointer4/popPointer4: Tapenade's names for pointers on 32-bit
 * targets.  A pointer is stored whole (sizeof(void *) bytes) so that the pair
 * restores it exactly on any target. */
void pushPointer4(void *v) { push_bytes(&v, sizeof v); }
void popPointer4(void **v) { pop_bytes(v, sizeof *v); }
void pushpointer4_(void **v) { push_bytes(v, sizeof *v); }
void poppointer4_(void **v) { pop_bytes(v, sizeof *v); }

/* Single bits (ADFirstAidKit's pushBit/popBit): one control bit. */
void pushBit(int x) { ctl_push(1, x != 0); }
int popBit(void) { return ctl_pop(1); }

AD_ARRAY(Real4, real4, float)
AD_ARRAY(Real8, real8, double)
AD_ARRAY(Integer4, integer4, int)
AD_ARRAY(Integer8, integer8, long long)
AD_ARRAY(Integer2, integer2, short)
AD_ARRAY(Boolean, boolean, int)
AD_ARRAY(Character, character, char)
AD_ARRAY(Complex8, complex8, ccmplx)
AD_ARRAY(Complex16, complex16, cdcmplx)
AD_ARRAY(Real16, real16, long double)
AD_ARRAY(Complex32, complex32, cqcmplx)

/* Control bits.  Generates pushControlNb popControlNb lookControlNb and
 * pushcontrolNb_ popcontrolNb_ lookcontrolNb_. */
#define AD_CONTROL(N)                                                     \
    void pushControl##N##b(int cc) { ctl_push(N, cc); }                   \
    void popControl##N##b(int *cc) { *cc = ctl_pop(N); }                  \
    void lookControl##N##b(int *cc) { *cc = ctl_look(N); }                \
    void pushcontrol##N##b_(int *cc) { ctl_push(N, *cc); }               \
    void popcontrol##N##b_(int *cc) { *cc = ctl_pop(N); }                \
    void lookcontrol##N##b_(int *cc) { *cc = ctl_look(N); }

AD_CONTROL(1)
AD_CONTROL(2)
AD_CONTROL(3)
AD_CONTROL(4)
AD_CONTROL(5)
AD_CONTROL(6)
AD_CONTROL(7)
AD_CONTROL(8)

/* ---------------------------------------------------------- repeat marks */

void adStack_startRepeat(void)
{
    Mark *m;
    if (n_marks == marks_cap) {
        size_t old = marks_cap;
        marks_cap = marks_cap ? 2 * marks_cap : 8;
        marks = (Mark *)xrealloc(marks, marks_cap * sizeof *marks);
        memset(marks + old, 0, (marks_cap - old) * sizeof *marks);
    }
    m = &marks[n_marks++];
    m->top = top_pos();
    m->n_iv = n_iv;
    if (m->iv_cap < 2 * n_iv) {
        free(m->iv);
        m->iv_cap = 2 * n_iv < 8 ? 8 : 2 * n_iv;
        m->iv = (size_t *)malloc(m->iv_cap * sizeof *m->iv);
        if (m->iv == NULL) out_of_memory();
    }
    memcpy(m->iv, iv_start, n_iv * sizeof *m->iv);
    memcpy(m->iv + n_iv, iv_end, (n_iv - 1) * sizeof *m->iv);
    m->old_protect = protect_hi;
    m->bytes = cur_bytes;
    m->acc = ctl_acc;
    m->ctl_n = ctl_n;
    if (m->top > protect_hi) protect_hi = m->top;
    refresh();
}

void adStack_resetRepeat(void)
{
    const Mark *m;
    if (n_marks == 0) fatal("adStack_resetRepeat() without adStack_startRepeat()");
    m = &marks[n_marks - 1];
    ensure_iv(m->n_iv);
    n_iv = m->n_iv;
    memcpy(iv_start, m->iv, n_iv * sizeof *iv_start);
    memcpy(iv_end, m->iv + n_iv, (n_iv - 1) * sizeof *iv_end);
    set_pos(m->top);
    cur_bytes = m->bytes;
    ctl_acc = m->acc;
    ctl_n = m->ctl_n;
    refresh();
}

void adStack_endRepeat(void)
{
    Mark *m;
    if (n_marks == 0) fatal("adStack_endRepeat() without adStack_startRepeat()");
    m = &marks[--n_marks];
    protect_hi = m->old_protect;
    refresh();
}

/* ------------------------------------------------------------ statistics */

long long adStack_currentBytes(void) { return (long long)cur_bytes; }
long long adStack_peakBytes(void) { return (long long)peak_bytes; }
long long adStack_totalTraffic(void) { return (long long)traffic; }

void adStack_showPeakSize(void)
{
    printf("AD stack peak size: %lld bytes\n", adStack_peakBytes());
    fflush(stdout);
}

void adStack_showTotalTraffic(void)
{
    printf("AD stack total traffic: %lld bytes\n", adStack_totalTraffic());
    fflush(stdout);
}

void adStack_showStackSize(int label)
{
    printf(" %d--> <%lld bytes>", label, adStack_currentBytes());
    fflush(stdout);
}

int stackIsThreadSafe(void) { return 0; }

void adStack_showStack(const char *where)
{
    if (where != NULL) printf("AD stack at %s: ", where);
    printf("AD stack current size: %lld bytes (%llu blocks of %llu bytes allocated, %llu repeat marks)\n",
           adStack_currentBytes(), (unsigned long long)nblocks, (unsigned long long)BLOCK,
           (unsigned long long)n_marks);
    fflush(stdout);
}

void adStack_reset(void)
{
    n_marks = 0;
    protect_hi = 0;
    n_iv = 1;
    iv_start[0] = 0;
    set_pos(0);
    ctl_acc = 0;
    ctl_n = 0;
    cur_bytes = 0;
    refresh();
}

void adStack_resetStatistics(void)
{
    peak_bytes = cur_bytes;
    traffic = 0;
}

/* ------------------------------------------------------- Fortran aliases */

void adstack_startrepeat_(void) { adStack_startRepeat(); }
void adstack_resetrepeat_(void) { adStack_resetRepeat(); }
void adstack_endrepeat_(void) { adStack_endRepeat(); }
long long adstack_currentbytes_(void) { return adStack_currentBytes(); }
long long adstack_peakbytes_(void) { return adStack_peakBytes(); }
long long adstack_totaltraffic_(void) { return adStack_totalTraffic(); }
void adstack_showpeaksize_(void) { adStack_showPeakSize(); }
void adstack_showtotaltraffic_(void) { adStack_showTotalTraffic(); }
void adstack_showstack_(const char *where) { (void)where; adStack_showStack(NULL); }
void adstack_showstacksize_(int *label) { adStack_showStackSize(*label); }
int stackisthreadsafe_(void) { return stackIsThreadSafe(); }
void adstack_reset_(void) { adStack_reset(); }
void adstack_resetstatistics_(void) { adStack_resetStatistics(); }

/* ------------------------------------------------------------- FP-LOOP */

void adFixedPoint_addNorm(double *norm2, const double *a, int n)
{
    double s = 0.0;
    int i;
    for (i = 0; i < n; i++) s += a[i] * a[i];
    *norm2 += s;
}

/* sqrt without libm (the runtime links with the standard library only). */
static double fp_sqrt(double x)
{
    double r = x > 1.0 ? x : 1.0;
    int i;
    if (x <= 0.0) return 0.0;
    for (i = 0; i < 200; i++) r = 0.5 * (r + x / r);
    return r;
}

void adFixedPoint_next(int *more, double norm2, double *max2, double eps, int *iter, int line)
{
    (*iter)++;
    if (norm2 > *max2) *max2 = norm2;
    if (norm2 <= eps * eps * *max2) {
        *more = 0;
        return;
    }
    if (*iter >= AD_FIXEDPOINT_MAX_ITER) {
        fprintf(stderr,
                "radtap: warning: the adjoint of the FP-LOOP at line %d did not converge in %d "
                "iterations (relative change %.3e, asked %.3e): its derivatives are not accurate\n",
                line, *iter, *max2 > 0.0 ? fp_sqrt(norm2 / *max2) : 0.0, eps);
        *more = 0;
        return;
    }
    *more = 1;
}

void adfixedpoint_addnorm_(double *norm2, const double *a, int *n) { adFixedPoint_addNorm(norm2, a, *n); }
void adfixedpoint_next_(int *more, double *norm2, double *max2, double *eps, int *iter, int *line)
{
    adFixedPoint_next(more, *norm2, max2, *eps, iter, *line);
}
