#!/usr/bin/env bash
# Binomial checkpointing benchmark ($AD BINOMIAL-CKP): a 1-D nonlinear diffusion time loop
# (n = 100 points) of 1k, 10k and 100k steps, differentiated by radtap in adjoint mode
# store-all (no directive) and with `!$AD BINOMIAL-CKP nt S 1` for S = 10, 20, 50 snapshots.
# For each it prints
#   peak     = peak AD stack bytes of one pde_b call (adStack_peakBytes)
#   A/P      = adjoint time (one pde_b call) / primal time (one pde call), -O2
#   advances = primal steps run by the schedule's ADVANCE actions (adBinomial_advanceCount)
#   optimum  = revolve's minimum for S snapshots: r*steps - C(S+r, S+1), r least with
#              C(S+r, S) >= steps (the turns run each step once more, taped)
#   grad     = relative difference of the gradient from the store-all one (same to round-off)
#
# Usage:  benches/checkpoint.sh [STEPS...]        (default: 1000 10000 100000)
# Environment:
#   RADTAP=path   radtap binary (default target/release/radtap, built with cargo if missing)
#   KEEP=1        keep the temporary build directory
set -euo pipefail

orig_pwd=$PWD
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
KEEP=${KEEP:-0}
die() { echo "checkpoint.sh: error: $*" >&2; exit 1; }
for tool in gfortran gcc; do
    command -v "$tool" >/dev/null 2>&1 || die "'$tool' not found (apt-get install gcc gfortran)"
done
if [[ -n ${RADTAP:-} ]]; then
    if [[ $RADTAP != /* && -e $orig_pwd/$RADTAP ]]; then RADTAP=$orig_pwd/$RADTAP; fi
    [[ -x $RADTAP ]] || die "RADTAP=$RADTAP is not an executable file"
else
    RADTAP=target/release/radtap
    if [[ ! -x $RADTAP ]]; then
        echo "checkpoint.sh: $RADTAP missing, running cargo build --release -q" >&2
        cargo build --release -q
    fi
fi
[[ $RADTAP == /* ]] || RADTAP=$root/$RADTAP

steps=("$@")
((${#steps[@]})) || steps=(1000 10000 100000)

work=$(mktemp -d "${TMPDIR:-/tmp}/radtap-ckp-bench.XXXXXX")
((KEEP)) || trap 'rm -rf "$work"' EXIT
cd "$work"
"$RADTAP" runtime -O . >/dev/null 2>&1
gcc -O2 -c adStack.c adBinomial.c

# The kernel; SNAPS is replaced per variant (no directive line for store-all).
kernel() {
    cat <<EOF
subroutine pde(n, nt, u, cost)
  integer n, nt, it, k
  real(8) u(n), cost
  real(8) v(n)
$1
  do it = 1, nt
    do k = 1, n
      v(k) = u(k)
    end do
    do k = 2, n - 1
      u(k) = v(k) + 0.2d0*(v(k+1) - 2*v(k) + v(k-1))*(1 + 0.1d0*v(k)*v(k)) - 0.001d0*v(k)**3
    end do
  end do
  cost = 0
  do k = 1, n
    cost = cost + u(k)*u(k)
  end do
end subroutine pde
EOF
}

cat >main.f90 <<'EOF'
program main
  implicit none
  integer, parameter :: n = 100
  integer :: nt, k, reps, r
  real(8) :: u0(n), u(n), ub(n), cost, costb, tp, ta, t0, t1, g0
  character(len=32) :: arg
  integer(8), external :: adstack_peakbytes, adbinomial_advancecount
  call get_command_argument(1, arg)
  read (arg, *) nt
  do k = 1, n
    u0(k) = 0.5d0 + 0.5d0*sin(0.1d0*k)
  end do
  reps = max(1, 200000/nt)
  call cpu_time(t0)
  do r = 1, reps
    u = u0
    call pde(n, nt, u, cost)
  end do
  call cpu_time(t1)
  tp = (t1 - t0)/reps
  call adstack_resetstatistics()
  call cpu_time(t0)
  do r = 1, reps
    u = u0
    ub = 0
    costb = 1
    call pde_b(n, nt, u, ub, cost, costb)
  end do
  call cpu_time(t1)
  ta = (t1 - t0)/reps
  g0 = sqrt(sum(ub*ub))
  print '(a,i0)', 'PEAK ', adstack_peakbytes()
  print '(a,es12.5)', 'AP ', ta/max(tp, 1d-12)
  print '(a,i0)', 'ADV ', adbinomial_advancecount()
  print '(a,es24.16)', 'G ', g0
  print '(a,es24.16)', 'G1 ', ub(n/2)
end program main
EOF

optimum() { # steps snaps
    python3 -c "
from math import comb
n, s = $1, $2
if n <= 1: print(0)
elif s >= n - 1: print(n - 1)
else:
    r = 0
    while comb(s + r, s) < n: r += 1
    print(r * n - comb(s + r, s + 1))"
}

printf '%-8s %-10s %14s %8s %10s %10s %10s\n' steps variant peak A/P advances optimum grad
for nt in "${steps[@]}"; do
    ref=""
    for snaps in all 10 20 50; do
        d=v_$snaps
        mkdir -p "$d"
        if [[ $snaps == all ]]; then kernel "" >"$d/pde.f90"; else kernel "  !\$AD BINOMIAL-CKP nt $snaps 1" >"$d/pde.f90"; fi
        "$RADTAP" -b -head pde -vars u -outvars cost -O "$d" "$d/pde.f90" 2>"$d/radtap.err" ||
            die "radtap failed on $d: $(cat "$d/radtap.err")"
        gfortran -O2 -o "$d/run" "$d/pde.f90" "$d/pde_b.f90" main.f90 adStack.o adBinomial.o
        out=$("$d/run" "$nt")
        peak=$(awk '/^PEAK/{print $2}' <<<"$out")
        ap=$(awk '/^AP/{print $2}' <<<"$out")
        adv=$(awk '/^ADV/{print $2}' <<<"$out")
        g=$(awk '/^G /{print $2}' <<<"$out")
        if [[ $snaps == all ]]; then
            ref=$g
            printf '%-8s %-10s %14s %8.2f %10s %10s %10s\n' "$nt" store-all "$peak" "$ap" - - -
        else
            opt=$(optimum "$nt" "$snaps")
            diff=$(python3 -c "a, b = float('$g'), float('$ref'); print('%.1e' % (abs(a - b) / abs(b)))")
            printf '%-8s %-10s %14s %8.2f %10s %10s %10s\n' "$nt" "ckp $snaps" "$peak" "$ap" "$adv" "$opt" "$diff"
        fi
    done
done
