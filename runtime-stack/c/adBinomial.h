/*
 * adBinomial.h -- binomial checkpointing schedule (revolve) for the adjoint
 * of a time-stepping loop, after Griewank & Walther, "Algorithm 799: Revolve"
 * (ACM TOMS 26(1), 2000).
 *
 * The loop to reverse runs the steps first, first+1, ..., first+steps-1
 * (e.g. first = 1 for a Fortran "DO i = 1, N", steps = N).  Write x_s for the
 * state *before* step s: step s maps x_s to x_{s+1}.  Storing every state
 * costs steps snapshots; revolve uses at most `snaps` and recomputes the rest,
 * with the minimal number of forward steps for that many snapshots.
 *
 * DRIVER.  The caller keeps its state variables and a counter `cur` (the step
 * the state variables are in front of: they hold x_cur):
 *
 *     adBinomial_init(steps, snaps, first);          cur = first
 *     while (adBinomial_next(&action, &step)) {
 *       switch (action) {
 *       case AD_BINOMIAL_PUSH_SNAPSHOT:  (step == cur) save the state x_step on
 *                                        the caller's snapshot stack
 *       case AD_BINOMIAL_LOOK_SNAPSHOT:  restore the state from the top snapshot,
 *                                        keep the snapshot; cur = step
 *       case AD_BINOMIAL_POP_SNAPSHOT:   restore the state from the top snapshot
 *                                        and drop it; cur = step
 *       case AD_BINOMIAL_ADVANCE:        (step == cur+1) run the plain primal
 *                                        step cur; cur = step.  One ADVANCE is
 *                                        always exactly one step, as in
 *                                        Tapenade's ADFirstAidKit (its generated
 *                                        code runs one iteration per ADVANCE);
 *                                        a loop that has already exited instead
 *                                        calls adBinomial_resize()
 *       case AD_BINOMIAL_FIRST_TURN:     (step == cur == first+steps-1) run the
 *                                        taped forward sweep of step `step`, then
 *                                        its backward sweep, which starts the
 *                                        adjoint of the whole loop
 *       case AD_BINOMIAL_TURN:           (step == cur) taped forward sweep of
 *                                        step `step`, then its backward sweep
 *       }
 *     }
 *
 * GUARANTEES (checked by test_runtime.c for steps 1..60, snaps 1..6):
 *  - the turns come in the order first+steps-1 (the FIRST_TURN), then
 *    first+steps-2, ..., first (TURNs): each step is turned exactly once, and
 *    the state in front of the turned step is the true x_step;
 *  - after a turn the state is stale: the next action is a LOOK or POP
 *    (or the end);
 *  - snapshots are used in LIFO order, at most `snaps` are held at any time,
 *    and all have been popped when adBinomial_next returns 0;
 *  - the number of primal steps run by ADVANCE actions is the minimum for
 *    `snaps` snapshots: with r the least integer such that
 *    C(snaps + r, snaps) >= steps, it is r*steps - C(snaps + r, snaps + 1)
 *    (steps - 1 when snaps >= steps - 1; 0 when steps == 1).  The turns run
 *    each step once more, taped.
 *
 * EARLY EXIT.  `steps` may over-estimate the trip count (Tapenade's
 * BINOMIAL-CKP passes e.g. nsteps+1: the last "step" is the empty exit of the
 * loop).  When the loop condition is already false at an ADVANCE, the caller
 * does not run the step and calls adBinomial_resize(): the current state
 * becomes the final one, the next action is the FIRST_TURN at it (the empty
 * remainder of the loop), and the schedule then reverses the steps actually
 * run, with the snapshots already taken.  Legal only right after an ADVANCE
 * issued before the first turn (the first forward sweep); otherwise it aborts.
 *
 * TAPENADE.  The action codes, the call sequence and the meaning of each
 * action are those of ADFirstAidKit's adBinomial (PUSHSNAP=1 .. TURN=6), so
 * Tapenade-generated BINOMIAL-CKP code links and runs unchanged.  That code
 * ignores `step`.  The values reported here count from `first` (the state in
 * front of step s is numbered s); Tapenade's kit ignores `first` and reports
 * states by the number of steps done, so hand-written glue that reads `step`
 * sees the same numbers for the turns when first == 1, shifted by one for the
 * snapshot and ADVANCE actions.  The schedule itself is revolve-optimal
 * (Tapenade's places its snapshots by a cheaper rule), so the sequences
 * differ while each one is a valid reversal.
 *
 * steps <= 0 gives an empty schedule; snaps < 1 is treated as 1.  A TURN
 * may contain another adBinomial_init .. adBinomial_next session (nested
 * time loops): sessions nest, and adBinomial_next works on the innermost one,
 * which is closed when it returns 0.
 *
 * Fortran: CALL ADBINOMIAL_INIT(steps, snaps, first);
 *          INTEGER ADBINOMIAL_NEXT; DO WHILE (ADBINOMIAL_NEXT(action, step) /= 0)
 *          (or LOGICAL ADBINOMIAL_NEXT, as Tapenade declares it); CALL ADBINOMIAL_RESIZE()
 */
#ifndef RADTAP_ADBINOMIAL_H
#define RADTAP_ADBINOMIAL_H

#ifdef __cplusplus
extern "C" {
#endif

#define AD_BINOMIAL_PUSH_SNAPSHOT 1
#define AD_BINOMIAL_LOOK_SNAPSHOT 2
#define AD_BINOMIAL_POP_SNAPSHOT 3
#define AD_BINOMIAL_ADVANCE 4
#define AD_BINOMIAL_FIRST_TURN 5
#define AD_BINOMIAL_TURN 6

/* Opens a schedule session for `steps` steps numbered from `first`, holding
 * at most `snaps` snapshots. */
void adBinomial_init(int steps, int snaps, int first);

/* Stores the next action and its step; returns 1, or 0 (and closes the
 * session, leaving *action and *step at 0) when the schedule is finished. */
int adBinomial_next(int *action, int *step);

/* Number of primal steps run by the ADVANCE actions of the session most
 * recently finished (the last one for which adBinomial_next returned 0);
 * 0 before any session finished.  For tests and statistics. */
long long adBinomial_advanceCount(void);

/* After an ADVANCE its loop could not run (the loop has exited): the current
 * state is the last one; see EARLY EXIT. */
void adBinomial_resize(void);

/* The next action as a subroutine: *more = adBinomial_next(action, step).
 * (radtap's generated Fortran calls it, so it declares no external function.) */
void adBinomial_step(int *more, int *action, int *step);

/* Fortran aliases. */
void adbinomial_step_(int *more, int *action, int *step);
void adbinomial_init_(int *steps, int *snaps, int *first);
int adbinomial_next_(int *action, int *step);
void adbinomial_resize_(void);
long long adbinomial_advancecount_(void);

#ifdef __cplusplus
}
#endif

#endif /* RADTAP_ADBINOMIAL_H */
