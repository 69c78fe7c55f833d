#!/usr/bin/env bash
# Fixed-point adjoint benchmark ($AD FP-LOOP): a nonlinear fixed-point iteration on n = 100
# points, z = 0.5 x + 0.3 sin(z) + 0.1 (z(k-1) + z(k+1)), run until max |z_new - z| <= TOL,
# differentiated by radtap in adjoint mode store-all (no directive) and with
# `!$AD FP-LOOP "z znew" adj_reduction=1.d-14`, for a loose and a tight primal tolerance (so
# two iteration counts). For each it prints
#   iters = primal iterations, peak = peak AD stack bytes of one fp_b call (adStack_peakBytes),
#   grad  = largest relative difference of the gradient from the store-all one (store-all
#           differentiates the iterations actually run, FP-LOOP the fixed point: they agree
#           to about the primal tolerance).
# Store-all's peak grows with the iteration count; FP-LOOP's does not (two snapshots and one
# iteration's tape).
#
# Usage:  benches/fploop.sh [TOL...]        (default: 1d-6 1d-14)
# Environment: RADTAP=path (default target/release/radtap, built if missing), KEEP=1.
set -euo pipefail
orig_pwd=$PWD
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
KEEP=${KEEP:-0}
die() { echo "fploop.sh: error: $*" >&2; exit 1; }
for tool in gfortran gcc; do
    command -v "$tool" >/dev/null 2>&1 || die "'$tool' not found (apt-get install gcc gfortran)"
done
if [[ -n ${RADTAP:-} ]]; then
    if [[ $RADTAP != /* && -e $orig_pwd/$RADTAP ]]; then RADTAP=$orig_pwd/$RADTAP; fi
    [[ -x $RADTAP ]] || die "RADTAP=$RADTAP is not an executable file"
else
    RADTAP=target/release/radtap
    [[ -x $RADTAP ]] || { echo "fploop.sh: building $RADTAP" >&2; cargo build --release -q; }
fi
[[ $RADTAP == /* ]] || RADTAP=$root/$RADTAP
tols=("$@")
((${#tols[@]})) || tols=(1d-6 1d-14)
work=$(mktemp -d "${TMPDIR:-/tmp}/radtap-fp-bench.XXXXXX")
((KEEP)) || trap 'rm -rf "$work"' EXIT
cd "$work"
"$RADTAP" runtime -O . >/dev/null 2>&1
gcc -O2 -c adStack.c adBinomial.c

kernel() { # $1: directive line, $2: tolerance
    cat <<EOF
subroutine fp(n, x, y, its)
  integer n, its, k
  real(8) x(n), y
  real(8) z(n), znew(n), err
  z = 0.0d0
  err = 1.0d0
  its = 0
$1
  do while (err > $2 .and. its < 10000)
    err = 0.0d0
    do k = 1, n
      znew(k) = 0.5d0*x(k) + 0.3d0*sin(z(k))
      if (k > 1) znew(k) = znew(k) + 0.1d0*z(k-1)
      if (k < n) znew(k) = znew(k) + 0.1d0*z(k+1)
      err = max(err, abs(znew(k) - z(k)))
    end do
    z = znew
    its = its + 1
  end do
  y = 0.0d0
  do k = 1, n
    y = y + z(k)*z(k)*x(k)
  end do
end subroutine fp
EOF
}
cat > drv.f90 <<'EOF'
program drv
  implicit none
  integer, parameter :: n = 100
  real(8) x(n), xb(n), y, yb
  integer its, its0, k
  integer(8), external :: adstack_peakbytes
  do k = 1, n
    x(k) = 1.0d0 + 0.5d0*sin(real(k, 8))
  end do
  call fp(n, x, y, its)
  its0 = its
  xb = 0.0d0
  yb = 1.0d0
  call adstack_resetstatistics()
  call fp_b(n, x, xb, y, yb, its)
  print '(i8, 1x, i12)', its0, adstack_peakbytes()
  print '(es25.17)', xb
end program drv
EOF
printf '%-8s %-10s %8s %12s %10s\n' tol variant iters peak grad
for tol in "${tols[@]}"; do
    for v in store-all fp-loop; do
        d=""
        [[ $v == fp-loop ]] && d='  !$AD FP-LOOP "z znew" adj_reduction=1.d-14'
        mkdir -p "$v-$tol" && cd "$v-$tol"
        kernel "$d" "$tol" > fp.f90
        "$RADTAP" -b -head fp -vars x -outvars y -O . fp.f90 2>/dev/null || die "radtap failed ($v)"
        gfortran -O2 -o drv fp.f90 fp_b.f90 ../drv.f90 ../adStack.o ../adBinomial.o
        ./drv > out.txt
        read -r its peak < out.txt
        tail -n +2 out.txt > grad.txt
        cd ..
        if [[ $v == store-all ]]; then
            grad=0
        else
            grad=$(paste "store-all-$tol/grad.txt" "$v-$tol/grad.txt" | awk '{d=$1-$2; if(d<0)d=-d; m=$1<0?-$1:$1; r=d/m; if(r>x)x=r} END{printf "%.1e", x}')
        fi
        printf '%-8s %-10s %8s %12s %10s\n' "$tol" "$v" "$its" "$peak" "$grad"
    done
done
