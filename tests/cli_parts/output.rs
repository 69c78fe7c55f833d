//! The generated code itself: tangent and adjoint together with the runtime, no read of an
//! unset derivative pointer, COMMON members named as each unit spells them, parenthesised
//! addresses keeping their target, single-precision derivatives that compile, the values I/O
//! statements print kept, C derivative allocations freed, comments where the user wrote them.

use super::*;

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
