#!/usr/bin/env bash
# Loop-invariant calls (issue 47): `out[i] = in[i] / mag(in, n)` for i < n. Without the hoist,
# the adjoint calls mag_nodiff and mag_b in every iteration of the backward loop: O(n^2).
# radtap moves the call out of the loop before differentiating (il/src/invariant.rs), so the
# gradient is O(n) (the primal as written stays O(n^2)). For n = 10^3, 10^4, 10^5 it prints the
# primal time, the adjoint time with the hoist and with `-nooptim hoistinvariant`, and each
# adjoint's time per element: flat with the hoist, growing like n without.
#
# Usage:  benches/invariant.sh [N...]       (default: 1000 10000 100000)
# Environment: RADTAP=path (default target/release/radtap, built if missing), KEEP=1,
#              SKIP_SLOW=1 skips the unhoisted run at n = 10^5 (about a minute).
set -euo pipefail
orig_pwd=$PWD
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
KEEP=${KEEP:-0}
die() { echo "invariant.sh: error: $*" >&2; exit 1; }
command -v gcc >/dev/null 2>&1 || die "'gcc' not found (apt-get install gcc)"
if [[ -n ${RADTAP:-} ]]; then
    if [[ $RADTAP != /* && -e $orig_pwd/$RADTAP ]]; then RADTAP=$orig_pwd/$RADTAP; fi
    [[ -x $RADTAP ]] || die "RADTAP=$RADTAP is not an executable file"
else
    RADTAP=target/release/radtap
    [[ -x $RADTAP ]] || { echo "invariant.sh: building $RADTAP" >&2; cargo build --release -q; }
fi
[[ $RADTAP == /* ]] || RADTAP=$root/$RADTAP
sizes=("$@")
((${#sizes[@]})) || sizes=(1000 10000 100000)
work=$(mktemp -d "${TMPDIR:-/tmp}/radtap-invariant-bench.XXXXXX")
((KEEP)) || trap 'rm -rf "$work"' EXIT
cd "$work"
"$RADTAP" runtime -O . >/dev/null 2>&1
gcc -O2 -c adStack.c adBinomial.c
cat > norm.c <<'C'
#include <math.h>
double mag(const double *v, int n) {
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += v[i] * v[i];
    return sqrt(s);
}
void normalize(double *restrict out, const double *restrict in, int n) {
    for (int i = 0; i < n; i++)
        out[i] = in[i] / mag(in, n);
}
C
mkdir -p hoisted plain
"$RADTAP" -b -head "normalize(out)/(in)" -O hoisted norm.c >/dev/null
"$RADTAP" -b -head "normalize(out)/(in)" -nooptim hoistinvariant -O plain norm.c >/dev/null
cat > main.c <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
void normalize(double *restrict out, const double *restrict in, int n);
void normalize_b(double *restrict out, double *restrict outb, const double *restrict in,
                 double *restrict inb, int n);
static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}
int main(int argc, char **argv) {
    int n = atoi(argv[1]);
    double *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out);
    double *inb = calloc(n, sizeof *inb), *outb = malloc(n * sizeof *outb);
    for (int i = 0; i < n; i++) { in[i] = 1.0 + (i % 7); outb[i] = 1.0; }
    double t0 = now();
    normalize(out, in, n);
    double t1 = now();
    normalize_b(out, outb, in, inb, n);
    double t2 = now();
    printf("%.6f %.6f %.17g\n", t1 - t0, t2 - t1, inb[0]);
    return 0;
}
C
for v in hoisted plain; do
    gcc -O3 -o "$v/run" main.c norm.c "$v/norm_b.c" adStack.o adBinomial.o -I. -lm
done
printf "%10s %12s %14s %14s %14s %14s\n" n primal_s adjoint_s nohoist_s adj_ns/elem nohoist_ns/elem
for n in "${sizes[@]}"; do
    read -r p a g1 < <(hoisted/run "$n")
    if [[ ${SKIP_SLOW:-0} == 1 && $n -ge 100000 ]]; then
        q=nan; b=nan; g2=$g1
    else
        read -r q b g2 < <(plain/run "$n")
    fi
    [[ $g1 == "$g2" ]] || awk -v a="$g1" -v b="$g2" 'BEGIN { d = a - b; if (d < 0) d = -d; if (d > 1e-12 * (a < 0 ? -a : a)) { print "invariant.sh: gradients differ: " a " vs " b > "/dev/stderr"; exit 1 } }'
    awk -v n="$n" -v p="$p" -v a="$a" -v b="$b" 'BEGIN { printf "%10d %12.6f %14.6f %14.6f %14.1f %14.1f\n", n, p, a, b, 1e9 * a / n, 1e9 * b / n }'
done
