#!/usr/bin/env bash
# Tangent-mode run-time benchmark: for each kernel in benches/tangent/, differentiate it with
# radtap in tangent (-d) and vector tangent (-d -vector -nbdirsmax 8) mode, compile the original,
# the generated code and a hand-written driver with -O2, and report
#   T/P   = tangent time (one direction) / primal time          (target <= 1.5)
#   V8/T  = vector tangent time (8 directions) / tangent time   (target well under 8)
# measured in the same run (each variant repeated for >= MIN_TIME seconds, best of 3).
#
# Usage:  benches/tangent.sh [KERNEL...]          (default: all kernels; works from any cwd)
# Environment:
#   RADTAP=path      radtap binary (default target/release/radtap, built with cargo if missing)
#   MIN_TIME=0.2     seconds per timing (the drivers take the best of 3 such timings)
#   KEEP=1           keep the temporary build directory
set -euo pipefail

orig_pwd=$PWD
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
bench_dir=$root/benches/tangent

MIN_TIME=${MIN_TIME:-0.2}
KEEP=${KEEP:-0}
NBDIRSMAX=8

die() { echo "tangent.sh: error: $*" >&2; exit 1; }

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
        echo "tangent.sh: $RADTAP missing, running cargo build --release -q" >&2
        cargo build --release -q
        [[ -x $RADTAP ]] || die "cargo build did not produce $RADTAP"
    fi
fi
[[ $RADTAP == /* ]] || RADTAP=$root/$RADTAP
newer=$(find . -type d \( -name target -o -name tests -o -name benches -o -name examples -o -name '.*' ! -name . \) -prune -o \( -name '*.rs' -o -name Cargo.toml -o -name Cargo.lock \) \
    -newer "$RADTAP" -print -quit 2>/dev/null || true)
if [[ -n $newer ]]; then
    echo "tangent.sh: warning: $RADTAP is older than the sources (e.g. ${newer#./}); rebuild it" \
        "(cargo build --release) to benchmark the current code" >&2
fi

# ---- Kernels: name | source | head | -vars | -outvars (empty: the function result)
#      [| kernel whose driver it shares: same interface, names substituted] ----------------------
kernels=(
    "stencil|stencil.f90|stencil|u|cost"
    "rdiff|rdiff.f90|rdiff|u|cost|stencil"
    "matvec|matvec.c|matvec|x a|y"
    "ode|ode.f90|ode|y|y"
    "logsumexp|logsumexp.c|logsumexp|x|"
)
if (($# > 0)); then
    selected=()
    for want in "$@"; do
        found=0
        for k in "${kernels[@]}"; do
            if [[ ${k%%|*} == "$want" ]]; then selected+=("$k"); found=1; fi
        done
        ((found)) || die "unknown kernel '$want' (known: stencil rdiff matvec ode logsumexp)"
    done
    kernels=("${selected[@]}")
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/radtap-tangent-bench.XXXXXX")
failed=0
cleanup() {
    if [[ $KEEP == 1 || $failed != 0 ]]; then
        echo "tangent.sh: build directory kept: $work" >&2
    else
        rm -rf "$work"
    fi
}
trap cleanup EXIT

# Value of "@ KEY VALUE" in a driver's output.
field() { awk -v k="$1" '$1 == "@" && $2 == k { print $3 }' "$2"; }

rows=()
fail_row() { # name lang reason
    rows+=("$(printf '%-10s %-4s  FAILED: %s' "$1" "$2" "$3")")
    failed=1
}

echo "radtap:   $RADTAP"
echo "gfortran: $(gfortran -dumpfullversion 2>/dev/null || gfortran -dumpversion)   gcc: $(gcc -dumpfullversion 2>/dev/null || gcc -dumpversion)   flags: -O2"
echo "timing:   best of 3 runs of >= ${MIN_TIME}s each; vector mode with $NBDIRSMAX directions"
echo

for k in "${kernels[@]}"; do
    IFS='|' read -r name src head vars outvars driver_of <<<"$k"
    ext=${src##*.}
    stem=${src%.*}
    lang=$([[ $ext == c ]] && echo C || echo F90)
    dir=$work/$name
    mkdir -p "$dir"
    cp "$bench_dir/$src" "$dir/"
    if [[ -n $driver_of ]]; then
        sed "s/$driver_of/$stem/g" "$bench_dir/${driver_of}_main.$ext" >"$dir/${stem}_main.$ext"
    else
        cp "$bench_dir/${stem}_main.$ext" "$dir/"
    fi
    echo "== $name: differentiating, compiling, running" >&2

    args=(-head "$head" -vars "$vars")
    [[ -n $outvars ]] && args+=(-outvars "$outvars")
    if ! (cd "$dir" && "$RADTAP" -d "${args[@]}" "$src" -O . >radtap_d.log 2>&1); then
        echo "   radtap -d ${args[*]} $src failed:" >&2; sed 's/^/   | /' "$dir/radtap_d.log" >&2
        fail_row "$name" "$lang" "radtap -d (see $dir/radtap_d.log)"; continue
    fi
    if ! (cd "$dir" && "$RADTAP" -d -vector -nbdirsmax $NBDIRSMAX "${args[@]}" "$src" -O . >radtap_dv.log 2>&1); then
        echo "   radtap -d -vector failed:" >&2; sed 's/^/   | /' "$dir/radtap_dv.log" >&2
        fail_row "$name" "$lang" "radtap -d -vector (see $dir/radtap_dv.log)"; continue
    fi
    cat "$dir/radtap_d.log" "$dir/radtap_dv.log" | sort -u | sed "s/^/   $name: /" >&2
    gen_d=$dir/${stem}_d.$ext
    gen_dv=$dir/${stem}_dv.$ext
    if [[ ! -f $gen_d || ! -f $gen_dv ]]; then
        fail_row "$name" "$lang" "radtap did not write ${stem}_d.$ext / ${stem}_dv.$ext"; continue
    fi

    if [[ $ext == c ]]; then
        compile=(gcc -O2 -I. -o "$name" "$src" "${stem}_d.c" "${stem}_dv.c" "${stem}_main.c" -lm)
    else
        compile=(gfortran -O2 -o "$name" DIFFSIZES.f90 "$src" "${stem}_d.f90" "${stem}_dv.f90" "${stem}_main.f90")
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

    tp=$(field primal "$dir/run.log"); tt=$(field tangent "$dir/run.log"); tv=$(field vector "$dir/run.log")
    fderr=$(field fd_err "$dir/run.log"); verr=$(field vec_err "$dir/run.log"); perr=$(field prim_err "$dir/run.log")
    if [[ -z $tp || -z $tt || -z $tv || -z $fderr || -z $verr || -z $perr ]]; then
        fail_row "$name" "$lang" "driver output incomplete (see $dir/run.log)"; continue
    fi
    # Derivative checks: tangent vs central differences, vector directions vs tangent, primal
    # results of the derivative routines vs the original.
    status=$(awk -v f="$fderr" -v v="$verr" -v p="$perr" 'BEGIN {
        s = "";
        if (!(f + 0 <= 1e-6)) s = s " fd_err";
        if (!(v + 0 <= 1e-12)) s = s " vec_err";
        if (!(p + 0 <= 1e-12)) s = s " prim_err";
        print (s == "" ? "ok" : "BAD:" s) }')
    [[ $status == ok ]] || failed=1
    rows+=("$(awk -v n="$name" -v l="$lang" -v tp="$tp" -v tt="$tt" -v tv="$tv" -v f="$fderr" -v v="$verr" -v s="$status" 'BEGIN {
        printf "%-10s %-4s %11.4f %11.4f %11.4f %7.2f %7.2f %9.1e %9.1e  %s",
            n, l, tp * 1e3, tt * 1e3, tv * 1e3, tt / tp, tv / tt, f, v, s }')")
done

echo
printf '%-10s %-4s %11s %11s %11s %7s %7s %9s %9s  %s\n' \
    kernel lang "primal ms" "tangent ms" "vector8 ms" "T/P" "V8/T" "fd err" "vec err" check
printf '%s\n' "$(printf '%.0s-' {1..96})"
printf '%s\n' "${rows[@]}"
echo

# Summary over the kernels that ran (rows with numbers).
printf '%s\n' "${rows[@]}" | awk -v total="${#kernels[@]}" '
    $3 != "FAILED:" { n++; tp = $6; vt = $7; lt += log(tp); lv += log(vt);
                      if (tp > mtp) { mtp = tp; ktp = $1 } if (vt > mvt) { mvt = vt; kvt = $1 }
                      if (tp <= 1.5) okt++; if ($NF == "ok") good++ }
    END {
        if (n == 0) { printf "summary: no kernel ran (0/%d)\n", total; exit }
        printf "summary: %d/%d kernels ran, %d with sane derivatives; T/P geomean %.2f (max %.2f %s), %d/%d within 1.5; V8/T geomean %.2f (max %.2f %s), target well under 8\n",
            n, total, good + 0, exp(lt / n), mtp, ktp, okt + 0, n, exp(lv / n), mvt, kvt }'

exit $failed
