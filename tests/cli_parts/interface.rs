//! The derivative's interface as the command line writes it: names that follow the patterns
//! and never clash, a function result named by the function, derivative arguments cleared or
//! named, which arguments are default independents, `-fixinterface`, the header comments,
//! outputs without an adjoint argument, writable derivatives of const globals, integer
//! function results keeping their type.

use super::*;

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
