/*
 * adBinomial.c -- binomial checkpointing schedule (revolve).  See
 * adBinomial.h for the contract.
 *
 * This is the state machine of Griewank & Walther's revolve, with states
 * numbered 0 .. steps relative to `first` (state k is in front of step
 * first+k):
 *   capo   the state the caller's variables are in (or will be after the
 *          action being issued);
 *   fine   the end of the range still to reverse: steps capo .. fine-1;
 *   ch[0..check]  the states held in snapshots, increasing.
 * Each call inspects fine - capo:
 *   0   -> the range is reversed; restore the latest snapshot (LOOK, or POP
 *          when it is in front of the very next step to turn) or finish;
 *   1   -> turn step capo (FIRST_TURN the first time), fine -= 1;
 *   >=2 -> if no snapshot holds capo, take one (PUSH); otherwise ADVANCE to
 *          the binomially optimal split point between capo and fine, one
 *          step per ADVANCE action (target holds the split point meanwhile).
 * revolve itself releases a snapshot at the turn that follows its last
 * restore; issuing POP instead of LOOK at that restore is equivalent, and
 * lets the caller free the snapshot then.
 */
#include "adBinomial.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct {
    int first, steps, snaps;
    int capo, fine, check;
    int turned;           /* a FIRST_TURN was issued */
    int target;           /* state an advance in progress goes to, or -1 */
    int last;             /* the last action issued (0 before the first) */
    int *ch;              /* ch[0 .. snaps) */
    long long advances;   /* primal steps issued by ADVANCE */
} Session;

static Session *sessions = NULL;
static int n_sessions = 0, sessions_cap = 0;
static long long last_advances = 0;

static void fatal(const char *msg)
{
    fprintf(stderr, "radtap runtime: %s\n", msg);
    abort();
}

void adBinomial_init(int steps, int snaps, int first)
{
    Session *s;
    if (n_sessions == sessions_cap) {
        Session *p;
        sessions_cap = sessions_cap ? 2 * sessions_cap : 8;
        p = (Session *)realloc(sessions, (size_t)sessions_cap * sizeof *p);
        if (p == NULL) fatal("out of memory for the binomial checkpointing schedule");
        sessions = p;
    }
    s = &sessions[n_sessions++];
    if (steps < 0) steps = 0;
    if (snaps < 1) snaps = 1;
    if (snaps > steps && steps > 0) snaps = steps; /* more can never be used */
    s->first = first;
    s->steps = steps;
    s->snaps = snaps;
    s->capo = 0;
    s->fine = steps;
    s->check = -1;
    s->turned = 0;
    s->target = -1;
    s->last = 0;
    s->advances = 0;
    s->ch = (int *)malloc((size_t)snaps * sizeof *s->ch);
    if (s->ch == NULL) fatal("out of memory for the binomial checkpointing schedule");
}

/* The revolve split: the state to advance to from capo when ds snapshots
 * (counting the one holding capo) are available for the range capo..fine. */
static int split_point(int capo, int fine, int ds)
{
    long long len = (long long)fine - capo, reps = 0, range = 1;
    long long bino1, bino2, bino3, bino4, bino5, next;
    /* least reps with range = C(ds + reps, ds) >= len */
    while (range < len) {
        reps += 1;
        range = range * (reps + ds) / reps;
    }
    bino1 = range * reps / (ds + reps);                       /* C(ds+reps-1, ds)   */
    bino2 = ds > 1 ? bino1 * ds / (ds + reps - 1) : 1;        /* C(ds+reps-2, ds-1) */
    if (ds == 1) bino3 = 0;
    else bino3 = ds > 2 ? bino2 * (ds - 1) / (ds + reps - 2) : 1; /* C(ds+reps-3, ds-2) */
    bino4 = bino2 * (reps - 1) / ds;                          /* C(ds+reps-2, ds)   */
    if (ds < 3) bino5 = 0;
    else bino5 = ds > 3 ? bino3 * (ds - 2) / reps : 1;        /* C(ds+reps-3, ds-3) */
    if (len <= bino1 + bino3) next = capo + bino4;
    else if (len >= range - bino5) next = capo + bino1;
    else next = fine - bino2 - bino3;
    if (next <= capo) next = capo + 1;
    if (next >= fine) next = fine - 1;
    return (int)next;
}

int adBinomial_next(int *action, int *step)
{
    Session *s;
    if (n_sessions == 0) fatal("adBinomial_next() without adBinomial_init()");
    s = &sessions[n_sessions - 1];
    if (s->target > s->capo) {
        /* an advance in progress: one primal step per ADVANCE, as
         * Tapenade's generated code runs exactly one iteration for it */
        s->capo++;
        s->advances++;
        if (s->capo == s->target) s->target = -1;
        *action = s->last = AD_BINOMIAL_ADVANCE;
        *step = s->first + s->capo;
        return 1;
    }
    s->target = -1;
    if (s->fine == s->capo) {
        if (s->check < 0) {
            /* all steps reversed (or none to reverse): close the session */
            last_advances = s->advances;
            free(s->ch);
            n_sessions--;
            *action = 0;
            *step = 0;
            return 0;
        }
        s->capo = s->ch[s->check];
        *step = s->first + s->capo;
        if (s->fine - s->capo <= 1) {
            /* last use (or, after adBinomial_resize, a snapshot of the final
             * state, which nothing needs any more) */
            *action = s->last = AD_BINOMIAL_POP_SNAPSHOT;
            s->check--;
        } else {
            *action = s->last = AD_BINOMIAL_LOOK_SNAPSHOT;
        }
        return 1;
    }
    if (s->fine - s->capo == 1) {
        s->fine--;
        *step = s->first + s->capo;
        *action = s->last = s->turned ? AD_BINOMIAL_TURN : AD_BINOMIAL_FIRST_TURN;
        s->turned = 1;
        return 1;
    }
    if (s->check < 0 || s->ch[s->check] != s->capo) {
        if (s->check + 1 >= s->snaps) fatal("binomial checkpointing ran out of snapshots (internal error)");
        s->ch[++s->check] = s->capo;
        *action = s->last = AD_BINOMIAL_PUSH_SNAPSHOT;
        *step = s->first + s->capo;
        return 1;
    }
    s->target = split_point(s->capo, s->fine, s->snaps - s->check);
    return adBinomial_next(action, step); /* its first single step */
}

void adBinomial_resize(void)
{
    Session *s;
    if (n_sessions == 0) fatal("adBinomial_resize() without adBinomial_init()");
    s = &sessions[n_sessions - 1];
    if (s->last != AD_BINOMIAL_ADVANCE)
        fatal("adBinomial_resize() must follow the ADVANCE its loop could not run");
    if (s->turned || s->fine != s->steps)
        fatal("adBinomial_resize(): the loop exits earlier than when it first ran "
              "(an ADVANCE that recomputes a step must be able to run it)");
    /* The step of that ADVANCE (capo-1 -> capo) was not run: the loop is
     * finished in state capo-1.  That state becomes the last one, in front of
     * the empty exit step, which is the FIRST_TURN; the snapshots already
     * taken are all in front of it. */
    s->capo--;
    s->advances--;
    s->target = -1;
    s->fine = s->capo + 1;
    s->steps = s->fine;
    s->last = 0;
}

long long adBinomial_advanceCount(void)
{
    return last_advances;
}

void adBinomial_step(int *more, int *action, int *step) { *more = adBinomial_next(action, step); }
void adbinomial_step_(int *more, int *action, int *step) { adBinomial_step(more, action, step); }
void adbinomial_init_(int *steps, int *snaps, int *first) { adBinomial_init(*steps, *snaps, *first); }
int adbinomial_next_(int *action, int *step) { return adBinomial_next(action, step); }
void adbinomial_resize_(void) { adBinomial_resize(); }
long long adbinomial_advancecount_(void) { return adBinomial_advanceCount(); }
