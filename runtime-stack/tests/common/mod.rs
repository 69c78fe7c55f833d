//! Helpers shared by the runtime's integration tests: scratch directories, running tools,
//! and linking a Fortran program against the runtime.

#![allow(dead_code)] // each test binary uses its own subset

use std::path::{Path, PathBuf};
use std::process::Command;

/// A fresh, empty directory under the system temp dir, unique to this process and `tag`.
pub(crate) fn fresh_dir(tag: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("radtap-runtime-stack-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create temp dir");
    dir
}

/// Runs `program args` in `dir`; panics with its output unless it succeeds. Returns stdout.
pub(crate) fn run(dir: &Path, program: &str, args: &[&str]) -> String {
    let out = Command::new(program)
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap_or_else(|e| panic!("cannot run `{program}` (is it installed and on PATH?): {e}"));
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr);
    print!("{stdout}");
    eprint!("{stderr}");
    assert!(
        out.status.success(),
        "`{program} {}` failed ({}):\n{stdout}\n{stderr}",
        args.join(" "),
        out.status
    );
    stdout
}

/// Writes the runtime and the Fortran program `source` (as `name`) into a fresh dir, builds
/// them together with gcc/gfortran at -O2, runs the program and returns its stdout; the
/// directory is removed.
pub(crate) fn run_fortran_with_runtime(tag: &str, name: &str, source: &str) -> String {
    let dir = fresh_dir(tag);
    radtap_runtime_stack::write_to(&dir).expect("write runtime");
    std::fs::write(dir.join(name), source).expect("write Fortran program");
    run(
        &dir,
        "gcc",
        &["-O2", "-Wall", "-Werror", "-c", "adStack.c", "adBinomial.c"],
    );
    run(
        &dir,
        "gfortran",
        &["-O2", "-o", "prog", name, "adStack.o", "adBinomial.o"],
    );
    let exe = dir.join("prog");
    let stdout = run(&dir, exe.to_str().expect("utf-8 temp path"), &[]);
    std::fs::remove_dir_all(&dir).ok();
    stdout
}
