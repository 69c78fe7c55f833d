//! The command line: Tapenade spellings, exit statuses, -head and -vars checks, -primal output.

use std::process::Command;

fn radtap(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_radtap"))
        .args(args)
        .output()
        .expect("run radtap");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn tapenade_single_dash_options_are_accepted() {
    let dir = std::env::temp_dir().join(format!("radtap-cli-{}", std::process::id()));
    let d = dir.to_string_lossy().into_owned();
    let (code, _, err) = radtap(&[
        "-primal",
        "-head",
        "heat_step",
        "-vars",
        "u",
        "-outvars",
        "u",
        "-O",
        &d,
        "examples/heat.f90",
    ]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(dir.join("heat_p.f90")).expect("heat_p.f90 written");
    assert!(text.contains("subroutine heat_step"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn unknown_head_is_reported() {
    let (code, _, err) = radtap(&[
        "-p",
        "-head",
        "nosuch",
        "-O",
        "/tmp/radtap-cli-x",
        "examples/heat.f90",
    ]);
    assert_eq!(code, 1);
    assert!(
        err.contains("error[AD040]") && err.contains("nosuch") && err.contains("heat_step"),
        "{err}"
    );
}

#[test]
fn unknown_variable_is_reported() {
    let (code, _, err) = radtap(&[
        "-p",
        "-head",
        "heat_step",
        "-vars",
        "zzz",
        "-O",
        "/tmp/radtap-cli-x",
        "examples/heat.f90",
    ]);
    assert_eq!(code, 1);
    assert!(err.contains("error[AD041]") && err.contains("zzz"), "{err}");
}

#[test]
fn bad_command_line_exits_with_2() {
    let (code, _, _) = radtap(&["-p", "--no-such-option", "examples/heat.f90"]);
    assert_eq!(code, 2);
    let (code, _, err) = radtap(&["examples/heat.f90"]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = radtap(&["-d", "examples/heat.f90"]);
    assert_eq!(code, 2);
    assert!(err.contains("-head"), "{err}");
    // A bad option value is a bad command line too.
    let (code, _, err) = radtap(&[
        "-d",
        "-head",
        "heat_step",
        "-nooptim",
        "bogus",
        "examples/heat.f90",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("-nooptim bogus: unknown optimization"),
        "{err}"
    );
    let (code, _, err) = radtap(&[
        "-d",
        "-head",
        "heat_step",
        "-size",
        "n",
        "examples/heat.f90",
    ]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn help_explains_the_options() {
    let (code, out, _) = radtap(&["--help"]);
    assert_eq!(code, 0);
    for opt in [
        "--head",
        "--vars",
        "--outvars",
        "--primal",
        "--tangent",
        "--reverse",
        "-O",
    ] {
        assert!(out.contains(opt), "--help does not mention {opt}");
    }
}

#[test]
fn explain_prints_a_code() {
    let (code, _, err) = radtap(&["-explain", "AD020"]);
    assert_eq!(code, 0);
    assert!(
        err.contains("AD020") && err.contains("not support"),
        "{err}"
    );
    // Every code has a real explanation: a paragraph, and what to do.
    for c in radtap_il::Code::ALL {
        let (code, _, err) = radtap(&["-explain", c.as_str()]);
        assert_eq!(code, 0, "{err}");
        assert!(err.lines().count() >= 5, "{}: {err}", c.as_str());
        assert!(err.contains("What to do"), "{}: {err}", c.as_str());
    }
}

fn scratch(name: &str, text: &str) -> (std::path::PathBuf, String) {
    let dir = std::env::temp_dir().join(format!("radtap-cli-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join(format!("{name}.f90"));
    std::fs::write(&f, text).unwrap();
    (dir, f.to_string_lossy().into_owned())
}

#[test]
fn tangent_through_unsupported_constructs_is_diagnosed() {
    let (dir, f) = scratch(
        "ext",
        "subroutine f(x, y)\n  implicit none\n  real(8), intent(in) :: x\n  real(8), intent(out) :: y\n  real(8), external :: blackbox\n  real(8) :: a(2)\n  a = x\n  read (*, *) a(1)\n  y = blackbox(x) + a(1)*a(2)\nend subroutine f\n",
    );
    let d = dir.to_string_lossy().into_owned();
    let (code, _, err) = radtap(&[
        "-d", "-head", "f", "-vars", "x", "-outvars", "y", "-O", &d, &f,
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("ext.f90:9:3: error[AD070]") && err.contains("`blackbox`"),
        "{err}"
    );
    assert!(err.contains("ext.f90:8:3: warning[AD071]"), "{err}");
    assert!(
        err.contains("y = blackbox(x) + a(1)*a(2)"),
        "the source line is shown: {err}"
    );
    assert!(
        !dir.join("ext_d.f90").exists(),
        "nothing is written on error"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn tangent_names_follow_patterns_and_never_clash() {
    let (dir, f) = scratch(
        "clash",
        "subroutine f(x, xd, y)\n  implicit none\n  real(8), intent(in) :: x, xd\n  real(8), intent(out) :: y\n  y = x*xd\nend subroutine f\n",
    );
    let d = dir.to_string_lossy().into_owned();
    let (code, _, err) = radtap(&[
        "-d", "-head", "f", "-vars", "x", "-outvars", "y", "-O", &d, &f,
    ]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(dir.join("clash_d.f90")).unwrap();
    // The user's `xd` keeps its name; the derivative of x takes the next free one.
    assert!(text.contains("subroutine f_d(x, xd0, xd, y, yd)"), "{text}");
    assert!(text.contains("yd = xd0*xd"), "{text}");
    let (code, _, err) = radtap(&[
        "-d",
        "-head",
        "f",
        "-vars",
        "x",
        "-outvars",
        "y",
        "-tgtvarname",
        "%_tan",
        "-tgtfuncname",
        "%_fwd",
        "-o",
        "named",
        "-O",
        &d,
        &f,
    ]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(dir.join("named_d.f90")).unwrap();
    assert!(
        text.contains("subroutine f_fwd(x, x_tan, xd, y, y_tan)"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn tangent_never_reads_an_unset_derivative_pointer() {
    // `lookup` has no body: the derivative pointer of `p` cannot follow it, so the tangent
    // would read an unset `pd`. It must be an error, not wrong code.
    let dir = std::env::temp_dir().join(format!("radtap-cli-lost-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("lost.c");
    std::fs::write(
        &f,
        "double *lookup(double *base, int k);\nvoid f(int n, double *x, double *y)\n{\n    double *p = lookup(x, 1);\n    y[0] = 2.0 * (*p);\n}\n",
    )
    .unwrap();
    let d = dir.to_string_lossy().into_owned();
    let fs = f.to_string_lossy().into_owned();
    let (code, _, err) = radtap(&[
        "-d", "-head", "f", "-vars", "x", "-outvars", "y", "-O", &d, &fs,
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("lost.c:4:5: error[AD020]"), "{err}");
    assert!(!dir.join("lost_d.c").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// `-d -b` writes both files, and the tangent is the same as with `-d` alone (each mode
/// gets its own analyses: the adjoint's would slice away primal results the tangent keeps).
/// When one mode fails, nothing is written. `radtap runtime` writes the runtime.
#[test]
fn tangent_and_adjoint_together_and_runtime() {
    let base = std::env::temp_dir().join(format!("radtap-cli-db-{}", std::process::id()));
    let (one, both) = (base.join("one"), base.join("both"));
    let args = |d: &std::path::Path, modes: &[&str]| {
        let mut v: Vec<String> = modes.iter().map(|s| s.to_string()).collect();
        for a in ["-head", "heat_step", "-vars", "u", "-outvars", "cost", "-O"] {
            v.push(a.into());
        }
        v.push(d.to_string_lossy().into_owned());
        v.push("examples/heat.f90".into());
        v
    };
    let run = |v: Vec<String>| {
        let r: Vec<&str> = v.iter().map(|s| s.as_str()).collect();
        radtap(&r)
    };
    let (code, _, err) = run(args(&one, &["-d"]));
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = run(args(&both, &["-d", "-b"]));
    assert_eq!(code, 0, "{err}");
    let d1 = std::fs::read_to_string(one.join("heat_d.f90")).unwrap();
    let d2 = std::fs::read_to_string(both.join("heat_d.f90")).unwrap();
    assert_eq!(d1, d2, "-d -b changed the tangent");
    let b = std::fs::read_to_string(both.join("heat_b.f90")).unwrap();
    assert!(
        b.contains("subroutine heat_step_b(u, ub, n, nsteps, dt, cost, costb)"),
        "{b}"
    );
    // A failing adjoint: nothing at all is written. (c_globals.c with its callee's write
    // under a condition: what the calls may write has no size radtap can see.)
    let bad = base.join("bad");
    std::fs::create_dir_all(&base).unwrap();
    let bad_src = base.join("c_globals_cond.c");
    let text = std::fs::read_to_string("tests/tangent/c_globals.c").unwrap();
    std::fs::write(
        &bad_src,
        text.replace(
            "        y[i] = g_scale",
            "        if (i < n)\n            y[i] = g_scale",
        ),
    )
    .unwrap();
    let (code, _, err) = radtap(&[
        "-d",
        "-b",
        "-head",
        "gl_head",
        "-O",
        &bad.to_string_lossy(),
        &bad_src.to_string_lossy(),
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("error[AD020]"), "{err}");
    assert!(!bad.exists() || std::fs::read_dir(&bad).unwrap().next().is_none());
    // The runtime.
    let rt = base.join("rt");
    let (code, _, err) = radtap(&["runtime", "-O", &rt.to_string_lossy()]);
    assert_eq!(code, 0, "{err}");
    for f in ["adStack.h", "adStack.c", "adBinomial.h", "adBinomial.c"] {
        assert!(rt.join(f).exists(), "{f} not written");
    }
    let _ = std::fs::remove_dir_all(&base);
}

/// `-dump-analysis` names a COMMON fragment as the procedure shown spells it, the same way
/// on every run (it depended on hash order: /CTRL/NSTEP or /CTRL/NS at random).
#[test]
fn dump_names_common_members_as_each_unit_spells_them_every_time() {
    let head = std::fs::read_to_string("tests/tangent/f77_two_commons.f").expect("corpus file");
    let opts = head.lines().next().expect("line 1");
    let head_name = opts
        .split_whitespace()
        .skip_while(|w| *w != "-head")
        .nth(1)
        .expect("-head in line 1");
    let mut dumps = Vec::new();
    for _ in 0..6 {
        let (code, out, err) = radtap(&[
            "-dump-analysis",
            "-head",
            head_name,
            "tests/tangent/f77_two_commons.f",
        ]);
        assert_eq!(code, 0, "{err}");
        dumps.push(out);
    }
    assert!(
        dumps.iter().all(|d| *d == dumps[0]),
        "dumps differ between runs"
    );
    // The first procedure declares /CTRL/ NSTEP, MODE; the second NS, MD.
    let first = dumps[0].split("\nprocedure").next().unwrap_or("");
    assert!(first.contains("/CTRL/NSTEP"), "{}", dumps[0]);
    assert!(!first.contains("/CTRL/NS:"), "{}", dumps[0]);
    let second = dumps[0].split("\nprocedure").nth(1).unwrap_or("");
    assert!(second.contains("/CTRL/NS:"), "{}", dumps[0]);
}

/// `text` written as `file` in a fresh scratch directory (removed by the caller): the
/// directory, and the directory and the file as arguments.
fn scratch_file(tag: &str, file: &str, text: &str) -> (std::path::PathBuf, String, String) {
    let dir = scratch_dir(tag);
    let src = dir.join(file);
    std::fs::write(&src, text).expect("write source");
    let d = dir.to_string_lossy().into_owned();
    let s = src.to_string_lossy().into_owned();
    (dir, d, s)
}

/// A scratch directory for one test, removed by the caller.
fn scratch_dir(tag: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("radtap-cli-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&d).expect("scratch dir");
    d
}

/// `-head` strings are read as a grammar (spaces inside parentheses and around the
/// separator, commas, several heads each with lists), not split on spaces.
#[test]
fn head_strings_with_spaces_and_several_heads_differentiate() {
    let (dir, d, s) = scratch_file(
        "heads",
        "two.c",
        "double g(double x, double y) { return x * y + y; }\n\
         void h(double a, double b, double *err) { *err = a * b * b; }\n",
    );
    for head in [
        "g(g) / (x, y)",
        "g(g)/(x y) h(err)/(a b)",
        "h(a b)>(err)",
        "h(a, b)\\(err)",
    ] {
        let (code, _, err) = radtap(&["-d", "-head", head, "-O", &d, &s]);
        assert_eq!(code, 0, "{head}: {err}");
        let text = std::fs::read_to_string(dir.join("two_d.c")).expect("two_d.c");
        if head.starts_with('g') {
            assert!(
                text.contains("g_d(double x, double xd, double y, double yd"),
                "{head}: {text}"
            );
        }
        if head.contains("h(") {
            assert!(
                text.contains("h_d(double a, double ad, double b, double bd"),
                "{head}: {text}"
            );
        }
    }
    let (code, _, err) = radtap(&["-d", "-head", "g(g)/(x y", "-O", &d, &s]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("unbalanced parenthesis"), "{err}");
    let (code, _, err) = radtap(&["-d", "-head", " ", "-O", &d, &s]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("-head names no procedure"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A FUNCTION's result may be named by the function's name, with or without `result(r)`.
#[test]
fn a_function_result_is_named_by_the_function_name() {
    let (dir, d, s) = scratch_file("fresult", "cr.f90", "module m\ncontains\nfunction cubic_root(a, b) result(r)\n  real(8), intent(in) :: a, b\n  real(8) :: r\n  r = a*b*b + a\nend function cubic_root\n\
         function sq(a)\n  real(8), intent(in) :: a\n  real(8) :: sq\n  sq = a*a\nend function sq\nend module m\n");
    for args in [
        vec![
            "-d",
            "-head",
            "cubic_root",
            "-vars",
            "a b",
            "-outvars",
            "cubic_root",
        ],
        vec!["-d", "-head", "cubic_root(CUBIC_ROOT)/(a)"],
        vec!["-b", "-head", "cubic_root(cubic_root)/(a b)"],
        vec!["-d", "-head", "sq(sq)/(a)"],
    ] {
        let mut a = args.clone();
        a.extend(["-O", &d, &s]);
        let (code, _, err) = radtap(&a);
        assert_eq!(code, 0, "{args:?}: {err}");
    }
    let text = std::fs::read_to_string(dir.join("cr_d.f90")).expect("cr_d.f90");
    assert!(text.contains("sq_d"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A head's C pointer argument whose derivative on entry is no input (not an independent,
/// or a written non-dependent) is cleared when `-size` gives its extent or the code shows it
/// (`w[i]` for `i < n`: issue 17 item 8); when neither tells, radtap says so (AD061) rather
/// than silently reading what the caller passed.
#[test]
fn derivative_arguments_that_are_no_inputs_are_cleared_or_named() {
    let dir = scratch_dir("entry");
    let d = dir.to_string_lossy().into_owned();
    let src = "tests/tangent/c_nondependent_args.c";
    let base = [
        "-head", "ndargs_c", "-vars", "x", "-outvars", "z", "-O", &d, src,
    ];
    // The same function walking `w` with a pointer copy: nothing in the code gives its extent.
    let text = std::fs::read_to_string(src).expect("corpus file").replace(
        "        w[i] = w[i] * x[i] + 1.0;",
        "        double *wp = w + i;\n        *wp = *wp * x[i] + 1.0;",
    );
    let walked = dir.join("walked.c");
    std::fs::write(&walked, text).expect("write");
    let walked = walked.to_string_lossy().into_owned();
    for mode in ["-d", "-b"] {
        let mut a = vec![mode];
        a.extend(base);
        a[base.len()] = &walked;
        let (code, _, err) = radtap(&a);
        assert_eq!(code, 0, "{err}");
        assert!(err.contains("warning[AD061]: `w`"), "{mode}: {err}");
        assert!(err.contains("give -size w=N"), "{mode}: {err}");
        // Inferred from the subscripts: cleared with no -size.
        let mut a = vec![mode];
        a.extend(base);
        let (code, _, err) = radtap(&a);
        assert_eq!(code, 0, "{err}");
        assert!(!err.contains("AD061"), "{mode}: {err}");
        let stem = if mode == "-d" { "d" } else { "b" };
        let text = std::fs::read_to_string(dir.join(format!("c_nondependent_args_{stem}.c")))
            .expect("generated file");
        assert!(text.contains(&format!("w{stem}[i")), "{text}");
        assert!(text.contains("< (n);"), "{text}");
        let mut a = vec![mode, "-size", "w=n", "-size", "y=n"];
        a.extend(base);
        let (code, _, err) = radtap(&a);
        assert_eq!(code, 0, "{err}");
        assert!(!err.contains("AD061"), "{mode}: {err}");
        let stem = if mode == "-d" { "d" } else { "b" };
        let text = std::fs::read_to_string(dir.join(format!("c_nondependent_args_{stem}.c")))
            .expect("generated file");
        assert!(text.contains(&format!("w{stem}[i")), "{text}");
        assert!(text.contains("] = 0.0;"), "{text}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Without `-vars`, an INTENT(OUT) argument is never an independent, even when it is only
/// written through a call (it was listed, with a false AD060 warning).
#[test]
fn intent_out_arguments_are_not_default_independents() {
    let (dir, d, s) = scratch_file("intentout", "top.f90", "subroutine sq(a, b)\n  real(8), intent(in) :: a\n  real(8), intent(out) :: b\n  b = a*a\nend subroutine sq\n\
         subroutine top(x, y)\n  real(8), intent(in) :: x\n  real(8), intent(out) :: y\n  call sq(x, y)\nend subroutine top\n");
    let (code, _, err) = radtap(&["-d", "-head", "top", "-O", &d, &s]);
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("AD060"), "{err}");
    let text = std::fs::read_to_string(dir.join("top_d.f90")).expect("top_d.f90");
    assert!(text.contains("!   independents: x\n"), "{text}");
    // With no INTENT at all: `y` is written (by the call) before it is read on every path.
    // Passing it by reference is no read: the callee's summary says what it reads.
    std::fs::write(&s, "subroutine sq(a, b)\n  real(8) :: a, b\n  b = a*a\nend subroutine sq\n\
         subroutine top(x, y)\n  real(8) :: x, y\n  call sq(x, y)\n  y = y + x\nend subroutine top\n").expect("write");
    for (mode, file) in [("-d", "top_d.f90"), ("-b", "top_b.f90")] {
        let (code, _, err) = radtap(&[mode, "-head", "top", "-O", &d, &s]);
        assert_eq!(code, 0, "{err}");
        assert!(!err.contains("AD060"), "{err}");
        let text = std::fs::read_to_string(dir.join(file)).expect(file);
        assert!(text.contains("!   independents: x\n"), "{text}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
/// Constructs whose derivatives would be silently wrong are refused with AD020 at their line,
/// in tangent, vector and adjoint mode: ASSOCIATE (a variable or an expression selector),
/// complex head arguments and complex powers with a variable exponent, EQUIVALENCE of different types; C99 complex types; PRIVATE
/// components of a module's type (the derivative module, outside it, cannot reach them).
#[test]
fn constructs_with_wrong_derivatives_are_refused_at_their_line() {
    let cases: &[(&str, &str, &str, &str, &str)] = &[
        (
            "assoc_var.f90",
            "subroutine f(x, y)\n  real(8), intent(inout) :: x(2)\n  real(8), intent(out) :: y\n  associate (h => x(1))\n    h = h*x(2)\n  end associate\n  y = x(1)\nend subroutine f\n",
            "x",
            ":4:3: error[AD020]",
            "ASSOCIATE",
        ),
        (
            "assoc_expr.f90",
            "subroutine f(x, y)\n  real(8), intent(in) :: x(2)\n  real(8), intent(out) :: y(2)\n  associate (s => x*x)\n    y = s\n  end associate\nend subroutine f\n",
            "x",
            ":4:3: error[AD020]",
            "ASSOCIATE",
        ),
        // Complex intermediates are differentiated (tests/tangent/f_complex_*.f90); a complex
        // independent or dependent of the head is not (the harnesses are real-valued), nor a
        // complex power with a non-constant exponent.
        (
            "cplx_head_in.f90",
            "subroutine f(x, y)\n  complex(8), intent(in) :: x\n  real(8), intent(out) :: y\n  y = abs(x*x)\nend subroutine f\n",
            "x",
            ":1:1: error[AD020]",
            "the complex variable `x` as an independent or dependent of the head is not supported yet",
        ),
        (
            "cplx_head_out.f90",
            "subroutine f(x, y)\n  real(8), intent(in) :: x(2)\n  complex(8), intent(out) :: y\n  y = cmplx(x(1), x(2), 8)\nend subroutine f\n",
            "x",
            ":1:1: error[AD020]",
            "the complex variable `y` as an independent or dependent of the head is not supported yet",
        ),
        (
            "cplx_pow.f90",
            "subroutine f(x, y)\n  real(8), intent(in) :: x(2)\n  real(8), intent(out) :: y\n  complex(8) :: z, w\n  z = cmplx(x(1), 1.0d0, 8)\n  w = z**x(2)\n  y = real(w, 8)\nend subroutine f\n",
            "x",
            ":6:3: error[AD020]",
            "a complex power whose exponent is not an integer constant",
        ),
        (
            "equiv_types.f90",
            "subroutine f(x, y)\n  real(8), intent(in) :: x(2)\n  real(8), intent(out) :: y\n  real(8) :: a\n  real(4) :: c(2)\n  equivalence (a, c(1))\n  a = x(1)*x(2)\n  y = c(2)\nend subroutine f\n",
            "x",
            ":6:16: error[AD020]",
            "EQUIVALENCE of a, c with a derivative: members of different types are not supported",
        ),
        (
            "equiv_module.f90",
            "module m\n  real(8) :: a, b\n  equivalence (a, b)\ncontains\n  subroutine f(x, y)\n    real(8), intent(in) :: x\n    real(8), intent(out) :: y\n    a = x*x\n    y = b\n  end subroutine f\nend module m\n",
            "x",
            ":8:5: error[AD020]",
            "EQUIVALENCE of another unit",
        ),
        (
            "private_comp.f90",
            "module m\n  implicit none\n  type t\n    real(8), private :: a\n    real(8) :: b\n  end type t\ncontains\n  subroutine set(s, x)\n    type(t), intent(out) :: s\n    real(8), intent(in) :: x\n    s%a = x*x\n    s%b = 2.0d0\n  end subroutine set\n  function get(s) result(r)\n    type(t), intent(in) :: s\n    real(8) :: r\n    r = s%a*s%b\n  end function get\nend module m\nsubroutine f(x, y)\n  use m\n  implicit none\n  real(8), intent(in) :: x\n  real(8), intent(out) :: y\n  type(t) :: s\n  call set(s, x)\n  y = get(s)\nend subroutine f\n",
            "x",
            ":11:5: error[AD020]",
            "component `a` is PRIVATE to its type in module `m`",
        ),
        (
            "private_stmt.f90",
            "module m\n  implicit none\n  type t\n    private\n    real(8) :: a\n    real(8), public :: b\n  end type t\ncontains\n  subroutine set(s, x)\n    type(t), intent(out) :: s\n    real(8), intent(in) :: x\n    s%a = x*x\n    s%b = 2.0d0\n  end subroutine set\n  function get(s) result(r)\n    type(t), intent(in) :: s\n    real(8) :: r\n    r = s%a*s%b\n  end function get\nend module m\nsubroutine f(x, y)\n  use m\n  implicit none\n  real(8), intent(in) :: x\n  real(8), intent(out) :: y\n  type(t) :: s\n  call set(s, x)\n  y = get(s)\nend subroutine f\n",
            "x",
            ":12:5: error[AD020]",
            "component `a` is PRIVATE to its type in module `m`",
        ),
        (
            "cplx.c",
            "#include <complex.h>\nvoid f(double *x, double *y)\n{\n    double complex z = x[0] + x[1] * I;\n    y[0] = creal(z * z);\n}\n",
            "x",
            ":4:12: error[AD020]",
            "C99 complex type `complex`",
        ),
    ];
    let dir = std::env::temp_dir().join(format!("radtap-cli-refused-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let d = dir.to_string_lossy().into_owned();
    for (name, text, vars, at, what) in cases {
        let f = dir.join(name);
        std::fs::write(&f, text).unwrap();
        let f = f.to_string_lossy().into_owned();
        let modes: [&[&str]; 3] = [&["-d"], &["-d", "-vector", "-nbdirsmax", "4"], &["-b"]];
        for mode in modes {
            let mut args: Vec<&str> = mode.to_vec();
            args.extend(["-head", "f", "-vars", vars, "-outvars", "y", "-O", &d, &f]);
            let (code, _, err) = radtap(&args);
            assert_eq!(code, 1, "{name} {mode:?}: {err}");
            assert!(
                err.contains(&format!("{name}{at}")) && err.contains(what),
                "{name} {mode:?}: {err}"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `&(g[1])` points into the block `g` points to, as `&g[1]` does: with the parentheses the
/// write through `a` was lost (`yd[0] = 0.0` and a false AD060 "no influence" warning). The
/// same for `(c) = g + 1` as a pointer assignment, in the tangent and in the adjoint.
#[test]
fn addresses_and_pointer_targets_in_parentheses_keep_their_target() {
    let dir = std::env::temp_dir().join(format!("radtap-cli-paren-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("paddr.c");
    std::fs::write(
        &f,
        "#include <stdlib.h>\nvoid h(const double *w, double *y)\n{\n    double *g = malloc(2 * sizeof(double));\n    double *a = &(g[1]);\n    double *c;\n    a[0] = w[0] * w[0];\n    (c) = g + 1;\n    c[0] = c[0] * w[1];\n    y[0] = g[1];\n    free(g);\n}\n",
    )
    .unwrap();
    let d = dir.to_string_lossy().into_owned();
    let fs = f.to_string_lossy().into_owned();
    let (code, _, err) = radtap(&[
        "-d", "-b", "-head", "h", "-vars", "w", "-outvars", "y", "-O", &d, &fs,
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("AD060"), "{err}");
    let t = std::fs::read_to_string(dir.join("paddr_d.c")).unwrap();
    assert!(t.contains("ad = &(gd[1]);"), "{t}");
    assert!(t.contains("cd = gd + 1;"), "{t}");
    assert!(t.contains("yd[0] = gd[1];"), "{t}");
    let b = std::fs::read_to_string(dir.join("paddr_b.c")).unwrap();
    assert!(b.contains("gb[1] = gb[1] + yb[0];"), "{b}");
    assert!(
        // Like terms merged (issue 21): `w[0] * ab[0] + w[0] * ab[0]` before.
        b.contains("wb[0] = wb[0] + 2 * (w[0] * ab[0]);"),
        "{b}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A pointer with a derivative pointer whose own address is taken may be assigned through
/// it (`*(&c) = …`, `*pp = …`, a callee given `&c`), which the derivative pointer does not
/// follow: refused where the address is taken, in the tangent and in the adjoint. (Before,
/// `*(&c) = g + 1` left c without targets: its statements were sliced away, primal included.)
#[test]
fn assignments_through_the_address_of_a_pointer_are_refused() {
    let dir = std::env::temp_dir().join(format!("radtap-cli-pp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let d = dir.to_string_lossy().into_owned();
    for (name, line, how) in [
        ("star_addr", 6, "    *(&c) = g + 1;\n"),
        ("ptr_ptr", 6, "    double **pp = &(c);\n    *pp = g + 1;\n"),
    ] {
        let f = dir.join(format!("{name}.c"));
        std::fs::write(
            &f,
            format!("#include <stdlib.h>\nvoid h(const double *w, double *y)\n{{\n    double *g = malloc(2 * sizeof(double));\n    double *c;\n{how}    c[0] = w[0] * w[1];\n    y[0] = g[1];\n    free(g);\n}}\n"),
        )
        .unwrap();
        let fs = f.to_string_lossy().into_owned();
        for mode in ["-d", "-b"] {
            let (code, _, err) = radtap(&[
                mode, "-head", "h", "-vars", "w", "-outvars", "y", "-O", &d, &fs,
            ]);
            assert_eq!(code, 1, "{name} {mode}: {err}");
            assert!(
                err.contains(&format!("{name}.c:{line}:5: error[AD020]"))
                    && err.contains("the address of pointer `c` is taken"),
                "{name} {mode}: {err}"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A missing `)` or END DO is reported at the line of the fault, as a compiler would, and
/// the head is not reported missing on top of it (it was `1:1` and a cascading AD040).
#[test]
fn syntax_errors_are_located_at_the_fault_without_a_cascade() {
    let dir = scratch_dir("syntax");
    let cases = [
        (
            "paren.f90",
            "subroutine f(x, y)\n  real(8), intent(in) :: x\n  real(8), intent(out) :: y\n  integer :: i\n  y = 0\n  y = sin(x + 1.0d0\nend subroutine f\n",
            "paren.f90:6:10: error[AD011]: missing `)`",
        ),
        (
            "enddo.f90",
            "subroutine f(x, y)\n  real(8), intent(in) :: x\n  real(8), intent(out) :: y\n  integer :: i\n  y = 0\n  do i = 1, 3\n    y = y + x\nend subroutine f\n",
            "enddo.f90:6:3: error[AD011]: missing `END DO`",
        ),
        (
            "paren.c",
            "#include <math.h>\nvoid f(double x, double *y) {\n  *y = sin(x;\n}\n",
            "paren.c:3:13: error[AD011]: expected `)` here",
        ),
    ];
    for (name, text, want) in cases {
        let src = dir.join(name);
        std::fs::write(&src, text).expect("write source");
        let s = src.to_string_lossy().into_owned();
        let (code, _, err) = radtap(&["-d", "-head", "f", &s]);
        assert_eq!(code, 1, "{err}");
        assert!(err.contains(want), "{name}: {err}");
        assert!(!err.contains("AD040"), "{name}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// AD060 tells the truth about the interface: a listed independent with no influence gets no
/// derivative argument, unless -fixinterface keeps it (it said "no derivative argument" while
/// the output had one).
#[test]
fn fixinterface_decides_whether_inactive_listed_variables_keep_derivatives() {
    let (dir, d, s) = scratch_file("fixif", "fi.f90", "subroutine f(x, a, y)\n  real(8), intent(in) :: x, a\n  real(8), intent(out) :: y\n  y = x*x\n  if (a > 100.0d0) y = 0.0d0\nend subroutine f\n");
    for (mode, file, plain, fixed) in [
        (
            "-d",
            "fi_d.f90",
            "f_d(x, xd, a, y, yd)",
            "f_d(x, xd, a, ad, y, yd)",
        ),
        (
            "-b",
            "fi_b.f90",
            "f_b(x, xb, a, y, yb)",
            "f_b(x, xb, a, ab, y, yb)",
        ),
    ] {
        let (code, _, err) = radtap(&[
            mode, "-head", "f", "-vars", "x a", "-outvars", "y", "-O", &d, &s,
        ]);
        assert_eq!(code, 0, "{err}");
        assert!(err.contains("it gets no derivative argument"), "{err}");
        let text = std::fs::read_to_string(dir.join(file)).expect("generated");
        assert!(text.contains(plain), "{text}");
        let (code, _, err) = radtap(&[
            mode,
            "-fixinterface",
            "-head",
            "f",
            "-vars",
            "x a",
            "-outvars",
            "y",
            "-O",
            &d,
            &s,
        ]);
        assert_eq!(code, 0, "{err}");
        assert!(err.contains("kept because of -fixinterface"), "{err}");
        let text = std::fs::read_to_string(dir.join(file)).expect("generated");
        assert!(text.contains(fixed), "{text}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The header comment names the arguments the user sees: a C by-value argument's adjoint by
/// its pointer parameter (it named the local `kb0`), and the function result's derivative.
#[test]
fn header_comments_name_the_interface() {
    let (dir, d, s) = scratch_file(
        "header",
        "kb.c",
        "double en(double k, double *x) {\n  return k * x[0] * x[1];\n}\n",
    );
    let (code, _, err) = radtap(&[
        "-b", "-head", "en", "-vars", "k x", "-size", "x=2", "-O", &d, &s,
    ]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(dir.join("kb_b.c")).expect("kb_b.c");
    assert!(
        text.contains("//   derivative arguments: kb:out xb:incremented enb:in\n"),
        "{text}"
    );
    let (code, _, err) = radtap(&["-d", "-head", "en", "-vars", "k x", "-O", &d, &s]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(dir.join("kb_d.c")).expect("kb_d.c");
    assert!(
        text.contains("kd:in xd:in (the derivative of en is returned)"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// An ELEMENTAL procedure applied to arrays in active code is refused at its line (the
/// scalar derivative was called with arrays: output that does not compile, exit 0).
#[test]
fn elemental_procedures_on_arrays_are_refused() {
    let (dir, d, s) = scratch_file("elemental", "el.f90", "module el\ncontains\nelemental function sq(t) result(s)\n  real(8), intent(in) :: t\n  real(8) :: s\n  s = t*t\nend function sq\n\
         subroutine top(x, y)\n  real(8), intent(in) :: x(3)\n  real(8), intent(out) :: y(3)\n  y = sq(x) + sum(x)\nend subroutine top\nend module el\n");
    for mode in ["-d", "-b"] {
        let (code, _, err) = radtap(&[
            mode, "-head", "top", "-vars", "x", "-outvars", "y", "-O", &d, &s,
        ]);
        assert_eq!(code, 1, "{err}");
        assert!(
            err.contains(
                "el.f90:11:3: error[AD020]: the elemental procedure `sq` is applied to arrays"
            ),
            "{err}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Single-precision code: the adjoint's zeros have the statement's kind (`merge(varb, 0.0_8,
/// ...)` did not compile) and a scalar broadcast under `sum` gets its increment summed (a
/// rank mismatch). The generated tangent and adjoint compile with gfortran.
#[test]
fn single_precision_derivatives_compile() {
    let (dir, d, s) = scratch_file("single", "sp.f90", "subroutine stats(x, mean, var)\n  real, intent(in) :: x(:)\n  real, intent(out) :: mean, var\n  mean = sum(x)/size(x)\n  var = sum((x-mean)**2)/size(x)\n  var = var + max(mean, 0.1) + abs(mean)\nend subroutine stats\n");
    for (mode, file) in [("-d", "sp_d.f90"), ("-b", "sp_b.f90")] {
        let (code, _, err) = radtap(&[
            mode, "-head", "stats", "-vars", "x", "-outvars", "mean var", "-O", &d, &s,
        ]);
        assert_eq!(code, 0, "{err}");
        let out = std::process::Command::new("gfortran")
            .args(["-fsyntax-only", file])
            .current_dir(&dir)
            .output()
            .expect("run gfortran");
        assert!(
            out.status.success(),
            "{file}: {}\n{}",
            String::from_utf8_lossy(&out.stderr),
            std::fs::read_to_string(dir.join(file)).unwrap_or_default()
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The adjoint's forward sweep keeps what a kept I/O statement reads (it printed an
/// uninitialised `w`: the assignment was sliced away as useless for derivatives).
#[test]
fn adjoint_keeps_the_values_io_statements_print() {
    let (dir, d, s) = scratch_file("prt", "prt.f90", "subroutine prt(x, y)\n  real(8), intent(in) :: x\n  real(8), intent(out) :: y\n  real(8) :: w\n  w = exp(x)\n  print *, w\n  y = x**2\nend subroutine prt\n");
    let (code, _, err) = radtap(&[
        "-b", "-head", "prt", "-vars", "x", "-outvars", "y", "-O", &d, &s,
    ]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(dir.join("prt_b.f90")).expect("prt_b.f90");
    let (set, print) = (text.find("w = exp(x)"), text.find("print *, w"));
    assert!(set.is_some() && set < print, "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Only independents and dependents get derivative arguments (DESIGN.md): an active output
/// that is not a dependent has a local adjoint starting at zero, as Tapenade writes it;
/// -fixinterface keeps the argument (and ignores its value on entry).
#[test]
fn non_dependent_outputs_get_no_adjoint_argument_unless_fixinterface() {
    let (dir, d, s) = scratch_file("nondep", "nd.f90", "subroutine f(x, a, y, z)\n  real(8), intent(in) :: x, a\n  real(8), intent(out) :: y, z\n  y = x*x*a\n  z = sin(x) + y*0.5d0\nend subroutine f\n");
    for (mode, file, plain, local, fixed) in [
        (
            "-b",
            "nd_b.f90",
            "subroutine f_b(x, xb, a, y, z, zb)",
            "real(8) :: yb",
            "subroutine f_b(x, xb, a, y, yb, z, zb)",
        ),
        (
            "-d",
            "nd_d.f90",
            "subroutine f_d(x, xd, a, y, z, zd)",
            "real(8) :: yd",
            "subroutine f_d(x, xd, a, y, yd, z, zd)",
        ),
    ] {
        let (code, _, err) = radtap(&[
            mode, "-head", "f", "-vars", "x", "-outvars", "z", "-O", &d, &s,
        ]);
        assert_eq!(code, 0, "{err}");
        let text = std::fs::read_to_string(dir.join(file)).expect("generated");
        assert!(text.contains(plain) && text.contains(local), "{text}");
        let (code, _, err) = radtap(&[
            mode,
            "-fixinterface",
            "-head",
            "f",
            "-vars",
            "x",
            "-outvars",
            "z",
            "-O",
            &d,
            &s,
        ]);
        assert_eq!(code, 0, "{err}");
        let text = std::fs::read_to_string(dir.join(file)).expect("generated");
        assert!(text.contains(fixed), "{text}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A `malloc` inside the differentiated C code: its derivative twin is freed where the
/// primal is (`free(w)` → also `free(wd)`), in tangent and vector mode. The generated code
/// runs 100 times under valgrind, which fails on any leak (800,000 bytes were lost).
#[test]
fn c_derivative_allocations_are_freed() {
    let have_valgrind = Command::new("valgrind")
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    if !have_valgrind {
        println!("SKIPPED c_derivative_allocations_are_freed: valgrind is not installed");
        eprintln!("SKIPPED c_derivative_allocations_are_freed: valgrind is not installed");
        return;
    }
    let dir = scratch_dir("cleak");
    let src = dir.join("mw.c");
    let corpus = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/tangent/c_malloc_work.c");
    std::fs::copy(corpus, &src).expect("copy source");
    let d = dir.to_string_lossy().into_owned();
    let s = src.to_string_lossy().into_owned();
    for mode in [&["-d"][..], &["-d", "--vector"][..]] {
        let mut args = mode.to_vec();
        args.extend([
            "-head", "mwork", "-vars", "x", "-outvars", "y", "-O", &d, &s,
        ]);
        let (code, _, err) = radtap(&args);
        assert_eq!(code, 0, "{err}");
    }
    std::fs::write(dir.join("DIFFSIZES.h"), "#define NBDirsMax 3\n").expect("write header");
    std::fs::write(
        dir.join("drv.c"),
        r#"#include "DIFFSIZES.h"
void mwork_d(int n, const double *x, const double *xd, double *y, double *yd);
void mwork_dv(int n, const double *x, const double (*xd)[NBDirsMax], double *y,
              double (*yd)[NBDirsMax], int nbdirs);
int main(void)
{
    double x[6], xd[6], xv[6][NBDirsMax], y, yd, yv[1][NBDirsMax];
    int i, k;
    for (i = 0; i < 6; i++) {
        x[i] = 0.5 + 0.1 * i;
        xd[i] = 1.0;
        for (k = 0; k < NBDirsMax; k++)
            xv[i][k] = 1.0 + k;
    }
    for (k = 0; k < 100; k++) {
        mwork_d(6, x, xd, &y, &yd);
        mwork_dv(6, x, (const double (*)[NBDirsMax])xv, &y, yv, NBDirsMax);
    }
    return 0;
}
"#,
    )
    .expect("write driver");
    let cc = Command::new("gcc")
        .args([
            "-std=c99", "-g", "-I", ".", "mw.c", "mw_d.c", "mw_dv.c", "drv.c",
        ])
        .args(["-lm", "-o", "drv"])
        .current_dir(&dir)
        .output()
        .expect("run gcc");
    assert!(
        cc.status.success(),
        "{}",
        String::from_utf8_lossy(&cc.stderr)
    );
    let vg = Command::new("valgrind")
        .args(["--leak-check=full", "--error-exitcode=9", "./drv"])
        .current_dir(&dir)
        .output()
        .expect("run valgrind");
    assert!(
        vg.status.success(),
        "valgrind reports leaks or errors:\n{}\n{}",
        String::from_utf8_lossy(&vg.stderr),
        std::fs::read_to_string(dir.join("mw_d.c")).unwrap_or_default()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The user's comments stay where they were: the comment above a procedure goes above its
/// derivative, a comment ending a declaration's or a statement's line ends the line of its
/// copy (not the derivative declaration's), and the result compiles. They were dropped, and
/// trailing comments moved to a line of their own after the derivative declaration.
#[test]
fn comments_stay_where_the_user_wrote_them() {
    let long = format!("y = t + 1.0d0{}", " + 0.0d0*t".repeat(11));
    let f90 = format!("! Computes the square of x\n! and a second line.\nsubroutine f(x, y)\n  real(8), intent(in) :: x   ! the input\n  real(8), intent(out) :: y  ! the output\n  real(8) :: t\n  ! square it\n  t = x*x   ! trailing on stmt\n  {long} ! a comment that would pass column 132 on the statement's line\nend subroutine f\n");
    let c = "#include <math.h>\n/* Computes the square of x */\n// and a line comment\nvoid f(double x, double *y) {\n  double t = x * x; /* trailing */\n  // a comment\n  *y = sin(t) + 1.0; // trailing 2\n}\n";
    let (dir, d, s) = scratch_file("comments", "cm.f90", &f90);
    let cs = dir.join("cm.c").to_string_lossy().into_owned();
    std::fs::write(&cs, c).expect("write C");
    for (src, stem) in [(&s, "cmf"), (&cs, "cmc")] {
        let (code, _, err) = radtap(&[
            "-d", "-b", "-head", "f", "-vars", "x", "-outvars", "y", "-O", &d, "-o", stem, src,
        ]);
        assert_eq!(code, 0, "{err}");
    }
    let read = |f: &str| std::fs::read_to_string(dir.join(f)).expect(f);
    for f in ["cmf_d.f90", "cmf_b.f90"] {
        let text = read(f);
        let lines: Vec<&str> = text.lines().collect();
        let at = |pat: &str| lines.iter().position(|l| l.contains(pat));
        let head = at("subroutine f_").expect("unit");
        assert_eq!(
            (at("! Computes the square of x"), at("! and a second line.")),
            (Some(head - 2), Some(head - 1)),
            "{text}"
        );
        assert!(
            text.contains("real(8), intent(in) :: x ! the input\n"),
            "{text}"
        );
        assert!(
            text.contains("real(8), intent(out) :: y ! the output\n"),
            "{text}"
        );
        assert!(text.contains("  ! square it\n"), "{text}");
        assert!(lines.iter().all(|l| l.len() <= 132), "{text}");
        if f == "cmf_d.f90" {
            assert!(text.contains("  t = x*x ! trailing on stmt\n"), "{text}");
            let y = at("y = t + 1.0d0").expect("y");
            assert!(
                lines[y + 1].trim_start().starts_with("! a comment that"),
                "{text}"
            );
        }
    }
    let cd = read("cmc_d.c");
    let (above, header) = (
        cd.find("/* Computes the square of x */\n// and a line comment\n"),
        cd.find("// Differentiation of f"),
    );
    assert!(above.is_some() && above < header, "{cd}");
    assert!(cd.contains("double t = x * x; /* trailing */\n"), "{cd}");
    assert!(cd.contains("*y = sin(t) + 1.0; // trailing 2\n"), "{cd}");
    assert!(
        read("cmc_b.c").find("/* Computes the square of x */") < read("cmc_b.c").find("void f_b(")
    );
    for (tool, file) in [
        ("gfortran", "cmf_d.f90"),
        ("gfortran", "cmf_b.f90"),
        ("gcc", "cmc_d.c"),
        ("gcc", "cmc_b.c"),
    ] {
        let mut cmd = Command::new(tool);
        cmd.args(["-fsyntax-only", "-Wall", file]).current_dir(&dir);
        if tool == "gcc" {
            cmd.arg(format!(
                "-I{}",
                concat!(env!("CARGO_MANIFEST_DIR"), "/runtime-stack/c")
            ));
        }
        let out = cmd.output().expect(tool);
        assert!(
            out.status.success(),
            "{file}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A C `const` global (issue 16, item 14): never a default independent (it is a constant of
/// the program), and when named as one its derivative is declared without `const` (the
/// adjoint assigned a `const double wb[3]`, which does not compile).
#[test]
fn const_globals_get_writable_derivatives_and_are_no_default_independents() {
    let (dir, d, s) = scratch_file("constglob", "cg.c", "#include <math.h>\nconst double w[3] = {1.0, 2.0, 3.0};\nconst double scale = 0.5;\nvoid f(const double *x, double *y) {\n  *y = scale * (w[0]*x[0]*x[0] + w[1]*x[1] + w[2]*sin(x[2]));\n}\n");
    let (code, _, err) = radtap(&["-b", "-head", "f", "-size", "x=3", "-O", &d, &s]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(dir.join("cg_b.c")).expect("cg_b.c");
    assert!(text.contains("//   independents: *x\n"), "{text}");
    let (code, _, err) = radtap(&[
        "-d",
        "-b",
        "-head",
        "f",
        "-vars",
        "x w scale",
        "-outvars",
        "y",
        "-size",
        "x=3",
        "-O",
        &d,
        &s,
    ]);
    assert_eq!(code, 0, "{err}");
    for f in ["cg_d.c", "cg_b.c"] {
        let text = std::fs::read_to_string(dir.join(f)).expect(f);
        assert!(
            !text.contains("const double wd") && !text.contains("const double wb"),
            "{text}"
        );
        let out = Command::new("gcc")
            .args(["-fsyntax-only", "-Wall", "-Werror", f])
            .arg(concat!(
                "-I",
                env!("CARGO_MANIFEST_DIR"),
                "/runtime-stack/c"
            ))
            .current_dir(&dir)
            .output()
            .expect("gcc");
        assert!(
            out.status.success(),
            "{f}: {}\n{text}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    // validate cannot vary a const global (writing it is undefined behaviour): a clear error,
    // not a driver that does not compile.
    let (code, _, err) = radtap(&[
        "validate", "-head", "f", "-vars", "x w", "-outvars", "y", "-size", "x=3", "-size", "y=1",
        &s,
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("the independent `w` of `f` is a `const` global"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A function with an integer result differentiated for what it writes through its
/// arguments (issue 16, item 17): its result was held in a `double` temporary and passed as
/// `long *` (C), or declared `real, external` (Fortran, a compile error). The temporaries
/// and the declaration take the result's own type.
#[test]
fn integer_function_results_keep_their_type() {
    let (dir, d, s) = scratch_file("intres", "lr.c", "static long scale(double *x, int n) {\n  for (int i = 0; i < n; i++) x[i] = x[i] * 2.0;\n  return n;\n}\nvoid f(double *x, int n, double *y) {\n  long m = scale(x, n);\n  *y = x[0] * x[1] * m;\n}\n");
    let f90 = dir.join("ir.f90").to_string_lossy().into_owned();
    std::fs::write(&f90, "integer function scale(x, n)\n  integer, intent(in) :: n\n  real(8), intent(inout) :: x(n)\n  x = x*2.0d0\n  scale = n\nend function scale\nsubroutine f(x, n, y)\n  integer, intent(in) :: n\n  real(8), intent(inout) :: x(n)\n  real(8), intent(out) :: y\n  integer :: m\n  integer, external :: scale\n  m = scale(x, n)\n  y = x(1)*x(2)*m\nend subroutine f\n").expect("write");
    for (src, outs) in [
        (&s, ["lr_d.c", "lr_dv.c"]),
        (&f90, ["ir_d.f90", "ir_dv.f90"]),
    ] {
        for (mode, out) in [
            (&["-d"][..], outs[0]),
            (&["-d", "-vector", "-nbdirsmax", "2"][..], outs[1]),
        ] {
            let mut args = mode.to_vec();
            args.extend([
                "-head", "f", "-vars", "x", "-outvars", "y", "-size", "x=n", "-O", &d, src,
            ]);
            let (code, _, err) = radtap(&args);
            assert_eq!(code, 0, "{err}");
            let text = std::fs::read_to_string(dir.join(out)).expect(out);
            let (tool, flags): (&str, &[&str]) = if out.ends_with(".c") {
                (
                    "gcc",
                    &[
                        "-Werror=incompatible-pointer-types",
                        "-Werror=int-conversion",
                    ],
                )
            } else if out.contains("_dv") {
                ("gfortran", &["DIFFSIZES.f90"])
            } else {
                ("gfortran", &[])
            };
            let o = Command::new(tool)
                .args(["-fsyntax-only", "-Wall"])
                .args(flags)
                .arg(out)
                .current_dir(&dir)
                .output()
                .expect(tool);
            assert!(
                o.status.success(),
                "{out}: {}\n{text}",
                String::from_utf8_lossy(&o.stderr)
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 20: no `$AD` directive is ignored without a word. Until the checkpointing
/// directives are implemented, the adjoint says so (AD050, at the statement they precede),
/// and an unknown word is reported; output is still written (exit 0).
#[test]
fn unimplemented_and_unknown_directives_are_reported() {
    let (dir, d, s) = scratch_file("dirs", "dir.f90", "subroutine f(x, y, n)\n  integer :: n, i\n  real(8) :: x, y\n  y = x\n  !$AD BINOMIAL-CKP n 5 1\n  do i = 1, n\n    y = sin(y)*x\n  end do\n  !$AD FROBNICATE\n  y = y*2\nend subroutine f\n");
    let c = dir.join("dir.c").to_string_lossy().into_owned();
    std::fs::write(&c, "#include <math.h>\nvoid g(double x, double *y, int n)\n{\n    int j = 0;\n    double v = x;\n    // $AD II-LOOP\n    for (int i = 0; i < n; i++)\n        v = sin(v) * x;\n    // $AD II-LOOP\n    for (; j < n; j++)\n        v = sin(v) * x;\n    *y = v;\n}\n").expect("write");
    let (code, _, err) = radtap(&[
        "-b", "-head", "f", "-vars", "x", "-outvars", "y", "-O", &d, &s,
    ]);
    assert_eq!(code, 0, "{err}");
    // BINOMIAL-CKP before a DO loop is implemented now: no word.
    assert!(!err.contains("`$AD BINOMIAL-CKP`"), "{err}");
    assert!(
        err.contains("dir.f90:10:3: warning[AD050]")
            && err.contains("unknown directive `$AD FROBNICATE`"),
        "{err}"
    );
    assert!(dir.join("dir_b.f90").exists());
    let (code, _, err) = radtap(&[
        "-b", "-head", "g", "-vars", "x", "-outvars", "y", "-O", &d, &c,
    ]);
    assert_eq!(code, 0, "{err}");
    // II-LOOP on a counted C `for` is implemented: no word; on a loop that is not counted
    // (no initialisation) it is said that the loop is taped whole.
    assert!(!err.contains("dir.c:7:"), "{err}");
    assert!(!err.contains("is not implemented yet"), "{err}");
    assert!(
        err.lines().any(|l| l.contains("dir.c:10:")
            && l.contains("warning[AD050]")
            && l.contains("`$AD II-LOOP` needs a counted `for")),
        "{err}"
    );
    // Tangent mode has no use for them: no word there.
    let (code, _, err) = radtap(&[
        "-d", "-head", "f", "-vars", "x", "-outvars", "y", "-O", &d, &s,
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("AD050"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Checkpoint and DO-NOT-DIFF regions that match nothing are reported at the directive's own
/// line (AD050, exit 0): a region crossing the end of a loop, a lone END, a START with
/// nothing after it, a region directive among the declarations; matched regions say nothing.
#[test]
fn unmatched_and_misplaced_region_directives_are_reported() {
    let (dir, d, s) = scratch_file(
        "regdirs",
        "reg.f90",
        "subroutine f(x, y, n)\n  integer :: n, i\n  !$AD CHECKPOINT-END\n  real(8) :: x, y\n  y = x\n  !$AD CHECKPOINT-START\n  do i = 1, n\n    y = sin(y)*x\n    !$AD CHECKPOINT-END\n  end do\n  !$AD CHECKPOINT-START\n  y = y*2\n  !$AD CHECKPOINT-END\n  !$AD DO-NOT-DIFF\n  !$AD BINOMIAL-CKP n 5 1\nend subroutine f\n",
    );
    let c = dir.join("reg.c").to_string_lossy().into_owned();
    std::fs::write(&c, "#include <math.h>\nvoid g(double x, double *y, int n)\n{\n    double v = x;\n    for (int i = 0; i < n; i++) {\n        v = sin(v) * x;\n        /* $AD END-DO-NOT-DIFF */\n    }\n    // $AD CHECKPOINT-START\n    v = v * 2;\n    // $AD CHECKPOINT-END\n    *y = v;\n}\n").expect("write");
    let (code, _, err) = radtap(&[
        "-b", "-head", "f", "-vars", "x", "-outvars", "y", "-O", &d, &s,
    ]);
    assert_eq!(code, 0, "{err}");
    let at = |line: &str, what: &str| {
        assert!(
            err.lines()
                .any(|l| l.contains(line) && l.contains("warning[AD050]") && l.contains(what)),
            "{line} {what}:\n{err}"
        )
    };
    at(
        "/reg.f90:3:",
        "`$AD CHECKPOINT-END` must stand among the executable statements",
    );
    at(
        "/reg.f90:6:",
        "`$AD CHECKPOINT-START` has no matching `$AD CHECKPOINT-END` in the same block",
    );
    at(
        "/reg.f90:9:",
        "`$AD CHECKPOINT-END` closes no `$AD CHECKPOINT-START` of the same block",
    );
    at(
        "/reg.f90:14:",
        "`$AD DO-NOT-DIFF` has no matching `$AD END-DO-NOT-DIFF`",
    );
    at(
        "/reg.f90:15:",
        "`$AD BINOMIAL-CKP` applies to the DO or `for` loop right after it",
    );
    assert!(
        !err.contains("reg.f90:11:") && !err.contains("reg.f90:13:"),
        "{err}"
    );
    assert_eq!(err.matches("AD050").count(), 5, "{err}");
    let (code, _, err) = radtap(&[
        "-b", "-head", "g", "-vars", "x", "-outvars", "y", "-O", &d, &c,
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("reg.c:7:9: warning[AD050]")
            && err.contains("`$AD END-DO-NOT-DIFF` closes no `$AD DO-NOT-DIFF` of the same block"),
        "{err}"
    );
    assert_eq!(err.matches("AD050").count(), 1, "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `$AD BINOMIAL-CKP` before a loop the schedule cannot drive (a step other than 1, a body
/// that changes the bound, a `for` counter declared in the loop) is reported (AD050) and the
/// loop is taped whole: exit 0, the output written.
#[test]
fn binomial_ckp_on_a_loop_it_cannot_drive_is_reported() {
    let (dir, d, s) = scratch_file(
        "binodirs",
        "bino.f90",
        "subroutine f(x, y, n)\n  integer :: n, i, m\n  real(8) :: x, y\n  y = x\n  m = n\n  !$AD BINOMIAL-CKP n 5 1\n  do i = 1, n, 2\n    y = sin(y)*x\n  end do\n  !$AD BINOMIAL-CKP m 5 1\n  do i = 1, m\n    y = sin(y)*x\n    m = m - 1\n  end do\nend subroutine f\n",
    );
    let c = dir.join("bino.c").to_string_lossy().into_owned();
    std::fs::write(&c, "#include <math.h>\nvoid g(double x, double *y, int n)\n{\n    double v = x;\n    // $AD BINOMIAL-CKP n 5 0\n    for (int i = 0; i < n; i++)\n        v = sin(v) * x;\n    *y = v;\n}\n").expect("write");
    let (code, _, err) = radtap(&[
        "-b", "-head", "f", "-vars", "x", "-outvars", "y", "-O", &d, &s,
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("bino.f90:7:3: warning[AD050]")
            && err.contains("`$AD BINOMIAL-CKP` needs a DO loop with step 1"),
        "{err}"
    );
    assert!(
        err.contains("bino.f90:11:3: warning[AD050]")
            && err.contains("needs loop bounds that the loop body does not change"),
        "{err}"
    );
    assert!(dir.join("bino_b.f90").exists());
    let (code, _, err) = radtap(&[
        "-b", "-head", "g", "-vars", "x", "-outvars", "y", "-O", &d, &c,
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("bino.c:6:5: warning[AD050]") && err.contains("counter is declared before it"),
        "{err}"
    );
    // A `while` whose condition has an effect: the backward sweep never evaluates it, so the
    // schedule cannot drive it (taped whole, with the reason).
    let w = dir.join("binow.c").to_string_lossy().into_owned();
    std::fs::write(&w, "#include <math.h>\nvoid h(double x, double *y, int n)\n{\n    double v = x;\n    int k = 0;\n    // $AD BINOMIAL-CKP n 5 0\n    while (k++ < n)\n        v = sin(v) * x;\n    *y = v;\n}\n").expect("write");
    let (code, _, err) = radtap(&[
        "-b", "-head", "h", "-vars", "x", "-outvars", "y", "-O", &d, &w,
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("binow.c:7:5: warning[AD050]")
            && err.contains("needs a loop condition without an assignment"),
        "{err}"
    );
    assert!(dir.join("binow_b.c").exists());
    let wf = dir.join("binow.f90").to_string_lossy().into_owned();
    std::fs::write(&wf, "module m\ncontains\n  logical function more(k, n)\n    integer :: k, n\n    k = k + 1\n    more = k <= n\n  end function more\n  subroutine f(x, y, n)\n    integer :: n, k\n    real(8) :: x, y\n    y = x\n    k = 0\n    !$AD BINOMIAL-CKP n 5 1\n    do while (more(k, n))\n      y = sin(y)*x\n    end do\n  end subroutine f\nend module m\n").expect("write");
    let (code, _, err) = radtap(&[
        "-b", "-head", "f", "-vars", "x", "-outvars", "y", "-O", &d, &wf,
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("binow.f90:14:5: warning[AD050]")
            && err.contains("needs a loop condition without a call of a procedure of the program"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A C source with its own header: the types, typedefs, struct tags, prototypes, macros and
/// `extern` globals of a quoted `#include "defs.h"` are read (beside the source); the
/// generated files include the header instead of re-declaring it, with the derivative
/// types of its structs right after the `#include`, and compile.
#[test]
fn c_user_header_declarations_are_read() {
    let dir = scratch_dir("cheader");
    std::fs::write(
        dir.join("defs.h"),
        "#ifndef DEFS_H\n#define DEFS_H\n#define SCALE 2.0\n\
         typedef struct { double gamma; int m; } Wishart;\n\
         struct pt { double x, y; };\ntypedef struct pt Pt;\n\
         double sq(double v);\nextern double gfac;\n#endif\n",
    )
    .expect("write header");
    std::fs::write(
        dir.join("main.c"),
        "#include <math.h>\n#include \"defs.h\"\ndouble gfac = 3.0;\n\
         double f(const Wishart *w, double x) {\n  Pt p;\n  p.x = x * w->gamma; p.y = x;\n\
         \x20 return SCALE * sq(p.x) * gfac + p.y * w->m;\n}\n\
         double sq(double v) { return v * v; }\n",
    )
    .expect("write source");
    let d = dir.to_string_lossy().into_owned();
    let s = dir.join("main.c").to_string_lossy().into_owned();
    for (mode, out) in [("-d", "main_d.c"), ("-b", "main_b.c")] {
        let (code, _, err) = radtap(&[mode, "-head", "f(f)/(w x)", "-O", &d, &s]);
        assert_eq!(code, 0, "{mode}: {err}");
        let gen = std::fs::read_to_string(dir.join(out)).expect("generated file");
        let inc = gen
            .find("#include \"defs.h\"")
            .expect("the header is included");
        let dty = gen
            .find("struct Wishart_")
            .expect("Wishart's derivative type");
        assert!(inc < dty, "derivative type after the #include:\n{gen}");
        assert!(
            !gen.contains("typedef") && !gen.contains("struct pt {"),
            "the header's types are not re-declared:\n{gen}"
        );
        let o = Command::new("gcc")
            .args(["-fsyntax-only", "-Wall", "-I"])
            .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/runtime-stack/c"))
            .arg(dir.join(out))
            .output()
            .expect("gcc");
        assert!(
            o.status.success(),
            "{gen}\n{}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A diagnostic inside a header is located in the header (file:line:col), with its line.
#[test]
fn c_error_inside_a_header_is_located_in_the_header() {
    let dir = scratch_dir("cheadererr");
    std::fs::write(
        dir.join("defs.h"),
        "typedef double real;\nstruct s { real a; mystery_t b; };\n",
    )
    .expect("write header");
    std::fs::write(
        dir.join("main.c"),
        "#include \"defs.h\"\ndouble f(double x) { return x * x; }\n",
    )
    .expect("write source");
    let d = dir.to_string_lossy().into_owned();
    let s = dir.join("main.c").to_string_lossy().into_owned();
    let (code, _, err) = radtap(&["-d", "-head", "f", "-O", &d, &s]);
    assert_ne!(code, 0);
    let h = dir.join("defs.h").to_string_lossy().into_owned();
    assert!(
        err.contains(&format!(
            "{h}:2:20: error[AD030]: unknown type name `mystery_t`"
        )),
        "{err}"
    );
    assert!(err.contains("struct s { real a; mystery_t b; };"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Quoted includes are searched beside the source, then in the `-I` directories; one found
/// nowhere is an AD001 error naming the include line (its declarations would be unknown).
#[test]
fn c_headers_are_searched_in_include_directories() {
    let dir = scratch_dir("cheaderinc");
    let inc = dir.join("include");
    std::fs::create_dir_all(&inc).expect("include dir");
    std::fs::write(inc.join("vec.h"), "typedef double vec3[3];\n").expect("write header");
    std::fs::write(
        dir.join("main.c"),
        "#include \"vec.h\"\ndouble f(const double *x) {\n  vec3 v;\n  v[0] = x[0] * x[0];\n  return v[0];\n}\n",
    )
    .expect("write source");
    let d = dir.to_string_lossy().into_owned();
    let s = dir.join("main.c").to_string_lossy().into_owned();
    let i = inc.to_string_lossy().into_owned();
    let (code, _, err) = radtap(&["-d", "-head", "f(f)/(x)", "-O", &d, &s]);
    assert_ne!(code, 0);
    assert!(
        err.contains(&format!(
            "{s}:1:10: error[AD001]: cannot find the header \"vec.h\" (looked beside {s} and in the -I directories)"
        )),
        "{err}"
    );
    let (code, _, err) = radtap(&["-d", "-head", "f(f)/(x)", "-I", &i, "-O", &d, &s]);
    assert_eq!(code, 0, "{err}");
    let gen = std::fs::read_to_string(dir.join("main_d.c")).expect("generated file");
    assert!(gen.contains("#include \"vec.h\""), "{gen}");
    assert!(!gen.contains("typedef"), "{gen}");
    let _ = std::fs::remove_dir_all(&dir);
}
