//! The fuzz targets' checks on stable, without the fuzzer (issue 24 item 6): every input
//! fuzzing found (`fuzz/regressions/TARGET/*`), the corpus programs as seeds of the frontend
//! and pipeline targets, and a fixed set of generated valid programs. `fuzz/run.sh SECONDS`
//! runs the fuzzer itself (nightly, cargo-fuzz).

#[path = "../fuzz/src/check.rs"]
mod check;

use std::path::{Path, PathBuf};

fn files(dir: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|r| {
            r.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| !p.file_name().is_some_and(|n| n == ".keep"))
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

fn ext(p: &Path) -> &str {
    p.extension().and_then(|e| e.to_str()).unwrap_or("")
}

/// Inputs fuzzing found, each replayed through its target.
#[test]
fn fuzz_regressions_replay() {
    for f in files("fuzz/regressions/fortran_frontend") {
        check::frontend(check::Target::Fortran, &std::fs::read(&f).unwrap());
    }
    for f in files("fuzz/regressions/c_frontend") {
        check::frontend(check::Target::C, &std::fs::read(&f).unwrap());
    }
    for f in files("fuzz/regressions/pipeline") {
        check::pipeline(&std::fs::read(&f).unwrap());
    }
    for f in files("fuzz/regressions/valid_programs") {
        check::valid_program(&std::fs::read(&f).unwrap());
    }
}

/// The seeds: every numeric-corpus program through the frontend target of its language and
/// through the pipeline target (every procedure as head, tangent and adjoint, re-parse).
#[test]
fn corpus_seeds_pass_the_fuzz_checks() {
    let mut all = files("tests/tangent");
    all.extend(files("tests/roundtrip/fortran"));
    all.extend(files("tests/roundtrip/c"));
    for f in all {
        let data = std::fs::read(&f).unwrap();
        let (target, lang) = match ext(&f) {
            "f90" => (check::Target::Fortran, 0u8),
            "f" => (check::Target::Fortran, 1),
            "c" => (check::Target::C, 2),
            _ => continue,
        };
        check::frontend(target, &data);
        if f.starts_with("tests/tangent") {
            let mut p = vec![lang];
            p.extend(&data);
            check::pipeline(&p);
        }
    }
}

/// The structure-aware generator on 300 fixed byte strings (a linear congruential sequence):
/// each program is accepted, differentiated or refused, and its output re-parses.
#[test]
fn generated_valid_programs_pass_the_fuzz_checks() {
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    for _ in 0..300 {
        let bytes: Vec<u8> = (0..64)
            .map(|_| {
                state = state
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                (state >> 56) as u8
            })
            .collect();
        check::valid_program(&bytes);
    }
}
