//! What the adjoint refuses, asks for or works around instead of writing wrong code: a size it
//! cannot infer (asked for by name, used when given), a chained assignment reading its target,
//! an ELSEWHERE mask reading a written array, Fortran pointers associated in loops, an impure
//! function inside an expression (split out or refused), a VLA whose bound changes, a snapshot
//! of data behind a record member, a heap work array whose count changes.

use super::*;

/// Memory behind a C pointer or an assumed-size array has no size radtap can see: the
/// adjoint asks for it by name (`-size y=N`) instead of recording too little, and records
/// exactly that many elements when given (the suite above proves the numbers).
#[test]
fn unknown_sizes_are_asked_for_by_name_and_used_when_given() {
    for (file, head, vars) in [
        (
            "tests/tangent/c_globals.c",
            "gl_head",
            ["-vars", "x", "-outvars", "y"],
        ),
        (
            "tests/tangent/f_assumed_size.f90",
            "asize",
            ["-vars", "x y", "-outvars", "y"],
        ),
    ] {
        let dir =
            std::env::temp_dir().join(format!("radtap-adjoint-size-{}-{head}", std::process::id()));
        let mut opts: Vec<String> = vec!["-head".into(), head.into()];
        opts.extend(vars.iter().map(|s| s.to_string()));
        let mut p = Path::new(file).to_path_buf();
        if head == "gl_head" {
            // The callee's code shows it writes y[0 .. n) only: each call records that
            // section, no -size needed (`slices.rs`). Under a condition its extent is
            // unknown again, and so is what to record.
            let o = run_cli(&p, &opts, &["-b"], &dir);
            assert_eq!(o.status, 0, "{}", o.stderr);
            assert!(
                o.written[0].1.contains("pushReal8Array(y, n)"),
                "{}",
                o.written[0].1
            );
            let text = std::fs::read_to_string(&p).unwrap().replace(
                "        y[i] = g_scale",
                "        if (i < n)\n            y[i] = g_scale",
            );
            std::fs::create_dir_all(&dir).unwrap();
            p = dir.join("c_globals_cond.c");
            std::fs::write(&p, text).unwrap();
        }
        let p = p.as_path();
        let o = run_cli(p, &opts, &["-b"], &dir);
        assert_eq!(o.status, 1, "{}", o.stderr);
        assert!(o.stderr.contains("give -size y=N"), "{}", o.stderr);
        let o = run_cli(p, &opts, &["-b", "-size", "y=n"], &dir);
        assert_eq!(o.status, 0, "{}", o.stderr);
        let text = &o.written[0].1;
        assert!(
            text.contains("pushReal8Array(y, n)") || text.contains("call pushreal8array(y, n)"),
            "{text}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// A chained assignment whose value reads one of its targets (`a = b = 2 * b`) is refused at
/// its line rather than differentiated as if every target held the same value.
#[test]
fn chained_assignment_reading_a_target_is_refused() {
    assert_adjoint_refused(
        "chain_self.c",
        "void f(double x, double *y)\n{\n    double a, b;\n    b = x;\n    a = b = 2.0 * b;\n    *y = a * b;\n}\n",
        "y",
        ":5:5:",
        "reads one of its targets",
    );
}

/// An ELSEWHERE mask that reads what an earlier arm wrote other than element by element
/// (here through a reduction, which sees the written values) is still refused at its line;
/// read element by element it is differentiated (`tests/tangent/f_where_deferred_masks.f90`).
#[test]
fn elsewhere_mask_reading_a_written_array_through_a_reduction_is_refused() {
    assert_adjoint_refused(
        "elsewhere_sum.f90",
        "subroutine f(x, y)\n  real(8), intent(inout) :: x(4)\n  real(8), intent(out) :: y\n  where (x < 1.0d0)\n    x = x*x\n  elsewhere (x > sum(x)/4)\n    x = sin(x)\n  end where\n  y = sum(x)\nend subroutine f\n",
        "x y",
        ":4:3:",
        "other than element by element",
    );
}

/// Fortran pointers whose associations cannot be re-established backwards (associated inside
/// a loop, or a dummy pointer) are refused at their line.
#[test]
fn fortran_pointers_associated_in_loops_are_refused() {
    assert_adjoint_refused(
        "ptr_loop.f90",
        "subroutine f(n, x, y)\n  integer, intent(in) :: n\n  real(8), intent(inout), target :: x(n)\n  real(8), intent(out) :: y\n  real(8), pointer :: p\n  integer :: i\n  y = 0\n  do i = 1, n\n    p => x(i)\n    p = sin(p)\n    y = y + p*p\n  end do\nend subroutine f\n",
        "x y",
        ":9:5:",
        "inside a loop",
    );
}

/// A function writing real data with a derivative (here a module variable) referenced inside
/// an expression is refused at its line: the backward sweep would recompute the result and
/// `f_b` run `f`'s forward sweep again, so `acc` was incremented twice (a silently wrong
/// adjoint). One whose effect carries no derivative runs its split pair once.
#[test]
fn impure_function_in_an_expression_is_split_or_refused() {
    let dir = std::env::temp_dir().join(format!("radtap-adjoint-impure-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("side.f90");
    std::fs::write(
        &src,
        "module m\n  implicit none\n  real(8) :: acc\ncontains\n  function f(t) result(r)\n    real(8), intent(in) :: t\n    real(8) :: r\n    acc = acc + t\n    r = t*acc\n  end function f\nend module m\n\nsubroutine h(x, y)\n  use m\n  implicit none\n  real(8), intent(in) :: x\n  real(8), intent(out) :: y\n  acc = x\n  y = f(x)\nend subroutine h\n",
    )
    .unwrap();
    let opts: Vec<String> = ["-head", "h", "-vars", "x", "-outvars", "y"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    // Real data with a derivative written by a function in an expression: still refused.
    let o = run_cli(&src, &opts, &["-b"], &dir.join("out"));
    assert_eq!(o.status, 1, "{}", o.stderr);
    assert!(
        o.stderr.contains(":19:3: error[AD020]")
            && o.stderr.contains(
                "the function `f`, which writes real data through its arguments or globals"
            ),
        "{}",
        o.stderr
    );
    // The tangent runs `f_d` once: still differentiated.
    let o = run_cli(&src, &opts, &["-d"], &dir.join("out3"));
    assert_eq!(o.status, 0, "{}", o.stderr);
    let _ = std::fs::remove_dir_all(&dir);
    // Issue 44 item 7: a SAVE counter, and (C) an integer written through a pointer that an
    // earlier statement's adjoint reads (the backward sweep ran `sq` again and the adjoint of
    // `w = x[0] * k` used k = 3 instead of 1), were refused; the reference now runs `g_fwd`
    // forwards and `g_bwd` backwards (the effect once), what it writes that earlier
    // statements need recorded around it. Tangent and adjoint agree.
    let save = "! radtap: -head h -vars \"x\" -outvars \"y\"\n! sizes:\nfunction g(t) result(r)\n  implicit none\n  real(8), intent(in) :: t\n  real(8) :: r\n  real(8), save :: n = 0\n  n = n + 1\n  r = t*n\nend function g\n\nsubroutine h(x, y)\n  implicit none\n  real(8), intent(in) :: x\n  real(8), intent(out) :: y\n  real(8), external :: g\n  y = g(x) + x\nend subroutine h\n";
    let ptr = "// radtap: -head f -vars \"x\" -outvars \"y\"\n// sizes: x=2 y=1\nstatic double sq(double t, int *k) { *k = *k + 1; return t * t; }\nvoid f(const double *x, double *y) {\n  int k = 1;\n  double w = x[0] * k;\n  double s = sq(x[1], &k);\n  *y = w * s;\n}\n";
    for (name, text) in [("side_save.f90", save), ("side_ptr.c", ptr)] {
        let (dot_y, dot_x, _) = tangent_and_adjoint(name, text);
        assert!(
            (dot_y - dot_x).abs() <= 1e-12 * dot_y.abs().max(1e-300),
            "{name}: <ydot, ybar> = {dot_y}, <xdot, xbar> = {dot_x}"
        );
    }
}

/// A C VLA is hoisted to the top of the adjoint with the extent of its bound there: a bound
/// that reads a local changed after its initialisation, or a parameter the function changes
/// (assigned, or stepped by `n++` in an expression statement, which went unnoticed: the
/// hoisted array was one element short), would give another extent, so it is refused at the
/// declaration (`c_vla_work.c` and `c_lstm_cells.c`, a local bound `int m = 2 * l * b;`, have
/// the bounds that work).
#[test]
fn vla_with_a_changing_bound_is_refused() {
    let body = "    int i;\n    *y = 0.0;\n    for (i = 0; i < n; i++)\n        t[i] = sin(x[i]);\n    for (i = 0; i < n; i++)\n        *y += t[i] * t[i];\n}\n";
    assert_adjoint_refused(
        "vla_local.c",
        &format!("#include <math.h>\nvoid f(int n, const double *x, double *y)\n{{\n    int k = n + 1;\n    double t[k];\n    k--;\n{body}"),
        "y",
        ":5:5:",
        "a C variable-length array whose bound reads a variable this function changes",
    );
    assert_adjoint_refused(
        "vla_stepped.c",
        &format!("#include <math.h>\nvoid f(int n, const double *x, double *y)\n{{\n    n++;\n    double t[n];\n{body}"),
        "y",
        ":5:5:",
        "a C variable-length array whose bound reads a variable this function changes",
    );
    assert_adjoint_refused(
        "vla_param.c",
        &format!("#include <math.h>\nvoid f(int n, const double *x, double *y)\n{{\n    double t[n];\n    n = n - 1;\n{body}"),
        "y",
        ":4:5:",
        "a C variable-length array whose bound reads a variable this function changes",
    );
}

/// A struct recorded as bytes keeps its pointer members, not the data they designate (the
/// zone of `v->data` is the data): a snapshot that needs the data behind a member the
/// procedure did not allocate is refused at the call (it recorded the struct's bytes and
/// replayed `smooth` on the last values, a silently wrong adjoint; `c_member_snapshot.c` has
/// the member allocated by the procedure, whose block is recorded).
#[test]
fn snapshot_of_data_behind_a_record_member_is_refused() {
    let dir = std::env::temp_dir().join(format!("radtap-adjoint-member-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("pvec.c");
    std::fs::write(
        &src,
        "#include <math.h>\n\ntypedef struct {\n    int n;\n    double *data;\n} Vec;\n\nstatic void smooth(Vec *v)\n{\n    int i;\n    for (i = 0; i < v->n; i++)\n        v->data[i] = sin(v->data[i]) * v->data[i] + 0.5;\n}\n\nvoid f(Vec *v, double *y)\n{\n    int k;\n    for (k = 0; k < 3; k++)\n        smooth(v);\n    y[0] = v->data[0] * v->data[1];\n}\n",
    )
    .unwrap();
    let opts: Vec<String> = ["-head", "f(y)/(v)", "-size", "v=1"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let o = run_cli(&src, &opts, &["-b"], &dir.join("out"));
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(o.status, 1, "{}", o.stderr);
    assert!(
        o.stderr.contains("pvec.c:19:9: error[AD020]")
            && o.stderr
                .contains("recording what the record member `v.data` points to"),
        "{}",
        o.stderr
    );
}

/// A `malloc`'d work array is recorded with the extent of its allocation only when that
/// extent is still the block's wherever it is recorded: a count that changes after the
/// allocation leaves the block unrecordable, refused where it is needed
/// (`c_malloc_rows.c` has the allocations that work).
#[test]
fn heap_work_array_with_a_changing_count_is_refused() {
    assert_adjoint_refused(
        "heap_count.c",
        "#include <math.h>\n#include <stdlib.h>\nstatic void g(int n, const double *x, double *t)\n{\n    int i;\n    for (i = 0; i < n; i++)\n        t[i] = sin(x[i]);\n}\nvoid f(int n, const double *x, double *y)\n{\n    double *t = malloc(n * sizeof(double));\n    int r, i;\n    n = n - 1;\n    *y = 0.0;\n    for (r = 0; r < 2; r++) {\n        g(n, x, t);\n        for (i = 0; i < n; i++)\n            *y += t[i] * t[i];\n    }\n    free(t);\n}\n",
        "y",
        ":16:9:",
        "in memory allocated at line 11 whose element count radtap cannot fix",
    );
}
