//! Calls, assignments and comma expressions hidden inside C expressions, and aliased
//! actual arguments: every one is differentiated right (the corpus program
//! `tests/tangent/c_call_in_initializer.c`) or refused with AD020 at its line, never
//! differentiated silently wrong. Aliased arguments get warning AD072 in tangent mode
//! (Tapenade's DF02) and are refused by the adjoint.

mod common;

use common::*;

/// (file, source, head, -vars, -outvars, modes, expected location, expected message)
type Case = (
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    &'static [&'static str],
    &'static str,
    &'static str,
);

const REFUSED: &[Case] = &[
    (
        "lowered.c",
        "static double g(double t, double *w)\n{\n    *w = t * t;\n    return t;\n}\n\nvoid f(double x, double *y)\n{\n    double w = 0.0;\n    int k;\n    *y = 0.0;\n    for (k = 0; k < 3; k++) {\n        if (g(x, &w) > 10.0)\n            break;\n        *y += w;\n    }\n}\n",
        "f",
        "x",
        "y",
        &["-d", "-b"],
        "lowered.c:13:9: error[AD020]",
        "a call to `g`, which writes real data, inside a condition",
    ),
    (
        "cond.f90",
        "module m\ncontains\n  real(8) function g(t, w)\n    real(8), intent(in) :: t\n    real(8), intent(inout) :: w\n    w = w*t\n    g = w + t\n  end function g\nend module m\n\nsubroutine f(x, y)\n  use m\n  real(8), intent(in) :: x\n  real(8), intent(out) :: y\n  real(8) :: w\n  w = 1d0\n  y = 0d0\n  if (g(x, w) > 0d0) y = w\nend subroutine f\n",
        "f",
        "x",
        "y",
        &["-d", "-b"],
        "cond.f90:18:3: error[AD020]",
        "a call to `g`, which writes real data, inside a condition",
    ),
    (
        "comma.c",
        // A comma run with its statement becomes statements (`il::comma`); one in a
        // branch of a conditional runs only when the branch is taken.
        "void f(double x, double *y)\n{\n    double t = 0.0;\n    double a = x > 0.0 ? (t = x * x, t + 1.0) : x;\n    *y = a + t;\n}\n",
        "f",
        "x",
        "y",
        &["-d", "-b"],
        "comma.c:4:5: error[AD020]",
        "a comma expression inside a differentiated expression",
    ),
    (
        "embedded.c",
        // Only in an operand evaluated on a condition: evaluated with its statement, it runs
        // as a statement before it (`il::comma`; `c_effects_in_expressions.c`).
        "void f(double x, double *y)\n{\n    double a, b = 0.0;\n    a = x * (x > 0.0 ? (b = x * x) : 1.0);\n    *y = a * b;\n}\n",
        "f",
        "x",
        "y",
        &["-d", "-b"],
        "embedded.c:4:5: error[AD020]",
        "an assignment inside an expression of a differentiated statement",
    ),
    (
        "incsub.c",
        "int pos;\n\nvoid f(double x, double *y)\n{\n    y[pos++] = x * x;\n    y[pos++] = 3.0 * x;\n}\n",
        "f",
        "x",
        "y",
        &["-d", "-b"],
        "incsub.c:5:5: error[AD020]",
        "`++`/`--` inside an expression of a differentiated statement",
    ),
    (
        "incnamed.c",
        "void f(double x, double *y)\n{\n    int i = 0;\n    y[0] = 0.0;\n    y[i++] = x * i;\n    y[1] = x > 1.0 ? y[i++] : x;\n}\n",
        "f",
        "x",
        "y",
        &["-d", "-b"],
        "incnamed.c:5:5: error[AD020]",
        "`++`/`--` inside an expression of a differentiated statement",
    ),
    (
        "cond.c",
        "static double g(double t, double *w)\n{\n    *w = t * t;\n    return t;\n}\n\nvoid f(double x, double *y)\n{\n    double w = 0.0;\n    if (g(x, &w) > 0.0)\n        *y = w;\n}\n",
        "f",
        "x",
        "y",
        &["-d", "-b"],
        "cond.c:10:5: error[AD020]",
        "a call to `g`, which writes real data, inside a condition",
    ),
    (
        "ternary.c",
        "static double sq(double t) { return t * t; }\n\nvoid f(double x, double *y)\n{\n    *y = 2.0 * (x > 0.0 ? sq(x) : x);\n}\n",
        "f",
        "x",
        "y",
        &["-d", "-b"],
        "ternary.c:5:5: error[AD020]",
        "in an operand evaluated only on a condition",
    ),
    (
        "fref.c",
        "static double g(double t, double *w)\n{\n    *w = *w * t;\n    return *w + t;\n}\n\nvoid f(double x, double *y)\n{\n    double w = x;\n    *y = g(x, &w) * 2.0;\n    *y += w * w;\n}\n",
        "f",
        "x",
        "y",
        &["-b"],
        "fref.c:10:5: error[AD020]",
        "a reference to the function `g`, which writes real data through its arguments or globals",
    ),
    (
        "nodiff_writes.c",
        "static long pick(double *x, int n) {\n  long b = 0;\n  for (int i = 1; i < n; i++) if (x[i] > x[b]) b = i;\n  x[0] = x[0] * 2.0;\n  return b;\n}\nvoid f(double *x, int n, double *y) {\n  *y = x[pick(x, n)] * x[1];\n}\n",
        "f",
        "x",
        "y",
        &["-d", "-b"],
        "nodiff_writes.c:8:3: error[AD020]",
        "a reference to `pick`, which writes real data but is not differentiated",
    ),
    (
        "rng.c",
        "static double next(unsigned *s) { *s = *s * 1103515245u + 12345u; return (*s % 1000) / 1000.0; }\nvoid f(const double *x, double *y) {\n  unsigned seed = 7;\n  double r = x[0] * next(&seed);\n  *y = r + x[1] * next(&seed);\n}\n",
        "f",
        "x",
        "y",
        &["-d", "-b"],
        "rng.c:4:3: error[AD020]",
        "a reference to `next`, which also writes `*s`, inside a differentiated expression",
    ),
    (
        "memcpy.c",
        // A byte count radtap does not read as elements (`n * sizeof(T)` and `sizeof a` are
        // written as their loop, `il::memcpy`; c_memcpy_copies.c in the corpus).
        "#include <string.h>\nvoid f(const double *x, double *y)\n{\n    double a[3];\n    memcpy(a, x, 3 * 8);\n    a[1] = a[1] * a[0];\n    y[0] = a[1] + a[2] * a[2];\n}\n",
        "f",
        "x",
        "y",
        &["-d", "-b"],
        "memcpy.c:5:5: error[AD020]",
        "`memcpy` of active real data is not differentiated yet",
    ),
    // memset of anything but zero bytes (`memset(a, 0, …)` is written as its loop), over
    // active data: its derivative was silently kept.
    (
        "memset.c",
        "#include <string.h>\nvoid f(const double *x, double *y)\n{\n    double a[3];\n    a[0] = x[0];\n    a[1] = x[1];\n    memset(a, 255, 2 * sizeof(double));\n    a[2] = a[0] * x[1];\n    y[0] = a[1] + a[2];\n}\n",
        "f",
        "x",
        "y",
        &["-d", "-b"],
        "memset.c:7:5: error[AD020]",
        "`memset` of active real data is not differentiated yet",
    ),
    // Through a pointer the copy was dropped silently (no rule, no refusal): into an
    // argument, and into a `malloc`'ed block.
    (
        "memcpy_arg.c",
        "#include <string.h>\nvoid f(const double *x, double *y)\n{\n    memcpy(y, x, 24);\n    y[0] = y[0] * x[1];\n}\n",
        "f",
        "x",
        "y",
        &["-d", "-b"],
        "memcpy_arg.c:4:5: error[AD020]",
        "`memcpy` of active real data is not differentiated yet",
    ),
    (
        "memcpy_heap.c",
        // A byte count radtap does not read as elements (`n * sizeof(T)` is written as its
        // loop, backwards where it must be: `c_memmove_shifts.c`).
        "#include <string.h>\n#include <stdlib.h>\nvoid f(const double *x, double *y)\n{\n    double *a = (double *)malloc(3 * sizeof(double));\n    memmove(a, x, 3 * 8);\n    y[0] = a[0] * a[1];\n    free(a);\n}\n",
        "f",
        "x",
        "y",
        &["-d", "-b"],
        "memcpy_heap.c:6:5: error[AD020]",
        "`memmove` of active real data is not differentiated yet",
    ),
    (
        "alias.c",
        "static void muladd(double *a, const double *b)\n{\n    *a = *a * *b + *b;\n}\n\nvoid f(double *x)\n{\n    muladd(x, x);\n}\n",
        "f",
        "x",
        "x",
        &["-b"],
        "alias.c:8:5: error[AD020]",
        "a call to `muladd` whose arguments 1 and 2 may share memory it writes",
    ),
    (
        "overlap.c",
        "#include <math.h>\nstatic void cell(int b, double *h, double *c)\n{\n    int i;\n    for (i = 0; i < b; i++) {\n        c[i] = c[i] * h[i];\n        h[i] = sin(c[i]);\n    }\n}\n\nvoid f(int b, double *x, double *y)\n{\n    cell(b, &(x[0]), &(x[b - 1]));\n    y[0] = x[0];\n}\n",
        "f",
        "x",
        "y",
        &["-b"],
        "overlap.c:13:5: error[AD020]",
        "a call to `cell` whose arguments 2 and 3 may share memory it writes",
    ),
    (
        "alias.f90",
        "subroutine inner(a, b)\n  real(8), intent(inout) :: a\n  real(8), intent(in) :: b\n  a = a*b + b\nend subroutine inner\n\nsubroutine outer(n, x)\n  integer, intent(in) :: n\n  real(8), intent(inout) :: x(n)\n  integer :: i\n  do i = 1, n\n    call inner(x(i), x(i))\n  end do\n  call inner(x(1), x(2))\nend subroutine outer\n",
        "outer",
        "x",
        "x",
        &["-b"],
        "alias.f90:12:5: error[AD020]",
        "a call to `inner` whose arguments 1 and 2 may share memory it writes",
    ),
];

fn run(
    tag: &str,
    file: &str,
    src: &str,
    head: &str,
    vars: &str,
    outvars: &str,
    mode: &str,
) -> radtap::Outcome {
    let dir = std::env::temp_dir().join(format!("radtap-hidden-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(file);
    std::fs::write(&path, src).unwrap();
    let opts: Vec<String> = [
        "-head", head, "-vars", vars, "-outvars", outvars, "-size", "x=1", "-size", "y=2",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let o = run_cli(&path, &opts, &[mode], &dir.join("out"));
    let _ = std::fs::remove_dir_all(&dir);
    o
}

/// Each construct is refused at its line in the modes listed, with nothing written (also
/// inside a loop the adjoint reverses on its flow graph, `lowered.c`).
#[test]
fn hidden_side_effects_and_aliased_arguments_are_refused_at_their_line() {
    for (file, src, head, vars, outvars, modes, at, needle) in REFUSED {
        for mode in *modes {
            let o = run("refused", file, src, head, vars, outvars, mode);
            assert_eq!(o.status, 1, "{file} {mode}: {}", o.stderr);
            assert!(
                o.stderr.contains(at) && o.stderr.contains(needle),
                "{file} {mode}: expected `{at}` … `{needle}`:\n{}",
                o.stderr
            );
        }
    }
}

/// The tangent of a call with aliased arguments follows the primal: it is written, with
/// warning AD072 at the call (Tapenade's DF02), in C and in Fortran.
#[test]
fn aliased_arguments_are_warned_about_in_tangent_mode() {
    for (file, at) in [
        ("alias.c", "alias.c:8:5: warning[AD072]"),
        ("alias.f90", "alias.f90:12:5: warning[AD072]"),
    ] {
        let (_, src, head, vars, outvars, ..) = REFUSED.iter().find(|c| c.0 == file).unwrap();
        let o = run("warned", file, src, head, vars, outvars, "-d");
        assert_eq!(o.status, 0, "{file}: {}", o.stderr);
        assert!(
            o.stderr.contains(at) && o.stderr.contains("may share memory"),
            "{file}: {}",
            o.stderr
        );
    }
}

/// C `static` locals are automatic when every call writes them before reading them (f2c
/// declares every local `static`), and stay static when a call may read the value of the
/// one before: `y[k] = …; k = 1;` reads `k` in the subscript, and `gk = &m` keeps `m`'s
/// address beyond the call. Both were made automatic at first (the review of `il::statics`:
/// `y[0]` written on every call).
#[test]
fn static_locals_holding_state_stay_static() {
    let src = "static int *gk;\n\nvoid f(double *x, double *y)\n{\n    static int k = 0;\n    static int m;\n    static double t;\n    y[k] = x[0] * x[1];\n    k = 1;\n    m = 2;\n    gk = &m;\n    t = x[0];\n    y[1] = t * (double)*gk;\n}\n";
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("radtap-statics-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("f.c");
    std::fs::write(&path, src).unwrap();
    let opts: Vec<String> = [
        "-head", "f", "-vars", "x", "-outvars", "y", "-size", "x=2", "-size", "y=2",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let o = run_cli(&path, &opts, &["-d"], &dir.join("out"));
    let text = std::fs::read_to_string(dir.join("out").join("f_d.c")).unwrap_or_default();
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(o.status, 0, "{}", o.stderr);
    assert!(text.contains("    static int k = 0;\n"), "{text}");
    assert!(text.contains("    static int m;\n"), "{text}");
    assert!(
        text.contains("    double t;\n") && !text.contains("static double t"),
        "{text}"
    );
}
