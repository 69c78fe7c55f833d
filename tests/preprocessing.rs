//! The preprocessing stage (issue 43): sources are read as their compiler sees them. Each
//! case is a small program of its own in the shape of a published code base that radtap
//! refused (or, for `.F90`, got silently wrong) before, checked by `radtap validate`
//! (tangent against divided differences, adjoint by the dot-product test, compiled with
//! gcc/gfortran), and its generated file read where the output's shape matters.
//! The programs are in `tests/preprocessing/<case>/`.

use std::path::{Path, PathBuf};
use std::process::Command;

fn case(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/preprocessing")
        .join(name)
}

fn s(p: &Path) -> String {
    p.to_string_lossy().into_owned()
}

/// Runs radtap with `args`; returns (status, stdout, stderr).
fn radtap(args: &[String]) -> (i32, String, String) {
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

fn words(a: &[&str]) -> Vec<String> {
    a.iter().map(|w| w.to_string()).collect()
}

/// `radtap validate` passes (tangent and adjoint) on `file` of `dir` with `opts`.
fn validates(dir: &str, file: &str, opts: &[&str]) {
    let mut args = words(&["validate"]);
    args.extend(words(opts));
    args.push(s(&case(dir).join(file)));
    let (code, out, err) = radtap(&args);
    assert!(
        code == 0 && out.trim_end().ends_with("PASS"),
        "validate {dir}/{file} {opts:?}: status {code}\n{out}\n{err}"
    );
}

/// The tangent of `file` of `dir` with `opts`, written into a fresh directory.
fn tangent(dir: &str, file: &str, opts: &[&str], tag: &str) -> String {
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("radtap-pp-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let mut args = words(&["-d", "-o", "gen", "-O"]);
    args.push(s(&out));
    args.extend(words(opts));
    args.push(s(&case(dir).join(file)));
    let (code, _, err) = radtap(&args);
    assert_eq!(code, 0, "{err}");
    let ext = if file.ends_with(".c") { "c" } else { "f90" };
    let t = std::fs::read_to_string(out.join(format!("gen_d.{ext}"))).unwrap();
    let _ = std::fs::remove_dir_all(&out);
    t
}

/// NLopt's shape: `funcs.c` includes `funcs.h`, which includes `base.h`, where the type
/// `funcs.h` uses is a typedef (AD030 unknown type name before: the headers were lowered
/// in the order they were found, the includer first).
#[test]
fn typedef_from_a_header_a_header_includes() {
    validates(
        "nested",
        "funcs.c",
        &["-head", "rosen", "-size", "n=5", "-size", "x=5"],
    );
    let t = tangent("nested", "funcs.c", &["-head", "rosen"], "nested");
    assert!(
        t.contains("#include \"funcs.h\"") && !t.contains("typedef"),
        "{t}"
    );
}

/// SUNDIALS' shape: a library header in angle brackets found through `-I` (never read
/// before: AD030 for its types).
#[test]
fn angle_bracket_header_through_include_dirs() {
    let inc = s(&case("angle").join("inc"));
    let opts = ["-head", "norm2", "-size", "n=4", "-size", "v=4", "-I", &inc];
    validates("angle", "norm.c", &opts);
    let t = tangent(
        "angle",
        "norm.c",
        &["-head", "norm2", "-I", &inc],
        "angle-out",
    );
    assert!(t.contains("#include <vec.h>"), "{t}");
}

/// cephes' shape: an empty export macro from the library's header before every function
/// definition (AD010 at every function before).
#[test]
fn empty_export_macro_from_a_header() {
    validates("export", "cep.c", &["-head", "cep_poly"]);
}

/// The n-body benchmark's shape: a function-like macro that is a loop header, used as
/// `for_k { … }` and `for_k stmt;` (AD010 before).
#[test]
fn macro_loop_header() {
    let opts = [
        "-head", "energy", "-size", "p=6", "-size", "v=3", "-size", "e=1",
    ];
    validates("loopmacro", "nbody.c", &opts);
}

/// llama2.c's shape: `#if defined _WIN32` / `#include "win.h"` / `#else` / `#include
/// <unistd.h>` / `#endif`. Only the taken branch's include is read (win.h does not exist:
/// AD001 before); the output writes the conditional back as it stands (both includes were
/// written unconditionally once, which did not compile; then only the taken one, which
/// does not compile where the other branch is taken).
#[test]
fn include_in_a_conditional_takes_the_taken_branch() {
    let opts = [
        "-head", "rmsnorm", "-size", "n=4", "-size", "o=4", "-size", "x=4",
    ];
    validates("winif", "run.c", &[&opts[..], &["-size", "w=4"]].concat());
    let t = tangent("winif", "run.c", &opts[..2], "winif");
    assert!(
        t.contains("#if defined _WIN32\n#include \"win.h\"\n#else\n#include <unistd.h>\n#endif\n"),
        "{t}"
    );
    assert_eq!(t.matches("#include <unistd.h>").count(), 1, "{t}");
    // With `-D _WIN32` the other branch is taken, and its header does not exist: located.
    let mut args = words(&["-d", "-head", "rmsnorm", "-D", "_WIN32", "-O"]);
    args.push(s(
        &PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("pp-win32")
    ));
    args.push(s(&case("winif").join("run.c")));
    let (code, _, err) = radtap(&args);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("run.c:3:10: error[AD001]: cannot find the header \"win.h\"")
            && err.contains("#include \"win.h\""),
        "{err}"
    );
}

/// `-D NAME[=VAL]` and `-U NAME`: their effect on `#ifdef` and on macro expansion, and an
/// export macro given on the command line (`-D LIBAPI=`).
#[test]
fn defines_and_undefines_on_the_command_line() {
    let base = ["-head", "scaled", "-D", "LIBAPI=", "-D", "SCALE=2.5"];
    validates(
        "defines",
        "cfg.c",
        &[&base[..], &["-D", "SQUARED"]].concat(),
    );
    validates("defines", "cfg.c", &base);
    let sq = tangent(
        "defines",
        "cfg.c",
        &[&base[..], &["-D", "SQUARED"]].concat(),
        "sq",
    );
    let lin = tangent(
        "defines",
        "cfg.c",
        &[&base[..], &["-D", "SQUARED", "-U", "SQUARED"]].concat(),
        "lin",
    );
    assert!(sq.contains("2.5") && sq.contains("(x) * (x)"), "{sq}");
    assert!(!lin.contains("(x) * (x)"), "{lin}");
}

/// `.F90` through cpp: the text `#include "step.inc"` brings in is part of the routine (it
/// was dropped: the derivative lacked `y = y + x*x`, silently wrong, exit 0).
#[test]
fn fortran_preprocessor_include_is_kept() {
    validates("fortran", "f.F90", &["-head", "f"]);
    let t = tangent("fortran", "f.F90", &["-head", "f"], "f90");
    assert!(t.contains("y = y + x*x"), "{t}");
}

/// llama2.c's and CloverLeaf's shape: `#pragma omp` inside a function (AD020 for the whole
/// file before issue 43, a comment run sequentially before issue 45). The loop's
/// derivatives run in parallel under the directive: the tangent's with the primal's
/// clauses, the adjoint's forward and reversed loops too, the reversed loop's increments to
/// `a` and `x` (which other iterations also touch) atomic. `validate` builds with
/// `-fopenmp` and checks with 1 and 2 threads.
#[test]
fn pragma_omp_loop_is_differentiated_as_a_parallel_loop() {
    let opts = ["-head", "matvec", "-size", "n=4", "-size", "a=16"];
    validates(
        "pragma",
        "mv.c",
        &[&opts[..], &["-size", "x=4", "-size", "y=4"]].concat(),
    );
    validates(
        "pragma",
        "mv.c",
        &[
            "-head", "dot", "-size", "n=4", "-size", "x=4", "-size", "y=4",
        ],
    );
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("radtap-pp-pragma-{}", std::process::id()));
    let mut args = words(&["-d", "-b", "-head", "matvec", "-o", "gen", "-O"]);
    args.push(s(&out));
    args.push(s(&case("pragma").join("mv.c")));
    let (code, _, err) = radtap(&args);
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("warning"), "{err}");
    let t = std::fs::read_to_string(out.join("gen_d.c")).unwrap();
    assert_eq!(
        t.matches("#pragma omp parallel for private(j)").count(),
        1,
        "{t}"
    );
    let b = std::fs::read_to_string(out.join("gen_b.c")).unwrap();
    assert_eq!(b.matches("#pragma omp parallel for").count(), 2, "{b}");
    // x̄[j], incremented by every row over an inner `j` loop: an array reduction (issue 45).
    assert!(b.contains("reduction(+: xb[:n])"), "{b}");
    assert!(!b.contains("#pragma omp atomic"), "{b}");
    let _ = std::fs::remove_dir_all(&out);
}

/// Names reserved to the implementation (`_ISprint`, `__flag`) are a system header's
/// constants, never undeclared user names: llama2.c's `run.c` was refused (AD030 at its
/// `isprint`) when its header's enumerator was not found.
#[test]
fn reserved_names_are_header_constants() {
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("radtap-pp-reserved-{}", std::process::id()));
    let mut args = words(&["-d", "-head", "sq", "-o", "gen", "-O"]);
    args.push(s(&out));
    args.push(s(&case("reserved").join("r.c")));
    let (code, _, err) = radtap(&args);
    assert_eq!(code, 0, "{err}");
    assert!(out.join("gen_d.c").exists());
    let _ = std::fs::remove_dir_all(&out);
}

/// A C file and its header each choose a precision header under `#if` (submitted headers
/// included in conditionals, the shape of SUNDIALS' `sundials_types.h`): the taken branch's
/// typedef and macro are used, and the output includes under the original's `#ifdef`.
#[test]
fn submitted_headers_included_under_a_conditional() {
    let opts = [
        "-head",
        "chain_energy",
        "-vars",
        "x",
        "-size",
        "n=4",
        "-size",
        "s=4",
        "-size",
        "x=4",
    ];
    validates("ifheaders", "chain.c", &opts);
    let t = tangent("ifheaders", "chain.c", &opts[..4], "ifheaders");
    assert!(
        t.contains("#ifdef SINGLE_PRECISION\n#include \"prec_single.h\"\n#else\n#include \"prec_double.h\"\n#endif\n"),
        "{t}"
    );
}
