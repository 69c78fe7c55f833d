//! Issue 21 (adjoint speed): what the adjoint records, beyond the numbers the corpus suites
//! prove (tests/adjoint.rs runs every corpus program, these ones included).
//!
//! - No adjoint of the corpus pushes an uninitialised value: gcc/gfortran `-O2 -Wall` on the
//!   generated code report no "used uninitialized" / "may be used uninitialized".
//! - Integer counters the backward sweep rebuilds are not pushed (`-nooptim induction`
//!   pushes them again).

mod common;

use common::*;
use std::path::Path;

/// Adjoint code of one corpus program compiled with -O2 -Wall: the warnings about
/// uninitialised values, if any.
fn uninitialised_warnings(path: &Path, root: &Path) -> Result<(), String> {
    let (opts, _) = header(path);
    let name = path.file_name().unwrap().to_string_lossy().to_string();
    if ADJOINT_UNSUPPORTED.iter().any(|(n, _)| *n == name) {
        return Ok(());
    }
    let stem = path.file_stem().unwrap().to_string_lossy().to_string();
    let dir = root.join(&stem);
    std::fs::create_dir_all(&dir).unwrap();
    let o = run_cli(path, &opts, &["-b", "-o", "gen"], &dir);
    if o.status != 0 {
        return Err(format!("radtap -b failed:\n{}", o.stderr));
    }
    let fortran = path.extension().is_some_and(|e| e != "c");
    let run = |cmd: &mut std::process::Command| -> Result<String, String> {
        let out = cmd.current_dir(&dir).output().map_err(|e| e.to_string())?;
        let text = String::from_utf8_lossy(&out.stderr).into_owned();
        if out.status.success() {
            Ok(text)
        } else {
            Err(text)
        }
    };
    let stderr = if fortran {
        // The primal's modules first, as a build would.
        let prim = dir.join(&name);
        std::fs::copy(path, &prim).unwrap();
        let mut first = std::process::Command::new("gfortran");
        if path.extension().is_some_and(|e| e == "f") {
            first.arg("-std=legacy");
        }
        run(first.args(["-c", "-o", "primal.o"]).arg(&prim))?;
        let mut cmd = std::process::Command::new("gfortran");
        if path.extension().is_some_and(|e| e == "f") {
            cmd.arg("-std=legacy");
        }
        run(cmd.args(["-c", "-O2", "-Wall", "gen_b.f90", "-o", "gen_b.o"]))?
    } else {
        run(std::process::Command::new("gcc")
            .args(["-c", "-O2", "-Wall", "gen_b.c", "-o", "gen_b.o"])
            .arg(concat!(
                "-I",
                env!("CARGO_MANIFEST_DIR"),
                "/runtime-stack/c"
            ))
            .arg(concat!("-I", env!("CARGO_MANIFEST_DIR"), "/tests/tangent")))?
    };
    // gfortran -O2 also warns about an element of a whole array assigned just before
    // (`c = v; c(2) = c(2) + 5`, `dpb = 0; ...; dpb(n) = dpb(n) + xb(n)`), naming no
    // variable but a compiler temporary `MEM[...]`: it does so on the primal of
    // f_array_reductions.f90 as well. Those false positives are left out; every warning
    // naming a variable counts.
    let bad: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains("uninitialized") && !l.contains("MEM["))
        .collect();
    if bad.is_empty() {
        Ok(())
    } else {
        Err(bad.join("\n"))
    }
}

/// Brief item: no adjoint in the corpus pushes (or otherwise reads) an uninitialised value.
/// Two programs at a time, one scratch directory.
#[test]
fn no_adjoint_of_the_corpus_reads_an_uninitialised_value() {
    check_corpus_two_at_a_time("uninit", uninitialised_warnings);
}

/// The adjoint of corpus program `file` with `extra` options, as text.
fn adjoint_text(file: &str, extra: &[&str], tag: &str) -> String {
    let f = Path::new(file);
    let dir = std::env::temp_dir().join(format!("radtap-speed-{}-{tag}", std::process::id()));
    let (opts, _) = header(f);
    let mut args = vec!["-b", "-o", "gen"];
    args.extend_from_slice(extra);
    let o = run_cli(f, &opts, &args, &dir);
    assert_eq!(o.status, 0, "{}", o.stderr);
    let ext = f.extension().unwrap().to_string_lossy();
    let text = std::fs::read_to_string(dir.join(format!("gen_b.{ext}"))).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    text
}

/// Item 1: counters stepped by a constant are undone backwards (`k = k - 1`), loop
/// variables read only inside their loops are not recorded on entry; `-nooptim induction`
/// records them all again. The numbers of both programs are proven by the corpus suites.
#[test]
fn integer_counters_are_rebuilt_backwards_not_pushed() {
    let c = adjoint_text("tests/tangent/c_induction_counters.c", &[], "c");
    for absent in [
        "pushInteger4(k)",
        "pushInteger4(m)",
        "pushInteger4(c)",
        "pushInteger4(j)",
    ] {
        assert!(!c.contains(absent), "`{absent}` in\n{c}");
    }
    for present in ["k = k - 1;", "m = m - 2;", "m = m + 1;", "c = c - 1;"] {
        assert!(c.contains(present), "`{present}` missing in\n{c}");
    }
    // `i` is read after its last loop (`w * i`): its entry values stay recorded.
    assert!(c.contains("pushInteger4(i)"), "{c}");
    let c0 = adjoint_text(
        "tests/tangent/c_induction_counters.c",
        &["-nooptim", "induction"],
        "c0",
    );
    for present in [
        "pushInteger4(k)",
        "pushInteger4(m)",
        "pushInteger4(c)",
        "pushInteger4(j)",
    ] {
        assert!(c0.contains(present), "`{present}` missing in\n{c0}");
    }
    let f = adjoint_text("tests/tangent/f_induction_counters.f90", &[], "f");
    assert!(
        !f.contains("pushinteger4(k)") && !f.contains("pushinteger4(m)"),
        "{f}"
    );
    assert!(f.contains("k = k - 1") && f.contains("m = m - 2"), "{f}");
    let f0 = adjoint_text(
        "tests/tangent/f_induction_counters.f90",
        &["-nooptim", "induction"],
        "f0",
    );
    assert!(
        f0.contains("pushinteger4(k)") && f0.contains("pushinteger4(m)"),
        "{f0}"
    );
}

/// Item 2: a function result that no adjoint reads is not recomputed backwards
/// (`-nooptim diffliveness` recomputes every one). Numbers: the corpus suites.
#[test]
fn function_results_no_adjoint_reads_are_not_recomputed() {
    let count = |t: &str, s: &str| t.matches(s).count();
    let t = adjoint_text("tests/tangent/c_function_results_backward.c", &[], "r");
    let body = &t[t.find("void fres_b(").unwrap()..];
    // Forward: 4 references to sq; backward: `sq(x) * x[0]` and the nested `sq2(sq(x))` only.
    assert_eq!(count(body, "sq_nodiff("), 6, "{body}");
    assert_eq!(count(body, "lse_nodiff("), 1, "{body}");
    assert_eq!(count(body, "sq2_nodiff("), 1, "{body}");
    let t0 = adjoint_text(
        "tests/tangent/c_function_results_backward.c",
        &["-nooptim", "diffliveness"],
        "r0",
    );
    let body0 = &t0[t0.find("void fres_b(").unwrap()..];
    assert_eq!(count(body0, "sq_nodiff("), 8, "{body0}");
    assert_eq!(count(body0, "sq2_nodiff("), 2, "{body0}");
    assert_eq!(count(body0, "lse_nodiff("), 2, "{body0}");
}

/// Item 4: a checkpoint's snapshot of one value is read again with `look`, not through a
/// repeat mark; a snapshot of several values keeps the mark. Numbers: the corpus suites run
/// checkpointed calls of both kinds (`c_helpers_compound.c`, `f_calls.f90`, ...); the
/// runtime's marks are tested in runtime-stack.
#[test]
fn a_snapshot_of_one_value_is_read_again_with_look() {
    let dir = std::env::temp_dir().join(format!("radtap-look-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("snap.c");
    std::fs::write(
        &src,
        "void scale(int n, double *a, double *b, double s)\n{\n    int i;\n    for (i = 0; i < n; i++) {\n        a[i] = a[i] * a[i] * s;\n        b[i] = b[i] * a[i];\n    }\n}\n\n\
         void sq(int n, double *a, double s)\n{\n    int i;\n    for (i = 0; i < n; i++)\n        a[i] = a[i] * a[i] * s;\n}\n\n\
         void one(int n, double *a, double *b, double *y)\n{\n    sq(n, a, 0.5);\n    *y = a[0] * a[1] * b[0];\n}\n\n\
         void two(int n, double *a, double *b, double *y)\n{\n    scale(n, a, b, 0.5);\n    *y = a[0] * b[1];\n}\n",
    )
    .unwrap();
    for (head, vars, look, mark) in [("one", "a", true, false), ("two", "a b", false, true)] {
        let opts: Vec<String> = [
            "-head", head, "-vars", vars, "-outvars", "y", "-size", "a=n", "-size", "b=n",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let out = dir.join(head);
        let o = run_cli(&src, &opts, &["-b", "-o", "gen"], &out);
        assert_eq!(o.status, 0, "{}", o.stderr);
        let text = std::fs::read_to_string(out.join("gen_b.c")).unwrap();
        let body = &text[text.find(&format!("void {head}_b(")).unwrap()..];
        assert_eq!(body.contains("lookReal8Array("), look, "{head}:\n{body}");
        assert_eq!(
            body.contains("adStack_startRepeat();"),
            mark,
            "{head}:\n{body}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Item 3: a seed flowing into both operands of a sum is computed once into a temporary:
/// `xb[i] += exp(x[i]-m)*sb; mb -= exp(x[i]-m)*sb` called `exp` twice backwards
/// (`-nooptim sharepartials` writes it out twice again). Numbers: every corpus program goes
/// through this (e_c_math_mix.c, c_math_a.c, the Fortran reductions, ...).
#[test]
fn a_seed_flowing_into_two_references_is_computed_once() {
    let dir = std::env::temp_dir().join(format!("radtap-share-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("lse.c");
    std::fs::write(
        &src,
        "#include <math.h>\n\ndouble lse(int n, const double *x, double m)\n{\n    int i;\n    double s = 0.0;\n    for (i = 0; i < n; i++)\n        s = s + exp(x[i] - m);\n    return log(s) + m;\n}\n",
    )
    .unwrap();
    let opts: Vec<String> = ["-head", "lse", "-vars", "x m", "-size", "x=n"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let backward = |extra: &[&str], tag: &str| -> String {
        let out = dir.join(tag);
        let mut args = vec!["-b", "-o", "gen"];
        args.extend_from_slice(extra);
        let o = run_cli(&src, &opts, &args, &out);
        assert_eq!(o.status, 0, "{}", o.stderr);
        let text = std::fs::read_to_string(out.join("gen_b.c")).unwrap();
        let body = &text[text.find("void lse_b(").unwrap()..];
        body[body.find("--i)").expect("a backward loop")..].to_string()
    };
    let shared = backward(&[], "on");
    assert_eq!(shared.matches("exp(").count(), 1, "{shared}");
    assert!(shared.contains("tempb = exp(x[i] - m) * sb;"), "{shared}");
    let twice = backward(&["-nooptim", "sharepartials"], "off");
    assert_eq!(twice.matches("exp(").count(), 2, "{twice}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Item 1: each quotient of a division chain `y = (x+1)/(x+1)/.../(x+1)` is a factor of the
/// partials of every later denominator; written out in full in each partial, the adjoint was
/// quadratic in the chain's length (1,600 divisions: 13 MB of code, 25 s, 2.6 GB), while the
/// tangent shares each quotient in a temporary. The adjoint now shares them the same way
/// (`-nooptim sharepartials` writes them out again). Numbers: the corpus program
/// `div_chain.f90` (a chain with the same shape) goes through tests/adjoint.rs.
#[test]
fn the_adjoint_of_a_division_chain_is_linear_in_its_length() {
    // Deep expressions: on the CLI's stack size, as `radtap` runs.
    std::thread::Builder::new()
        .stack_size(radtap::STACK_BYTES)
        .spawn(division_chain)
        .unwrap()
        .join()
        .unwrap();
}

fn division_chain() {
    let dir = std::env::temp_dir().join(format!("radtap-divchain-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let opts: Vec<String> = ["-head", "f", "-vars", "x", "-outvars", "y"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let size = |n: usize, extra: &[&str]| -> usize {
        let mut line = String::from("(x+1)");
        let mut rhs = Vec::new();
        for _ in 0..n {
            if line.len() > 90 {
                rhs.push(format!("{line} &"));
                line = String::from("&");
            }
            line.push_str("/(x+1)");
        }
        rhs.push(line);
        let src = dir.join(format!("div{n}.f90"));
        std::fs::write(
            &src,
            format!(
                "subroutine f(x, y)\n  real(8) :: x, y\n  y = {}\nend subroutine\n",
                rhs.join("\n")
            ),
        )
        .unwrap();
        let out = dir.join(format!("out{n}{}", extra.len()));
        let mut args = vec!["-b", "-o", "gen"];
        args.extend_from_slice(extra);
        let o = run_cli(&src, &opts, &args, &out);
        assert_eq!(o.status, 0, "{}", o.stderr);
        std::fs::metadata(out.join("gen_b.f90")).unwrap().len() as usize
    };
    let (short, long) = (size(100, &[]), size(400, &[]));
    assert!(
        long < 5 * short,
        "100 divisions: {short} bytes, 400 divisions: {long} bytes"
    );
    // Turned off, the partials are written out in full again (quadratic).
    let (short, long) = (
        size(100, &["-nooptim", "sharepartials"]),
        size(400, &["-nooptim", "sharepartials"]),
    );
    assert!(long > 10 * short, "{short} {long}");
    let _ = std::fs::remove_dir_all(&dir);
}
