#!/usr/bin/env bash
# ADBench-style adjoint benchmark, radtap against Tapenade 3.16 side by side in one process.
# For each kernel (gmm.c, lstm.c, ba.c beside this script) it differentiates the head with
# `radtap -b` and with Tapenade (generated here, into a scratch directory, never kept), compiles
# the original, both adjoints and both runtimes with gcc -O3, links them into one driver
# (KERNEL_main.c) with objcopy-renamed symbols (rt_*, tap_*, and tapp_*: Tapenade again with
# its runtime's _ADSTACKPROFILE statistics, used only to count its stack), and prints per size:
#   obj ms     the objective (thread CPU time, min of REPEAT runs)
#   rt ms      radtap's gradient (ba: the whole Jacobian, two adjoint calls per observation)
#   tap ms     Tapenade's gradient, same calls
#   rt/obj, tap/obj, rt/tap
#   rt MB, rt peak   bytes pushed and peak stack of one gradient (radtap runtime, exact)
#   tap MB, tap peak the same for Tapenade (its profile counters: pushed = traffic/2, peak in
#                    64 KiB blocks)
#   fd rt, fd tap    |g.v - finite difference| / |fd| along a random direction v
#   rt~tap           max |g_rt - g_tap| / max|g|
# Usage: benches/adbench-style/adbench.sh [gmm|lstm|ba ...]
# Environment: RADTAP (default target/release/radtap), TAPENADE (default
# ../shared/peers/tapenade-3.16 from the repository root), REPEAT (5), KEEP=1 keeps the scratch
# directory, CFLAGS (-O3), RADTAP_FLAGS (extra radtap options, e.g. -nocheckpoint).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
die() { echo "adbench.sh: error: $*" >&2; exit 1; }

RADTAP=${RADTAP:-${CARGO_TARGET_DIR:-$root/target}/release/radtap}
[[ -x $RADTAP ]] || die "radtap binary $RADTAP missing (cargo build --release, or set RADTAP)"
TAPENADE=${TAPENADE:-$root/../shared/peers/tapenade-3.16}
[[ -d $TAPENADE ]] || TAPENADE=/work/shared/peers/tapenade-3.16
[[ -x $TAPENADE/bin/tapenade ]] || die "Tapenade not found in $TAPENADE (set TAPENADE)"
kit=$TAPENADE/ADFirstAidKit
CFLAGS=${CFLAGS:--O3}
export REPEAT=${REPEAT:-5}

scratch=$(mktemp -d /tmp/adbench.XXXXXX)
if [[ ${KEEP:-0} == 1 ]]; then echo "scratch: $scratch" >&2; else trap 'rm -rf "$scratch"' EXIT; fi

# name | head | independents | dependent | radtap -size options | sizes (driver arguments, ';')
kernels=(
    "gmm|gmm_objective|alphas means icf|err||2 5 1000;10 25 1000;20 50 1000;64 10 1000"
    "lstm|lstm_objective|main_params extra_params|loss|-size state=l*2*b -size s=l*2*b -size ypred=b|2 1024 14;4 1024 14"
    "ba|compute_reproj_error|cam X w|err|-size proj=2|21 11315 36455;49 7776 31843"
)
want=("$@")

# link GROUP (rt|tap|tapp) objects into one relocatable object whose only globals are the
# adjoint head and the statistics accessors, renamed with the group's prefix
link_group() {
    local prefix=$1 head=$2 out=$3; shift 3
    local keep=(--keep-global-symbol="${head}_b")
    local syms=("${head}_b")
    if [[ $prefix == rt ]]; then
        for s in adStack_reset adStack_resetStatistics adStack_totalTraffic adStack_peakBytes adStack_currentBytes; do
            keep+=(--keep-global-symbol=$s); syms+=($s)
        done
    else
        for s in stats_reset pushed peak; do keep+=(--keep-global-symbol=$s); syms+=($s); done
    fi
    ld -r -o "$out.tmp.o" "$@"
    objcopy "${keep[@]}" "$out.tmp.o" "$out.tmp2.o"
    local ren=()
    for s in "${syms[@]}"; do ren+=(--redefine-sym "$s=${prefix}_$s"); done
    objcopy "${ren[@]}" "$out.tmp2.o" "$out"
}

printf '%-5s %-16s %9s %9s %9s %7s %7s %6s %10s %9s %10s %9s %8s %8s %8s %s\n' \
    kernel size "obj ms" "rt ms" "tap ms" rt/obj tap/obj rt/tap "rt MB" "rt peak" "tap MB" "tap peak" \
    "fd rt" "fd tap" "rt~tap" check
for k in "${kernels[@]}"; do
    IFS='|' read -r name head vars outvar sizeopts sizes <<<"$k"
    if ((${#want[@]})) && [[ ! " ${want[*]} " == *" $name "* ]]; then continue; fi
    d=$scratch/$name
    mkdir -p "$d/rt" "$d/tap"
    # shellcheck disable=SC2086
    "$RADTAP" -b ${RADTAP_FLAGS:-} -head "$head" -vars "$vars" -outvars "$outvar" $sizeopts "$here/$name.c" -O "$d/rt" \
        >"$d/rt.log" 2>&1 || { cat "$d/rt.log" >&2; die "radtap failed on $name"; }
    "$RADTAP" runtime -O "$d/rt" >/dev/null 2>&1
    (cd "$d/tap" && "$TAPENADE/bin/tapenade" -b -head "$head($outvar)/($vars)" "$here/$name.c" -O "$d/tap" \
        >"$d/tap.log" 2>&1) || { cat "$d/tap.log" >&2; die "Tapenade failed on $name"; }
    cc() { gcc $CFLAGS -w "$@"; }
    cc -c "$here/$name.c" -I "$here" -o "$d/orig.o"
    cc -c "$d/rt/${name}_b.c" -I "$here" -I "$d/rt" -o "$d/rt_b.o"
    cc -c "$d/rt/adStack.c" -I "$d/rt" -o "$d/rt_stack.o"
    link_group rt "$head" "$d/rt.o" "$d/rt_b.o" "$d/rt_stack.o" "$d/orig.o"
    cc -c "$d/tap/${name}_b.c" -I "$here" -I "$d/tap" -I "$kit" -o "$d/tap_b.o"
    cc -c "$here/tapstats.c" -I "$kit" -o "$d/tap_stack.o"
    cc -c "$here/tapstats.c" -I "$kit" -D_ADSTACKPROFILE -o "$d/tapp_stack.o"
    link_group tap "$head" "$d/tap.o" "$d/tap_b.o" "$d/tap_stack.o" "$d/orig.o"
    link_group tapp "$head" "$d/tapp.o" "$d/tap_b.o" "$d/tapp_stack.o" "$d/orig.o"
    cc "$here/${name}_main.c" -I "$here" "$d/orig.o" "$d/rt.o" "$d/tap.o" "$d/tapp.o" -lm -o "$d/main"
    IFS=';' read -ra szs <<<"$sizes"
    for s in "${szs[@]}"; do
        # shellcheck disable=SC2086
        "$d/main" $s
    done
done
