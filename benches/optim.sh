#!/usr/bin/env bash
# Optimisation before differentiation (issue 47): each kernel's gradient with radtap's
# optimisation and with it turned off (`-nooptim NAME`), and their ratio (< 1: faster with it).
#   hoistexpressions  y[i] = x[i] * exp(a * b) / sqrt(c * c + a) + x[i] * x[i] / (a * c)
#   sharecommon       a Gaussian and its derivative in two statements sharing exp(...), in a
#                     helper called per point (sharing is not done in loop bodies)
#   inlinehelpers     a loss calling a polynomial helper cubic(x[i], w, b, 0.5)
# Times are the least of REPEAT (5) gradients at n (default 10^6), CPU time, gcc -O3; the
# gradients of the two variants are checked equal to 1e-10 (relative: the adjoint sums
# its contributions in another order).
#
# Usage:  benches/optim.sh [n]
# Environment: RADTAP=path (default target/release/radtap, built if missing), KEEP=1, REPEAT.
set -euo pipefail
orig_pwd=$PWD
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
KEEP=${KEEP:-0}
REPEAT=${REPEAT:-5}
die() { echo "optim.sh: error: $*" >&2; exit 1; }
command -v gcc >/dev/null 2>&1 || die "'gcc' not found (apt-get install gcc)"
if [[ -n ${RADTAP:-} ]]; then
    if [[ $RADTAP != /* && -e $orig_pwd/$RADTAP ]]; then RADTAP=$orig_pwd/$RADTAP; fi
    [[ -x $RADTAP ]] || die "RADTAP=$RADTAP is not an executable file"
else
    RADTAP=target/release/radtap
    [[ -x $RADTAP ]] || { echo "optim.sh: building $RADTAP" >&2; cargo build --release -q; }
fi
[[ $RADTAP == /* ]] || RADTAP=$root/$RADTAP
n=${1:-1000000}
work=$(mktemp -d "${TMPDIR:-/tmp}/radtap-optim-bench.XXXXXX")
((KEEP)) || trap 'rm -rf "$work"' EXIT
cd "$work"
"$RADTAP" runtime -O . >/dev/null 2>&1
gcc -O2 -c adStack.c adBinomial.c
cat > hoist.c <<'C'
#include <math.h>
void hoist(double *restrict y, const double *restrict x, double a, double b, double c, int n) {
    for (int i = 0; i < n; i++)
        y[i] = x[i] * exp(a * b) / sqrt(c * c + a) + x[i] * x[i] / (a * c);
}
C
cat > share.c <<'C'
#include <math.h>
static void gauss1(double x, double mu, double s, double *g, double *dg) {
    *g = exp(-(x - mu) * (x - mu) / (2.0 * s * s)) / s;
    *dg = -(x - mu) / (s * s) * exp(-(x - mu) * (x - mu) / (2.0 * s * s));
}
void gauss(double *restrict g, double *restrict dg, const double *restrict x,
           const double *restrict mu, const double *restrict s, int n) {
    for (int i = 0; i < n; i++)
        gauss1(x[i], mu[i], s[i], &g[i], &dg[i]);
}
C
cat > inline.c <<'C'
double cubic(double t, double a, double b, double c) { return a + t * (b + t * (c + t)); }
void logistic(double *restrict loss, const double *restrict x, const double *restrict t,
              double w, double b, int n) {
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s = s + t[i] * cubic(x[i], w, b, 0.5);
    *loss = -s;
}
C
cat > main.c <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
void hoist_b(double *y, double *yb, const double *x, double *xb, double a, double *ab, double b,
             double *bb, double c, double *cb, int n);
void gauss_b(double *g, double *gb, double *dg, double *dgb, const double *x, double *xb,
             const double *mu, double *mub, const double *s, double *sb, int n);
void logistic_b(double *loss, double *lossb, const double *x, double *xb, const double *t,
                double w, double *wb, double b, double *bb, int n);
static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}
int main(int argc, char **argv) {
    int n = atoi(argv[1]), repeat = atoi(argv[2]);
    double *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y), *xb = malloc(n * sizeof *xb);
    double *yb = malloc(n * sizeof *yb), *g = malloc(n * sizeof *g), *gb = malloc(n * sizeof *gb);
    double *mu = malloc(n * sizeof *mu), *mub = malloc(n * sizeof *mub);
    double *s = malloc(n * sizeof *s), *sb = malloc(n * sizeof *sb);
    double best[3] = {1e30, 1e30, 1e30}, check[3] = {0, 0, 0};
    for (int r = 0; r <= repeat; r++) {
        for (int i = 0; i < n; i++) {
            x[i] = 0.3 + 0.5 * (i % 11) / 11.0; mu[i] = 0.5; s[i] = 0.7 + 0.1 * (i % 3);
            xb[i] = mub[i] = sb[i] = 0.0; yb[i] = 1.0; gb[i] = 1.0; y[i] = (i % 2);
        }
        double ab = 0, bb = 0, cb = 0, wb = 0, lossb = 1.0, loss;
        double t0 = now();
        hoist_b(g, yb, x, xb, 0.7, &ab, 1.3, &bb, 0.4, &cb, n);
        double t1 = now();
        for (int i = 0; i < n; i++) { xb[i] = 0.0; yb[i] = 1.0; gb[i] = 1.0; }
        double t2 = now();
        gauss_b(g, gb, y, yb, x, xb, mu, mub, s, sb, n);
        double t3 = now();
        for (int i = 0; i < n; i++) { xb[i] = 0.0; y[i] = (i % 2); }
        double t4 = now();
        logistic_b(&loss, &lossb, x, xb, y, 0.8, &wb, -0.2, &bb, n);
        double t5 = now();
        if (r == 0) {
            check[0] = ab + bb + cb; check[1] = sb[0] + sb[1] + xb[2];
            check[2] = wb + xb[0] + xb[n - 1];
            continue;
        }
        double t[3] = {t1 - t0, t3 - t2, t5 - t4};
        for (int k = 0; k < 3; k++) if (t[k] < best[k]) best[k] = t[k];
    }
    printf("%.6f %.6f %.6f %.17g %.17g %.17g\n", best[0], best[1], best[2], check[0], check[1], check[2]);
    return 0;
}
C
mkdir -p on off
heads=("hoist(y)/(x a b c)" "gauss(g dg)/(x mu s)" "logistic(loss)/(x w b)")
files=(hoist.c share.c inline.c)
offs=(hoistexpressions sharecommon inlinehelpers)
for k in 0 1 2; do
    "$RADTAP" -b -head "${heads[$k]}" -O on "${files[$k]}" >/dev/null
    "$RADTAP" -b -head "${heads[$k]}" -nooptim "${offs[$k]}" -O off "${files[$k]}" >/dev/null
done
for v in on off; do
    gcc -O3 -o "$v/run" main.c hoist.c share.c inline.c "$v"/hoist_b.c "$v"/share_b.c \
        "$v"/inline_b.c adStack.o adBinomial.o -I. -lm
done
read -r a1 a2 a3 c1 c2 c3 < <(on/run "$n" "$REPEAT")
read -r b1 b2 b3 d1 d2 d3 < <(off/run "$n" "$REPEAT")
for pair in "$c1 $d1" "$c2 $d2" "$c3 $d3"; do
    awk -v p="$pair" 'BEGIN { split(p, v, " "); d = v[1] - v[2]; if (d < 0) d = -d; m = v[1] < 0 ? -v[1] : v[1]; if (d > 1e-10 * m) { print "optim.sh: gradients differ: " p > "/dev/stderr"; exit 1 } }'
done
printf "%-18s %10s %12s %12s %8s\n" optimisation n with_ms without_ms ratio
awk -v n="$n" -v a="$a1 $a2 $a3" -v b="$b1 $b2 $b3" 'BEGIN {
    split("hoistexpressions sharecommon inlinehelpers", name, " ");
    split(a, x, " "); split(b, y, " ");
    for (k = 1; k <= 3; k++) printf "%-18s %10d %12.3f %12.3f %8.2f\n", name[k], n, 1e3 * x[k], 1e3 * y[k], x[k] / y[k] }'
