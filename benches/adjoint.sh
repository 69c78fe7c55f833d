#!/usr/bin/env bash
# Adjoint-mode run-time benchmark: for each kernel, differentiate it with radtap in adjoint mode
# (-b), compile the original, the generated code, the radtap push/pop runtime (radtap runtime)
# and a hand-written driver in benches/adjoint/ with -O2, and report
#   A/P      = adjoint time (one f_b call, forward + backward sweep) / primal time  (target <= 4)
#   peak     = peak AD stack bytes of one f_b call (adStack_peakBytes)
#   traffic  = bytes pushed during one f_b call (adStack_totalTraffic)
#   dot err  = |<adjoint, v> - finite difference in direction v| / |finite difference|
#              for one pseudo-random direction v (informational sanity check)
# measured in the same run (each variant repeated for >= MIN_TIME seconds, best of 3).
#
# Usage:  benches/adjoint.sh [KERNEL...]          (default: all kernels; works from any cwd)
# Environment:
#   RADTAP=path      radtap binary (default target/release/radtap, built with cargo if missing)
#   MIN_TIME=0.2     seconds per timing (the drivers take the best of 3 such timings)
#   KEEP=1           keep the temporary build directory
set -euo pipefail

orig_pwd=$PWD
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
bench_dir=$root/benches/adjoint

MIN_TIME=${MIN_TIME:-0.2}
KEEP=${KEEP:-0}
DOT_TOL=1e-5   # a dot-product error above this marks the row BAD
AP_TARGET=4

die() { echo "adjoint.sh: error: $*" >&2; exit 1; }

# ---- Tools -------------------------------------------------------------------------------
for tool in gfortran gcc; do
    command -v "$tool" >/dev/null 2>&1 ||
        die "'$tool' not found in PATH; the benchmark needs gcc and gfortran (apt-get install gcc gfortran)"
done

if [[ -n ${RADTAP:-} ]]; then
    # A relative RADTAP is taken from the caller's directory if it exists there, else from the
    # repository root.
    if [[ $RADTAP != /* && -e $orig_pwd/$RADTAP ]]; then RADTAP=$orig_pwd/$RADTAP; fi
    [[ -x $RADTAP ]] || die "RADTAP=$RADTAP is not an executable file"
else
    RADTAP=target/release/radtap
    if [[ ! -x $RADTAP ]]; then
        command -v cargo >/dev/null 2>&1 || die "$RADTAP is missing and cargo is not in PATH to build it"
        echo "adjoint.sh: $RADTAP missing, running cargo build --release -q" >&2
        cargo build --release -q
        [[ -x $RADTAP ]] || die "cargo build did not produce $RADTAP"
    fi
fi
[[ $RADTAP == /* ]] || RADTAP=$root/$RADTAP
newer=$(find . -type d \( -name target -o -name tests -o -name benches -o -name examples -o -name '.*' ! -name . \) -prune -o \( -name '*.rs' -o -name Cargo.toml -o -name Cargo.lock \) \
    -newer "$RADTAP" -print -quit 2>/dev/null || true)
if [[ -n $newer ]]; then
    echo "adjoint.sh: warning: $RADTAP is older than the sources (e.g. ${newer#./}); rebuild it" \
        "(cargo build --release) to benchmark the current code" >&2
fi

# ---- Kernels: name | source (relative to benches/) | head | -vars | -outvars (empty: the
#      function result) [| kernel whose driver it shares: same interface, names substituted].
#      The driver of kernel K is benches/adjoint/K_main.EXT. -------------------------------------
kernels=(
    "stencil|tangent/stencil.f90|stencil|u|cost"
    "rdiff|tangent/rdiff.f90|rdiff|u|cost|stencil"
    "matvec|tangent/matvec.c|matvec|x a|y"
    "ode|tangent/ode.f90|ode|y|y"
    "logsumexp|tangent/logsumexp.c|logsumexp|x|"
    "nldiff|adjoint/nldiff.f90|nldiff|u|cost"
)
known=$(printf '%s\n' "${kernels[@]}" | cut -d'|' -f1 | tr '\n' ' ')
if (($# > 0)); then
    selected=()
    for want in "$@"; do
        found=0
        for k in "${kernels[@]}"; do
            if [[ ${k%%|*} == "$want" ]]; then selected+=("$k"); found=1; fi
        done
        ((found)) || die "unknown kernel '$want' (known: ${known% })"
    done
    kernels=("${selected[@]}")
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/radtap-adjoint-bench.XXXXXX")
failed=0
cleanup() {
    if [[ $KEEP == 1 || $failed != 0 ]]; then
        echo "adjoint.sh: build directory kept: $work" >&2
    else
        rm -rf "$work"
    fi
}
trap cleanup EXIT

# ---- Runtime (adStack.c), written by this radtap and compiled once ---------------------------
rt=$work/runtime
if ! "$RADTAP" runtime -O "$rt" >"$work/runtime.log" 2>&1; then
    failed=1; sed 's/^/   | /' "$work/runtime.log" >&2
    die "'$RADTAP runtime -O $rt' failed"
fi
[[ -f $rt/adStack.c && -f $rt/adStack.h ]] || { failed=1; die "radtap runtime did not write adStack.c/adStack.h"; }
if ! gcc -O2 -c "$rt/adStack.c" -I"$rt" -o "$rt/adStack.o" 2>"$work/runtime_cc.log"; then
    failed=1; sed 's/^/   | /' "$work/runtime_cc.log" >&2
    die "gcc -O2 -c adStack.c failed"
fi

# Value of "@ KEY VALUE" in a driver's output.
field() { awk -v k="$1" '$1 == "@" && $2 == k { print $3 }' "$2"; }

rows=()
fail_row() { # name lang reason
    rows+=("$(printf '%-10s %-4s  FAILED: %s' "$1" "$2" "$3")")
    failed=1
}

echo "radtap:   $RADTAP"
echo "gfortran: $(gfortran -dumpfullversion 2>/dev/null || gfortran -dumpversion)   gcc: $(gcc -dumpfullversion 2>/dev/null || gcc -dumpversion)   flags: -O2"
echo "timing:   best of 3 runs of >= ${MIN_TIME}s each; stack figures of one adjoint call"
echo

for k in "${kernels[@]}"; do
    IFS='|' read -r name srcpath head vars outvars driver_of <<<"$k"
    src=${srcpath##*/}
    ext=${src##*.}
    stem=${src%.*}
    lang=$([[ $ext == c ]] && echo C || echo F90)
    dir=$work/$name
    mkdir -p "$dir"
    cp "$root/benches/$srcpath" "$dir/"
    if [[ -n $driver_of ]]; then
        sed "s/$driver_of/$stem/g" "$bench_dir/${driver_of}_main.$ext" >"$dir/${stem}_main.$ext"
    else
        cp "$bench_dir/${stem}_main.$ext" "$dir/"
    fi
    echo "== $name: differentiating, compiling, running" >&2

    args=(-head "$head" -vars "$vars")
    [[ -n $outvars ]] && args+=(-outvars "$outvars")
    if ! (cd "$dir" && "$RADTAP" -b "${args[@]}" "$src" -O . >radtap_b.log 2>&1); then
        echo "   radtap -b ${args[*]} $src failed:" >&2; sed 's/^/   | /' "$dir/radtap_b.log" >&2
        fail_row "$name" "$lang" "radtap -b (see $dir/radtap_b.log)"; continue
    fi
    sort -u "$dir/radtap_b.log" | sed "s/^/   $name: /" >&2
    gen_b=$dir/${stem}_b.$ext
    if [[ ! -f $gen_b ]]; then
        fail_row "$name" "$lang" "radtap did not write ${stem}_b.$ext"; continue
    fi

    if [[ $ext == c ]]; then
        compile=(gcc -O2 -I"$rt" -o "$name" "$src" "${stem}_b.c" "${stem}_main.c" "$rt/adStack.o" -lm)
    else
        compile=(gfortran -O2 -o "$name" "$src" "${stem}_b.f90" "${stem}_main.f90" "$rt/adStack.o")
    fi
    if ! (cd "$dir" && "${compile[@]}" >compile.log 2>&1); then
        echo "   compile failed: ${compile[*]}" >&2; grep -iE -A3 'error' "$dir/compile.log" | head -30 | sed 's/^/   | /' >&2
        fail_row "$name" "$lang" "compile (see $dir/compile.log)"; continue
    fi
    if ! (cd "$dir" && "./$name" "$MIN_TIME" >run.log 2>&1); then
        sed 's/^/   | /' "$dir/run.log" >&2
        fail_row "$name" "$lang" "driver crashed (see $dir/run.log)"; continue
    fi
    grep -v '^@' "$dir/run.log" | sed "s/^/   $name: /" >&2

    tp=$(field primal "$dir/run.log"); ta=$(field adjoint "$dir/run.log")
    peak=$(field peak "$dir/run.log"); traffic=$(field traffic "$dir/run.log"); left=$(field left "$dir/run.log")
    doterr=$(field dot_err "$dir/run.log")
    if [[ -z $tp || -z $ta || -z $peak || -z $traffic || -z $left || -z $doterr ]]; then
        fail_row "$name" "$lang" "driver output incomplete (see $dir/run.log)"; continue
    fi
    # Sanity: the adjoint agrees with finite differences in the test direction, and the
    # adjoint call pops everything it pushed.
    status=$(awk -v d="$doterr" -v l="$left" -v tol="$DOT_TOL" 'BEGIN {
        s = "";
        if (!(d + 0 <= tol + 0)) s = s " dot_err";
        if (l + 0 != 0) s = s " stack_not_empty(" l " bytes)";
        print (s == "" ? "ok" : "BAD:" s) }')
    if [[ $status != ok ]]; then
        failed=1
        echo "   $name: $status (dot_err $doterr, tolerance $DOT_TOL; bytes left on the stack $left)" >&2
    fi
    rows+=("$(awk -v n="$name" -v l="$lang" -v tp="$tp" -v ta="$ta" -v pk="$peak" -v tr="$traffic" -v d="$doterr" -v s="$status" 'BEGIN {
        printf "%-10s %-4s %10.3f %10.3f %6.2f %10.2f %10.2f %9.1e  %s",
            n, l, tp * 1e3, ta * 1e3, ta / tp, pk / 1e6, tr / 1e6, d, s }')")
done

echo
printf '%-10s %-4s %10s %10s %6s %10s %10s %9s  %s\n' \
    kernel lang "primal ms" "adjoint ms" "A/P" "peak MB" "traffic MB" "dot err" check
printf '%s\n' "$(printf '%.0s-' {1..82})"
printf '%s\n' "${rows[@]}"
echo

# Summary over the kernels that ran (rows with numbers).
printf '%s\n' "${rows[@]}" | awk -v total="${#kernels[@]}" -v target="$AP_TARGET" '
    $3 != "FAILED:" { n++; ap = $5; la += log(ap);
                      if (ap > map) { map = ap; kap = $1 } if ($6 > mpk) { mpk = $6; kpk = $1 }
                      if (ap <= target) ok++; if ($NF == "ok") good++ }
    END {
        if (n == 0) { printf "summary: no kernel ran (0/%d)\n", total; exit }
        printf "summary: %d/%d kernels ran, %d with sane adjoints; A/P geomean %.2f (max %.2f %s), %d/%d within %g; largest peak stack %.2f MB (%s)\n",
            n, total, good + 0, exp(la / n), map, kap, ok + 0, n, target, mpk, kpk }'

exit $failed
