#!/usr/bin/env bash
# Scaling benchmark (issue 24): time and memory of radtap -p, -d and -b per input line on
# synthetic programs of growing size, so that super-linear growth is visible. Two programs
# per size:
#   procs     a module of 20-line subroutines (loops, branches, intrinsics), each called by a
#             head that chains them: the whole program is differentiated;
#   straight  one subroutine of straight-line assignments over a few hundred variables;
#   cline     the same statements in C, all on one line (LINES statements: the issue's 10 MB
#             line of C statements is about 365,000 of them);
#   cexpr     one machine-generated C statement of LINES/50 parenthesised operands
#             (`(x[0]) - (x[1]) * (y) - …`; figures per operand).
# For each size (default 10000 50000 200000 lines) and mode it prints wall time, CPU time and
# peak memory, and the same per input line (us/line, KB/line); linear growth keeps the
# per-line figures flat from the smallest to the largest size.
#
# Usage:   benches/scaling.sh [LINES...]
# Env:     RADTAP=path  binary to measure (default: target/release/radtap, built if missing)
#          KEEP=1       keep the generated programs and outputs
#          KINDS="cline cexpr"  the programs to measure (default all four)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
sizes=("$@")
[ ${#sizes[@]} -eq 0 ] && sizes=(10000 50000 200000)
target=${CARGO_TARGET_DIR:-$root/target}
RADTAP=${RADTAP:-$target/release/radtap}
if [ ! -x "$RADTAP" ]; then
    (cd "$root" && cargo build --release --bin radtap >&2)
fi
command -v /usr/bin/time >/dev/null || { echo "scaling.sh: needs /usr/bin/time (apt-get install time)" >&2; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/radtap-scaling.XXXXXX")
[ "${KEEP:-0}" = 1 ] || trap 'rm -rf "$work"' EXIT

gen() { # gen KIND LINES FILE
    python3 - "$1" "$2" "$3" <<'EOF'
import sys
kind, lines, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
out = []
if kind == "procs":
    body = """  subroutine step{k}(n, x, y, a)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n), a
    real(8), intent(inout) :: y(n)
    real(8) :: t, s
    integer :: i
    s = 0.0d0
    do i = 1, n
      t = a*x(i) + sin(y(i))**2
      if (t > 1.0d0) then
        y(i) = y(i) + sqrt(t)*exp(-t)
      else
        y(i) = 0.5d0*(y(i) + t)
      end if
      s = s + y(i)*x(i)
    end do
    y(1) = y(1) + s/real(n, 8)
  end subroutine step{k}
"""
    per = body.count("\n")
    k = max(1, (lines - 20) // (per + 1))
    out.append("module gen_mod\n  implicit none\ncontains\n")
    for j in range(k):
        out.append(body.format(k=j))
    out.append("  subroutine head(n, x, y, a)\n    integer, intent(in) :: n\n"
               "    real(8), intent(in) :: x(n), a\n    real(8), intent(inout) :: y(n)\n")
    for j in range(k):
        out.append(f"    call step{j}(n, x, y, a)\n")
    out.append("  end subroutine head\nend module gen_mod\n")
elif kind == "cline":
    nv = 200
    out.append("#include <math.h>\nvoid head(double x, double *y) { double "
               + ", ".join(f"v{i}" for i in range(nv)) + "; v0 = x;")
    for j in range(1, lines):
        a, b, c = j % nv, (j * 7 + 3) % nv, (j * 13 + 5) % nv
        out.append(f" v{a} = v{b}*0.5 + sin(v{c});")
    out.append(" *y = v1 + v2; }\n")
elif kind == "cexpr":
    # One machine-generated statement of LINES/50 parenthesised operands (issue 43: the
    # cast/parenthesis ambiguity made tree-sitter's time grow faster than its square).
    k = max(2, lines // 50)
    terms = [f"(x[{j % 10}])" + (" * (y)" if j % 3 == 0 else "") for j in range(k)]
    out.append("void head(const double *x, double y, double *r) {\n  *r = "
               + " - ".join(terms) + ";\n}\n")
else:
    nv = 200
    out.append("subroutine head(x, y)\n  real(8), intent(in) :: x\n  real(8), intent(out) :: y\n")
    out.append("  real(8) :: " + ", ".join(f"v{i}" for i in range(nv)) + "\n")
    out.append("  v0 = x\n")
    for j in range(1, lines - 6):
        a, b, c = j % nv, (j * 7 + 3) % nv, (j * 13 + 5) % nv
        out.append(f"  v{a} = v{b}*0.5d0 + sin(v{c})\n")
    out.append(f"  y = v1 + v2\nend subroutine head\n")
open(path, "w").write("".join(out))
EOF
}

printf '%-9s %8s %4s %9s %9s %10s %9s %9s\n' program lines mode wall_s cpu_s peak_MB us/line KB/line
for kind in ${KINDS:-procs straight cline cexpr}; do
    for n in "${sizes[@]}"; do
        ext=f90
        [ "$kind" = cline ] || [ "$kind" = cexpr ] && ext=c
        src=$work/${kind}_$n.$ext
        gen "$kind" "$n" "$src"
        # Per input line; for the one-line C program, per statement.
        actual=$(wc -l < "$src")
        [ "$kind" = cline ] && actual=$n
        [ "$kind" = cexpr ] && actual=$((n / 50))
        for mode in -p -d -b; do
            out=$work/out_${kind}_${n}$mode
            if ! /usr/bin/time -f '%e %U %S %M' -o "$work/time" \
                "$RADTAP" $mode -head head "$src" -O "$out" >"$work/log" 2>&1; then
                echo "scaling.sh: radtap $mode failed on $src:" >&2
                tail -5 "$work/log" >&2
                exit 1
            fi
            read -r wall user sys kb < "$work/time"
            awk -v k="$kind" -v n="$actual" -v m="$mode" -v w="$wall" -v u="$user" -v s="$sys" -v kb="$kb" \
                'BEGIN { printf "%-9s %8d %4s %9.2f %9.2f %10.1f %9.2f %9.2f\n",
                         k, n, m, w, u + s, kb / 1024, (u + s) * 1e6 / n, kb / n }'
            rm -rf "$out"
        done
    done
done
