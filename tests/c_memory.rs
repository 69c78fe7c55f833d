//! The C corpus programs that allocate (heap work arrays, VLAs, structs owning heap memory)
//! run clean under valgrind in every mode: the tangent, vector and adjoint drivers of the
//! numeric suites, built from the generated files, leak nothing and touch no memory they do
//! not own (`--leak-check=full --error-exitcode=9`). Adjoint mode is skipped for programs
//! it refuses (`ADJOINT_UNSUPPORTED`). Skips with a printed message when valgrind is missing.

mod common;

use common::*;
use radtap_il::Lang;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The corpus programs that allocate memory, and the ADBench-style objectives of issue 17
/// (`c_ba_objective` allocates nothing but walks its arrays through pointers).
const HEAP_PROGRAMS: &[&str] = &[
    "c_malloc_work.c",
    "c_malloc_rows.c",
    "c_vla_work.c",
    "c_lstm_cells.c",
    "c_heap_paren_addr.c",
    "c_matrix_heap.c",
    "c_matrix_helpers.c",
    "c_member_snapshot.c",
    "e_c_matrix_helpers.c",
    "c_gmm_objective.c",
    "c_ba_objective.c",
    "c_lstm_objective.c",
    "c_hand_skin.c",
    "c_hand_matrix_alloc.c",
    "c_record_array_resize.c",
    "c_helper_local_record.c",
    "c_member_alloc_helper.c",
    "c_hand_zero_record.c",
    "c_hand_bone_chain.c",
    "c_logreg_objective.c",
    "c_spline_fit.c",
    "c_two_heads.c",
    "c_vector_record_blocks.c",
];

/// Builds one driver of `path` in `dir` and runs it under valgrind.
fn valgrind_mode(path: &Path, dir: &Path, mode: &[&str], kind: Kind) -> Result<(), String> {
    let (opts, sizes) = header(path);
    let o = run_cli(path, &opts, mode, dir);
    if o.status != 0 {
        return Err(format!("radtap {mode:?} failed:\n{}", o.stderr));
    }
    let gen = match kind {
        Kind::Adjoint => o.adjoint.as_ref(),
        Kind::Scalar | Kind::Vector => o.tangent.as_ref(),
    }
    .ok_or("no output")?;
    let h = describe(gen, &sizes);
    let tag = match kind {
        Kind::Scalar => "d",
        Kind::Vector => "dv",
        Kind::Adjoint => "b",
    };
    let drv = dir.join(format!("drv_{tag}.c"));
    std::fs::write(&drv, driver(&h, kind)).map_err(|e| e.to_string())?;
    // valgrind runs no AddressSanitizer code.
    let mut tc = radtap_validation::Toolchain::new(None, None, std::time::Duration::from_secs(120))
        .without_sanitizer();
    tc.include
        .push(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/tangent"));
    let mut objects: Vec<PathBuf> = Vec::new();
    if kind == Kind::Adjoint {
        objects.push(tc.runtime(dir)?);
    }
    let orig = dir.join(path.file_name().unwrap());
    let exe = tc.compile(
        dir,
        Lang::C,
        &[],
        &[orig, drv],
        &objects,
        &format!("drv_{tag}"),
    )?;
    let vg = Command::new("valgrind")
        .args(["--leak-check=full", "--error-exitcode=9", "-q"])
        .arg(&exe)
        .current_dir(dir)
        .output()
        .map_err(|e| format!("valgrind: {e}"))?;
    if !vg.status.success() {
        return Err(format!(
            "valgrind reports leaks or errors in {mode:?}:\n{}",
            String::from_utf8_lossy(&vg.stderr)
        ));
    }
    Ok(())
}

#[test]
fn heap_programs_are_valgrind_clean_in_every_mode() {
    let have_valgrind = Command::new("valgrind")
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    if !have_valgrind {
        println!(
            "SKIPPED heap_programs_are_valgrind_clean_in_every_mode: valgrind is not installed"
        );
        eprintln!(
            "SKIPPED heap_programs_are_valgrind_clean_in_every_mode: valgrind is not installed"
        );
        return;
    }
    let mut failures = Vec::new();
    for name in HEAP_PROGRAMS {
        let path = Path::new("tests/tangent").join(name);
        let dir = std::env::temp_dir().join(format!(
            "radtap-valgrind-{}-{}",
            std::process::id(),
            name.replace('.', "_")
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::copy(&path, dir.join(name)).unwrap();
        let mut modes: Vec<(&[&str], Kind)> = vec![
            (&["-d", "-o", "gen"], Kind::Scalar),
            (
                &["-d", "-vector", "-nbdirsmax", "3", "-o", "gen"],
                Kind::Vector,
            ),
        ];
        if !ADJOINT_UNSUPPORTED.iter().any(|(n, _)| n == name) {
            modes.push((&["-b", "-o", "gen"], Kind::Adjoint));
        }
        let before = failures.len();
        for (mode, kind) in modes {
            if let Err(e) = valgrind_mode(&path, &dir, mode, kind) {
                failures.push(format!("{name}: {e}\n(in {})", dir.display()));
            }
        }
        if failures.len() == before {
            let _ = std::fs::remove_dir_all(&dir);
        }
    }
    for f in &failures {
        eprintln!("FAIL {f}\n");
    }
    assert!(failures.is_empty(), "{} failures", failures.len());
}
