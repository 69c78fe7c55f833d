#!/usr/bin/env bash
# OpenMP benchmark (issue 45), not a test: a parallel stencil (`#pragma omp parallel for`,
# neighbours read, a private temporary) differentiated by radtap in tangent (-d) and adjoint
# (-b) mode, compiled with -O2 -fopenmp, each of primal, tangent and adjoint timed with
# OMP_NUM_THREADS=1 and 2; prints the times and the speedups 1 -> 2 threads.
#
# Usage:  benches/omp.sh                     (works from any cwd)
# Environment:
#   RADTAP=path   radtap binary (default target/release/radtap, else target/debug/radtap)
#   N=2000000     grid points;  REPS=20  calls per timing (best of 3 timings)
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
