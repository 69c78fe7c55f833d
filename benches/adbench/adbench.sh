#!/usr/bin/env bash
# ADBench's published C objectives (microsoft/ADBench, unmodified, read in place from
# ../shared/adbench): radtap's adjoint against the adjoints ADBench ships (Tapenade's output
# repaired by hand: correct, and what ADBench itself times), side by side in one process.
# For each objective it differentiates the unmodified source with `radtap -b`, compiles the
# original, radtap's adjoint with radtap's runtime, ADBench's repaired `*_b.c` with ADBench's
# copy of Tapenade's runtime (timed) and again with Tapenade 3.16's runtime built with
# _ADSTACKPROFILE (counted), and ADBench's manual derivatives (C++, the correctness reference),
# with gcc/g++ -O3, links them into one driver (objcopy-renamed symbols rt_*, tap_*, tapp_*) and
# prints per data set:
#   obj ms            the objective (thread CPU time, least of REPEAT runs)
#   rt ms, tap ms     the gradient by radtap, by the repaired Tapenade (ba: the whole Jacobian,
#                     two adjoint calls per observation, as ADBench's Tapenade module does)
#   rt/obj, tap/obj, rt/tap
#   rt MB, rt peak    bytes pushed and peak stack (MB) of one gradient (ba: one observation),
#                     from radtap's runtime counters
#   tap MB, tap peak  the same for the repaired Tapenade (its profile counters: pushed =
#                     traffic/2, peak in 64 KiB blocks)
#   err rt, err tap   largest difference from ADBench's manual derivative, relative to its
#                     largest element
# and the geometric mean of rt/tap.
# Usage: benches/adbench/adbench.sh [gmm|lstm|ba|hand ...]
# The hand tracker (hand_main.cpp) is timed in tangent mode, as ADBench does: its rows compare
# the whole Jacobian by radtap's tangent with ADBench's repaired Tapenade tangent (hand_d.c), and
# radtap's adjoint Jacobian by rows (and one row against one column) with that same tangent;
# every Jacobian is checked against ADBench's manual one (manual/hand_d.cpp via hand_manual.cpp).
# Environment: RADTAP (default target/release/radtap), ADBENCH (default ../shared/adbench from
# the repository root), TAPENADE (for its profiling runtime; default ../shared/peers/tapenade-3.16),
# REPEAT (5), KEEP=1 keeps the scratch directory, CFLAGS (-O3).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
die() { echo "adbench.sh: error: $*" >&2; exit 1; }

ADBENCH=${ADBENCH:-$root/../shared/adbench}
if [[ ! -d $ADBENCH/src/cpp/modules/tapenade ]]; then
    echo "adbench.sh: ADBench's sources are not in $ADBENCH (set ADBENCH): nothing measured" >&2
    exit 0
fi
for tool in gcc g++ ld objcopy; do
    command -v "$tool" >/dev/null 2>&1 || die "'$tool' not found (apt-get install gcc g++ binutils)"
done
RADTAP=${RADTAP:-${CARGO_TARGET_DIR:-$root/target}/release/radtap}
[[ $RADTAP == /* ]] || RADTAP=$PWD/$RADTAP
[[ -x $RADTAP ]] || die "radtap binary $RADTAP missing (cargo build --release, or set RADTAP)"
TAPENADE=${TAPENADE:-$root/../shared/peers/tapenade-3.16}
kit=$TAPENADE/ADFirstAidKit
[[ -f $kit/adStack.c ]] || die "Tapenade's runtime not found in $kit (set TAPENADE)"
CFLAGS=${CFLAGS:--O3}
export REPEAT=${REPEAT:-5}
tapdir=$ADBENCH/src/cpp/modules/tapenade
mandir=$ADBENCH/src/cpp/modules/manual
data=$ADBENCH/data

scratch=$(mktemp -d "${TMPDIR:-/tmp}/adbench.XXXXXX")
if [[ ${KEEP:-0} == 1 ]]; then echo "scratch: $scratch" >&2; else trap 'rm -rf "$scratch"' EXIT; fi

# name | heads (radtap -head, as in each file's header) | radtap options | heads' names | runs
kernels=(
    "gmm|gmm_objective(err)/(alphas means icf)||gmm_objective|$data/gmm/1k/gmm_d2_K5.txt;$data/gmm/1k/gmm_d10_K25.txt;$data/gmm/1k/gmm_d20_K50.txt;gen 64 100 1000"
    "lstm|lstm_objective(loss)/(main_params extra_params)|-size state=2*l*b|lstm_objective|$data/lstm/lstm_l2_c1024.txt;$data/lstm/lstm_l4_c1024.txt"
    "ba|compute_reproj_error(err)/(cam X w) compute_zach_weight_error(err)/(w)||compute_reproj_error compute_zach_weight_error|$data/ba/ba1_n49_m7776_p31843.txt"
    "hand|hand_objective(err)/(theta) hand_objective_complicated(err)/(theta us)|-d|hand_objective hand_objective_complicated|$data/hand/model $data/hand/simple_small/hand1_t26_c100.txt 0 simple_c100;$data/hand/model $data/hand/simple_small/hand2_t26_c192.txt 0 simple_c192;$data/hand/model $data/hand/complicated_small/hand1_t26_c100.txt 1 complicated_c100;$data/hand/model $data/hand/complicated_small/hand2_t26_c192.txt 1 complicated_c192"
)
want=("$@")

# link_group PREFIX OUT OBJECTS...: one relocatable object whose only globals are the heads'
# adjoints and the statistics accessors, renamed PREFIX_*
link_group() {
    local prefix=$1 out=$2; shift 2
    local syms=()
    for h in $heads; do syms+=("${h}_$suffix"); done
    if [[ $suffix == d || $suffix == dv ]]; then
        :
    elif [[ $prefix == rt || $prefix == rtb ]]; then
        syms+=(adStack_reset adStack_resetStatistics adStack_totalTraffic adStack_peakBytes adStack_currentBytes)
    else
        syms+=(stats_reset pushed peak)
    fi
    local keep=() ren=()
    for s in "${syms[@]}"; do keep+=(--keep-global-symbol="$s"); ren+=(--redefine-sym "$s=${prefix}_$s"); done
    ld -r -o "$out.1.o" "$@"
    objcopy "${keep[@]}" "$out.1.o" "$out.2.o"
    objcopy "${ren[@]}" "$out.2.o" "$out"
}

printf '%-5s %-22s %9s %9s %9s %7s %7s %6s %9s %9s %9s %9s %8s %8s %s\n' \
    kernel "data set" "obj ms" "rt ms" "tap ms" rt/obj tap/obj rt/tap "rt MB" "rt peak" "tap MB" "tap peak" \
    "err rt" "err tap" check
out=$scratch/rows.txt
: >"$out"
for k in "${kernels[@]}"; do
    IFS='|' read -r name head opts heads runs <<<"$k"
    if ((${#want[@]})) && [[ ! " ${want[*]} " == *" $name "* ]]; then continue; fi
    src=$tapdir/$name
    d=$scratch/$name
    mkdir -p "$d/rt"
    cc() { gcc $CFLAGS -w "$@"; }
    if [[ $opts == -d ]]; then
        # The hand tracker: ADBench times its Jacobian in tangent mode (hand_d.c).
        suffix=d
        (cd "$src" && "$RADTAP" -d -head "$head" "$name.c" -O "$d/rt") >"$d/rt.log" 2>&1 ||
            { cat "$d/rt.log" >&2; echo "$name: radtap refused the unmodified source (above)"; continue; }
        mkdir -p "$d/rtv"
        (cd "$src" && "$RADTAP" -d -vector -nbdirsmax 28 -head "$head" "$name.c" -O "$d/rtv") \
            >"$d/rtv.log" 2>&1 || { cat "$d/rtv.log" >&2; echo "$name: radtap -vector refused it"; continue; }
        cc -c "$src/$name.c" -o "$d/orig.o"
        cc -c "$d/rt/${name}_d.c" -I "$src" -I "$d/rt" -o "$d/rt_d.o"
        link_group rt "$d/rt.o" "$d/rt_d.o" "$d/orig.o"
        cc -c "$d/rtv/${name}_dv.c" -I "$src" -I "$d/rtv" -o "$d/rtv_dv.o"
        suffix=dv link_group rtv "$d/rtv.o" "$d/rtv_dv.o" "$d/orig.o"
        cc -c "$src/${name}_d.c" -o "$d/tap_d.o"
        link_group tap "$d/tap.o" "$d/tap_d.o" "$d/orig.o"
        # radtap's adjoint (ADBench's hand module for Tapenade is tangent only): the rows
        # compare its Jacobian by rows with Tapenade's tangent by columns.
        mkdir -p "$d/rtb"
        (cd "$src" && "$RADTAP" -b -head "$head" "$name.c" -O "$d/rtb") >"$d/rtb.log" 2>&1 ||
            { cat "$d/rtb.log" >&2; echo "$name: radtap -b refused it"; continue; }
        "$RADTAP" runtime -O "$d/rtb" >/dev/null 2>&1
        cc -c "$d/rtb/${name}_b.c" -I "$src" -I "$d/rtb" -o "$d/rtb_b.o"
        cc -c "$d/rtb/adStack.c" -I "$d/rtb" -o "$d/rtb_stack.o"
        suffix=b link_group rtb "$d/rtb.o" "$d/rtb_b.o" "$d/rtb_stack.o" "$d/orig.o"
        # The reference: ADBench's manual hand derivative (LightMatrix, no Eigen) with ADBench's
        # reader (shared/utils.cpp), behind hand_manual.cpp's C interface.
        g++ $CFLAGS -w -c "$mandir/${name}_d.cpp" -o "$d/manual_d.o"
        g++ $CFLAGS -w -c "$ADBENCH/src/cpp/shared/utils.cpp" -o "$d/manual_utils.o"
        g++ $CFLAGS -w -c "$here/${name}_manual.cpp" -I "$mandir" -o "$d/manual.o"
        g++ $CFLAGS -w "$here/${name}_main.cpp" -I "$here" -I "$src" \
            "$d/orig.o" "$d/rt.o" "$d/rtv.o" "$d/tap.o" "$d/rtb.o" \
            "$d/manual.o" "$d/manual_d.o" "$d/manual_utils.o" -lm -o "$d/main"
        IFS=';' read -ra sets <<<"$runs"
        for s in "${sets[@]}"; do
            # shellcheck disable=SC2086
            "$d/main" $s | tee -a "$out"
        done
        continue
    fi
    suffix=b
    # shellcheck disable=SC2086
    (cd "$src" && "$RADTAP" -b -head "$head" $opts "$name.c" -O "$d/rt") >"$d/rt.log" 2>&1 ||
        { cat "$d/rt.log" >&2; echo "$name: radtap refused the unmodified source (above)"; continue; }
    "$RADTAP" runtime -O "$d/rt" >/dev/null 2>&1
    cc -c "$src/$name.c" -o "$d/orig.o"
    cc -c "$d/rt/${name}_b.c" -I "$src" -I "$d/rt" -o "$d/rt_b.o"
    cc -c "$d/rt/adStack.c" -I "$d/rt" -o "$d/rt_stack.o"
    link_group rt "$d/rt.o" "$d/rt_b.o" "$d/rt_stack.o" "$d/orig.o"
    cc -c "$src/${name}_b.c" -o "$d/tap_b.o"
    cc -c "$tapdir/utils/adStack.c" -I "$tapdir/utils" -o "$d/tap_stack.o"
    cc -c "$tapdir/utils/adBuffer.c" -I "$tapdir/utils" -o "$d/tap_buffer.o"
    cc -c "$here/../adbench-style/tapstats.c" -I "$kit" -D_ADSTACKPROFILE -o "$d/tapp_stack.o"
    link_group tap "$d/tap.o" "$d/tap_b.o" "$d/tap_stack.o" "$d/tap_buffer.o" "$d/orig.o"
    link_group tapp "$d/tapp.o" "$d/tap_b.o" "$d/tapp_stack.o" "$d/orig.o"
    g++ $CFLAGS -w -c "$mandir/${name}_d.cpp" -o "$d/manual.o"
    g++ $CFLAGS -w "$here/${name}_main.cpp" -I "$here" -I "$src" -I "$mandir" \
        "$d/orig.o" "$d/rt.o" "$d/tap.o" "$d/tapp.o" "$d/manual.o" -lm -o "$d/main"
    IFS=';' read -ra sets <<<"$runs"
    for s in "${sets[@]}"; do
        # shellcheck disable=SC2086
        "$d/main" $s | tee -a "$out"
    done
done
# Columns: kernel, data set, obj, rt, tap, rt/obj, tap/obj, rt/tap, ...
# The geometric mean is over the rows of the adjoints and the scalar tangent (the vector
# tangent rows are radtap's -vector against ADBench's scalar Tapenade tangent).
awk '$8 > 0 && $2 !~ /_(vector|adjoint|sweep)$/ { s += log($8); n++; if ($8 > m) m = $8 }
     END { if (n) printf "geometric mean of rt/tap over %d rows: %.2f; largest: %.2f\n", n, exp(s / n), m }' "$out"
# The same with the hand tracker's Jacobian as radtap computes a Jacobian (one vector-tangent
# call for all columns) against ADBench's Tapenade module (one scalar tangent call per column,
# as ADBench computes it): printed only when the hand rows ran.
awk '$8 > 0 && $1 != "hand" && $2 !~ /_(vector|adjoint|sweep)$/ { s += log($8); n++; if ($8 > m) m = $8 }
     $8 > 0 && $1 == "hand" && $2 ~ /_vector$/ { s += log($8); n++; h++; if ($8 > m) m = $8 }
     END { if (h) printf "geometric mean with the hand Jacobian by radtap -vector over %d rows: %.2f; largest: %.2f\n", n, exp(s / n), m }' "$out"
