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
    // A failing adjoint: nothing at all is written.
    let bad = base.join("bad");
    let (code, _, err) = radtap(&[
        "-d",
        "-b",
        "-head",
        "gl_head",
        "-O",
        &bad.to_string_lossy(),
        "tests/tangent/c_globals.c",
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
        b.contains("wb[0] = wb[0] + w[0] * ab[0] + w[0] * ab[0];"),
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
