//! `radtap validate` on heads written for these tests (issue 23): the driver must fill every
//! argument and global independent, never clash with the head's own names, build where
//! `-keep` says, accept realistic inputs (`-value`) and never blame a correct derivative
//! where divided differences mean nothing (non-finite values, no convergence).

use radtap::{execute, normalize_args, Cli, Outcome};
use std::path::PathBuf;
use std::process::Command;

/// A scratch directory per test, under cargo's temporary directory (nothing in /tmp).
fn scratch(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("radtap-vinputs-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Writes `text` to `file` in a fresh scratch directory; returns the file's path.
fn source(tag: &str, file: &str, text: &str) -> PathBuf {
    let p = scratch(tag).join(file);
    std::fs::write(&p, text).unwrap();
    p
}

/// `radtap validate ARGS… FILE` in this process; a build validate keeps after a failure is
/// removed.
fn validate(args: &[&str], file: &std::path::Path) -> Outcome {
    let mut all = vec!["radtap".to_string(), "validate".to_string()];
    all.extend(args.iter().map(|s| s.to_string()));
    all.push(file.display().to_string());
    let parsed = <Cli as clap::Parser>::try_parse_from(normalize_args(all.into_iter()))
        .expect("options parse");
    let o = execute(&parsed);
    for says in ["the build are kept in ", "the build are in "] {
        if let Some(rest) = o.stderr.split(says).nth(1) {
            let kept = PathBuf::from(rest.lines().next().unwrap_or("").trim());
            let ours = kept
                .file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("radtap-validate-"));
            if ours && kept.starts_with(std::env::temp_dir()) {
                let _ = std::fs::remove_dir_all(&kept);
            }
        }
    }
    o
}

fn assert_pass(o: &Outcome) {
    assert_eq!(o.status, 0, "{}{}", o.dump, o.stderr);
    assert!(o.dump.ends_with("PASS\n"), "{}", o.dump);
}

#[test]
fn an_argument_named_like_a_derivative_does_not_clash_with_the_drivers_names() {
    // The derivative of `x` cannot be `xd`: the generator calls it `xd0`, and the driver must
    // use that name.
    let f = source(
        "clash_xd",
        "clash.f90",
        "subroutine g(x, xd, n, y)\n  implicit none\n  integer :: n\n  real(8) :: x(n), xd, y\n  integer :: i\n  y = 0\n  do i = 1, n\n    y = y + sin(x(i))*xd\n  end do\nend subroutine g\n",
    );
    assert_pass(&validate(
        &[
            "-head", "g", "-vars", "x xd", "-outvars", "y", "-size", "n=3",
        ],
        &f,
    ));
}

#[test]
fn a_function_argument_named_like_the_results_derivative_does_not_clash() {
    let f = source(
        "clash_gd",
        "clashf.f90",
        "real(8) function g(x, gd)\n  implicit none\n  real(8) :: x, gd\n  g = sin(x)*gd\nend function g\n",
    );
    assert_pass(&validate(
        &["-head", "g", "-vars", "x gd", "-outvars", "g"],
        &f,
    ));
    let f = source(
        "clash_gd_c",
        "clashf.c",
        "#include <math.h>\ndouble g(double x, double gd, double g_r) {\n  return sin(x) * gd + g_r;\n}\n",
    );
    assert_pass(&validate(
        &["-head", "g", "-vars", "x gd g_r", "-outvars", "g"],
        &f,
    ));
}

#[test]
fn a_relative_keep_directory_builds_there() {
    let d = scratch("keep_rel");
    std::fs::write(
        d.join("sq.f90"),
        "subroutine sq(x, y)\n  real(8) :: x, y\n  y = x*x\nend subroutine sq\n",
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_radtap"))
        .current_dir(&d)
        .args(["validate", "-head", "sq", "-vars", "x", "-outvars", "y"])
        .args(["-keep", "kk", "sq.f90"])
        .output()
        .unwrap();
    let (so, se) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert_eq!(out.status.code(), Some(0), "{so}{se}");
    assert!(d.join("kk").join("validate_d.f90").exists(), "{se}");
}
