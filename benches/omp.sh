#!/usr/bin/env bash
# OpenMP benchmark (issue 45), not a test: a parallel stencil (`#pragma omp parallel for`,
# neighbours read, a private temporary) differentiated by radtap in tangent (-d) and adjoint
# (-b) mode, compiled with -O2 -fopenmp, each of primal, tangent and adjoint timed with
# OMP_NUM_THREADS=1 and 2; prints the times and the speedups 1 -> 2 threads.
# Then the adjoint's increments every iteration makes to the same elements: llama2.c's
# `matmul` (x̄[j] from every row) and a 3-point filter with shared coefficients (w̄[0..2]
# from every point), each adjoint as radtap writes it (an array reduction) and as it was
# written before (the same code with atomic updates instead), with 1 and 2 threads.
#
# Then reductions `max` and `*` of active variables (a max norm, a likelihood product),
# primal (as written), tangent and adjoint (lowered to 64 chunks), with 1 and 2 threads.
#
# Usage:  benches/omp.sh                     (works from any cwd)
# Environment:
#   RADTAP=path   radtap binary (default target/release/radtap, else target/debug/radtap)
#   N=2000000     grid points;  REPS=20  calls per timing (best of 3 timings)
#   M=512         matmul size (M x M)
#   KEEP=1        keep the temporary build directory
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
RADTAP=${RADTAP:-}
if [ -z "$RADTAP" ]; then
    if [ -x "$root/target/release/radtap" ]; then RADTAP=$root/target/release/radtap; else RADTAP=$root/target/debug/radtap; fi
fi
[ -x "$RADTAP" ] || { echo "omp.sh: no radtap binary at $RADTAP (cargo build first)" >&2; exit 1; }
N=${N:-2000000}
REPS=${REPS:-20}
dir=$(mktemp -d "${TMPDIR:-/tmp}/radtap-omp-bench.XXXXXX")
[ "${KEEP:-0}" = 1 ] || trap 'rm -rf "$dir"' EXIT
cd "$dir"

cat > stencil.c <<'C'
#include <math.h>
void stencil(int n, const double *u, double *v, double c)
{
    int i;
#pragma omp parallel for
    for (i = 1; i < n - 1; i++) {
        double t = u[i - 1] - 2.0 * u[i] + u[i + 1];
        v[i] = u[i] + c * t + 0.01 * sin(u[i]) * t;
    }
}
C
"$RADTAP" -d -b -head "stencil(v)/(u c)" stencil.c >/dev/null
"$RADTAP" runtime -O . >/dev/null 2>&1

cat > driver.c <<C
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
void stencil(int n, const double *u, double *v, double c);
void stencil_d(int n, const double *u, const double *ud, double *v, double *vd, double c, double cd);
void stencil_b(int n, const double *u, double *ub, double *v, double *vb, double c, double *cb);
static double best(void (*f)(void)) {
    double b = 1e30;
    for (int t = 0; t < 3; t++) {
        double s = omp_get_wtime();
        for (int r = 0; r < $REPS; r++) f();
        double e = omp_get_wtime() - s;
        if (e < b) b = e;
    }
    return b / $REPS;
}
static int n = $N;
static double *u, *ud, *ub, *v, *vd, *vb, c = 0.1, cd = 1.0, cb;
static void primal(void) { stencil(n, u, v, c); }
static void tangent(void) { stencil_d(n, u, ud, v, vd, c, cd); }
static void adjoint(void) { for (int i = 0; i < n; i++) vb[i] = 1.0; cb = 0; stencil_b(n, u, ub, v, vb, c, &cb); }
int main(void) {
    u = malloc(n * sizeof *u); ud = malloc(n * sizeof *u); ub = calloc(n, sizeof *u);
    v = calloc(n, sizeof *u); vd = calloc(n, sizeof *u); vb = calloc(n, sizeof *u);
    for (int i = 0; i < n; i++) { u[i] = 1.0 + 0.001 * (i % 1000); ud[i] = 1.0; }
    double p = best(primal), t = best(tangent), a = best(adjoint);
    printf("%d %.6f %.6f %.6f\n", omp_get_max_threads(), p, t, a);
    return 0;
}
C
gcc -O2 -fopenmp -c adStack.c adBinomial.c
gcc -O2 -fopenmp -o bench driver.c stencil.c stencil_d.c stencil_b.c adStack.o adBinomial.o -lm

one=$(OMP_NUM_THREADS=1 ./bench)
two=$(OMP_NUM_THREADS=2 ./bench)
echo "parallel stencil, n=$N, best of 3 x $REPS calls, $(nproc) cores"
printf "%-9s %12s %12s %9s\n" "" "1 thread (s)" "2 threads (s)" "speedup"
read -r _ p1 t1 a1 <<<"$one"
read -r _ p2 t2 a2 <<<"$two"
for row in "primal $p1 $p2" "tangent $t1 $t2" "adjoint $a1 $a2"; do
    set -- $row
    awk -v n="$1" -v a="$2" -v b="$3" 'BEGIN { printf "%-9s %12.5f %12.5f %8.2fx\n", n, a, b, a / b }'
done
awk -v p="$p1" -v t="$t1" -v a="$a1" 'BEGIN { printf "1 thread: tangent/primal %.2f, adjoint/primal %.2f\n", t / p, a / p }'

# --- Shared increments: array reduction against atomic updates -----------------------
M=${M:-512}
cat > shared.c <<'C'
void matmul(double *xout, const double *x, const double *w, int n, int d)
{
    int i;
#pragma omp parallel for private(i)
    for (i = 0; i < d; i++) {
        double val = 0.0;
        for (int j = 0; j < n; j++) {
            val += w[i * n + j] * x[j];
        }
        xout[i] = val;
    }
}
void filter(int n, const double *x, const double *w, double *y)
{
    int i;
#pragma omp parallel for
    for (i = 1; i < n - 1; i++) {
        y[i] = w[0] * x[i - 1] + w[1] * x[i] + w[2] * x[i + 1];
    }
}
C
"$RADTAP" -b -head "matmul(xout)/(x w) filter(y)/(x w)" shared.c >/dev/null
grep -q 'reduction(+: xb\[:n\])' shared_b.c && grep -q 'reduction(+: wb\[:3\])' shared_b.c ||
    { echo "omp.sh: the adjoint has no array reductions (an older radtap?)" >&2; exit 1; }
# The previous choice: no array reduction, each increment of those arrays atomic.
sed -e 's/ reduction(+: [xw]b\[:[n3]\])//' \
    -e 's/^\( *\)\(xb\[j\] = \)/\1#pragma omp atomic\n\1\2/' \
    -e 's/^\( *\)\(wb\[[0-2]\] = \)/\1#pragma omp atomic\n\1\2/' \
    -e 's/\b\(matmul_b\|filter_b\)\b/\1_atomic/' shared_b.c > shared_b_atomic.c
cat > driver2.c <<C
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
void matmul_b(double *xout, double *xoutb, const double *x, double *xb, const double *w, double *wb, int n, int d);
void matmul_b_atomic(double *xout, double *xoutb, const double *x, double *xb, const double *w, double *wb, int n, int d);
void filter_b(int n, const double *x, double *xb, const double *w, double *wb, double *y, double *yb);
void filter_b_atomic(int n, const double *x, double *xb, const double *w, double *wb, double *y, double *yb);
static double best(void (*f)(void)) {
    double b = 1e30;
    for (int t = 0; t < 3; t++) {
        double s = omp_get_wtime();
        for (int r = 0; r < $REPS; r++) f();
        double e = omp_get_wtime() - s;
        if (e < b) b = e;
    }
    return b / $REPS;
}
static int m = $M, n = $N;
static double *x, *xb, *w, *wb, *xo, *xob, *u, *ub, *y, *yb, c[3] = {0.25, 0.5, 0.25}, cb[3];
static void mm_red(void) { for (int i = 0; i < m; i++) xob[i] = 1.0; matmul_b(xo, xob, x, xb, w, wb, m, m); }
static void mm_atomic(void) { for (int i = 0; i < m; i++) xob[i] = 1.0; matmul_b_atomic(xo, xob, x, xb, w, wb, m, m); }
static void f_red(void) { for (int i = 0; i < n; i++) yb[i] = 1.0; filter_b(n, u, ub, c, cb, y, yb); }
static void f_atomic(void) { for (int i = 0; i < n; i++) yb[i] = 1.0; filter_b_atomic(n, u, ub, c, cb, y, yb); }
int main(void) {
    x = malloc(m * sizeof *x); xb = calloc(m, sizeof *x); xo = calloc(m, sizeof *x); xob = calloc(m, sizeof *x);
    w = malloc((size_t)m * m * sizeof *w); wb = calloc((size_t)m * m, sizeof *w);
    u = malloc(n * sizeof *u); ub = calloc(n, sizeof *u); y = calloc(n, sizeof *u); yb = calloc(n, sizeof *u);
    for (int i = 0; i < m; i++) x[i] = 1.0 / (1 + i);
    for (long k = 0; k < (long)m * m; k++) w[k] = 0.001 * (k % 97);
    for (int i = 0; i < n; i++) u[i] = 1.0 + 0.001 * (i % 1000);
    printf("%d %.6f %.6f %.6f %.6f\n", omp_get_max_threads(), best(mm_red), best(mm_atomic), best(f_red), best(f_atomic));
    return 0;
}
C
gcc -O2 -fopenmp -o bench2 driver2.c shared_b.c shared_b_atomic.c adStack.o adBinomial.o -lm
one=$(OMP_NUM_THREADS=1 ./bench2)
two=$(OMP_NUM_THREADS=2 ./bench2)
echo
echo "adjoint increments every iteration makes (matmul ${M}x${M}: x̄[j]; filter n=$N: w̄[0..2]), best of 3 x $REPS calls"
printf "%-26s %12s %12s\n" "" "1 thread (s)" "2 threads (s)"
read -r _ mr1 ma1 fr1 fa1 <<<"$one"
read -r _ mr2 ma2 fr2 fa2 <<<"$two"
for row in "matmul_b array reduction $mr1 $mr2" "matmul_b atomic (before) $ma1 $ma2" \
           "filter_b array reduction $fr1 $fr2" "filter_b atomic (before) $fa1 $fa2"; do
    set -- $row
    awk -v n="$1 $2 $3" -v a="$4" -v b="$5" 'BEGIN { printf "%-26s %12.5f %12.5f\n", n, a, b }'
done

# --- Reductions `max` and `*` of active variables (il::omp_reduce: 64 chunks) ----------
cat > red.c <<'C'
#include <math.h>
void maxnorm(int n, const double *x, double *r)
{
    double m = 0.0;
    int i;
#pragma omp parallel for reduction(max: m)
    for (i = 0; i < n; i++) {
        double a = fabs(x[i]) * (1.0 + 0.1 * sin(x[i]));
        if (a > m)
            m = a;
    }
    *r = m;
}
void likelihood(int n, const double *x, double mu, double *p)
{
    double s = 1.0;
    int i;
#pragma omp parallel for reduction(*: s)
    for (i = 0; i < n; i++) {
        double z = x[i] - mu;
        s *= 1.0 + 1.0e-7 * exp(-0.5 * z * z);
    }
    *p = s;
}
C
"$RADTAP" -d -b -head "maxnorm(r)/(x) likelihood(p)/(x)" red.c >/dev/null
cat > driver3.c <<C
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
void maxnorm(int n, const double *x, double *r);
void maxnorm_d(int n, const double *x, const double *xd, double *r, double *rd);
void maxnorm_b(int n, const double *x, double *xb, double *r, double *rb);
void likelihood(int n, const double *x, double mu, double *p);
void likelihood_d(int n, const double *x, const double *xd, double mu, double *p, double *pd);
void likelihood_b(int n, const double *x, double *xb, double mu, double *p, double *pb);
static double best(void (*f)(void)) {
    double b = 1e30;
    for (int t = 0; t < 3; t++) {
        double s = omp_get_wtime();
        for (int r = 0; r < $REPS; r++) f();
        double e = omp_get_wtime() - s;
        if (e < b) b = e;
    }
    return b / $REPS;
}
static int n = $N;
static double *x, *xd, *xb, r, rd, rb, p, pd, pb;
static void mp(void) { maxnorm(n, x, &r); }
static void md(void) { maxnorm_d(n, x, xd, &r, &rd); }
static void mb(void) { rb = 1.0; maxnorm_b(n, x, xb, &r, &rb); }
static void lp(void) { likelihood(n, x, 0.5, &p); }
static void ld(void) { likelihood_d(n, x, xd, 0.5, &p, &pd); }
static void lb(void) { pb = 1.0; likelihood_b(n, x, xb, 0.5, &p, &pb); }
int main(void) {
    x = malloc(n * sizeof *x); xd = malloc(n * sizeof *x); xb = calloc(n, sizeof *x);
    for (int i = 0; i < n; i++) { x[i] = 1.0 + 0.001 * (i % 1000); xd[i] = 1.0; }
    printf("%d %.6f %.6f %.6f %.6f %.6f %.6f\n", omp_get_max_threads(), best(mp), best(md), best(mb), best(lp), best(ld), best(lb));
    return 0;
}
C
gcc -O2 -fopenmp -o bench3 driver3.c red.c red_d.c red_b.c adStack.o adBinomial.o -lm
one=$(OMP_NUM_THREADS=1 ./bench3)
two=$(OMP_NUM_THREADS=2 ./bench3)
echo
echo "reductions of active variables (max norm, likelihood product), n=$N, best of 3 x $REPS calls"
printf "%-20s %12s %12s %9s\n" "" "1 thread (s)" "2 threads (s)" "speedup"
read -r _ a1 b1 c1 d1 e1 f1 <<<"$one"
read -r _ a2 b2 c2 d2 e2 f2 <<<"$two"
for row in "max_primal $a1 $a2" "max_tangent $b1 $b2" "max_adjoint $c1 $c2" \
           "product_primal $d1 $d2" "product_tangent $e1 $e2" "product_adjoint $f1 $f2"; do
    set -- $row
    awk -v n="$1" -v a="$2" -v b="$3" 'BEGIN { printf "%-20s %12.5f %12.5f %8.2fx\n", n, a, b, a / b }'
done
