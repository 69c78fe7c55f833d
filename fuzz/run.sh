#!/usr/bin/env bash
# Runs every fuzz target for a bounded time: fuzz/run.sh SECONDS (total, split evenly;
# default 600). Needs nightly and cargo-fuzz (`cargo install cargo-fuzz`).
# Seeds: the test corpora (tests/tangent, tests/roundtrip, tests/analysis, tests/diagnostics)
# copied into fuzz/corpus/TARGET (kept between runs, not committed). A crash or a timeout
# (an input over 10 s) leaves its input in fuzz/artifacts/TARGET/; copy it to
# fuzz/regressions/TARGET/ once fixed: `cargo test --test fuzz_corpus` replays that directory
# on stable.
set -euo pipefail
total=${1:-600}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
targets=(fortran_frontend c_frontend pipeline valid_programs)
per=$(( total / ${#targets[@]} ))
[ "$per" -ge 1 ] || per=1
seed() { # seed TARGET: copy the test sources that suit the target into its corpus
    local dir=$here/corpus/$1
    mkdir -p "$dir"
    local pat
    case $1 in
        fortran_frontend) pat='\.(f|f90|F90|F)$' ;;
        c_frontend) pat='\.c$' ;;
        pipeline) pat='\.(f|f90|c)$' ;;
        valid_programs) return ;;
    esac
    find "$root/tests/tangent" "$root/tests/roundtrip" "$root/tests/analysis" \
        "$root/tests/diagnostics" -type f 2>/dev/null | grep -E "$pat" | while read -r f; do
        if [ "$1" = pipeline ]; then
            # The first byte picks the language (0: .f90, 1: .f, 2: .c).
            case $f in *.f90) b='\x00' ;; *.f) b='\x01' ;; *) b='\x02' ;; esac
            { printf "$b"; cat "$f"; } > "$dir/seed_$(basename "$f")"
        else
            cp "$f" "$dir/seed_$(basename "$f")"
        fi
    done
}
status=0
for t in "${targets[@]}"; do
    seed "$t"
    mkdir -p "$here/artifacts/$t"
    echo "== $t: $per s"
    (cd "$here" && cargo +nightly fuzz run -O "$t" "corpus/$t" -- \
        -max_total_time="$per" -timeout=10 -rss_limit_mb=6144 -max_len=16384 \
        -artifact_prefix="artifacts/$t/" -print_final_stats=1) || status=$?
done
exit $status
