//! Routines without source (issue 42): a routine described in a library file (`-ext`, Tapenade's
//! syntax) with the derivatives its user wrote, and reference BLAS / CBLAS described built in,
//! whose derivatives radtap writes as BLAS calls (linked with `-lblas`). Each program is
//! checked by `radtap validate`: the tangent against divided differences, the adjoint by the
//! dot-product test. Before the description existed, each call was refused (AD070), and
//! `-ext` was refused on the command line.

use radtap::{execute, normalize_args, Cli, Outcome};
use std::path::{Path, PathBuf};

fn corpus(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/libraries")
        .join(name)
        .display()
        .to_string()
}

fn scratch(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("radtap-libraries-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn radtap(args: &[String]) -> Outcome {
    let mut all = vec!["radtap".to_string()];
    all.extend(args.iter().cloned());
    let parsed = <Cli as clap::Parser>::try_parse_from(normalize_args(all.into_iter()))
        .expect("options parse");
    execute(&parsed)
}

/// `radtap validate ARGS` built in a scratch directory; asserts PASS with the adjoint checked.
fn validate_passes(tag: &str, args: &[&str]) {
    let dir = scratch(tag);
    let mut all: Vec<String> = vec!["validate".into(), "-keep".into(), dir.display().to_string()];
    all.extend(args.iter().map(|s| s.to_string()));
    let o = radtap(&all);
    assert_eq!(o.status, 0, "{}{}", o.dump, o.stderr);
    assert!(o.dump.ends_with("PASS\n"), "{}", o.dump);
    assert!(
        o.dump.contains("dot-product test, adjoint"),
        "the adjoint was not checked: {}{}",
        o.dump,
        o.stderr
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_fortran_routine_described_with_ext_is_differentiated_through_its_users_derivatives() {
    validate_passes(
        "ext-f",
        &[
            "-ext",
            &corpus("ext_g.lib"),
            "-link",
            &corpus("ext_g.f90"),
            "-link",
            &corpus("ext_g_deriv.f90"),
            "-head",
            "head(y)/(x)",
            "-size",
            "n=5",
            &corpus("ext_head.f90"),
        ],
    );
}

#[test]
fn a_c_routine_described_with_ext_is_differentiated_through_its_users_derivatives() {
    validate_passes(
        "ext-c",
        &[
            "-ext",
            &corpus("ext_c.lib"),
            "-link",
            &corpus("ext_wsum.c"),
            "-link",
            &corpus("ext_wsum_deriv.c"),
            "-head",
            "head(y)/(x)",
            "-size",
            "n=5",
            "-size",
            "x=5",
            &corpus("ext_head.c"),
        ],
    );
}

#[test]
fn fortran_blas_calls_are_differentiated_as_blas_calls() {
    validate_passes(
        "blas-f",
        &[
            "-head",
            "head(f y)/(a x)",
            "-size",
            "n=5",
            &corpus("blas_head.f90"),
        ],
    );
}

#[test]
fn lapack_shaped_blas_calls_are_differentiated_triangular_solves_included() {
    validate_passes(
        "blas3-f",
        &[
            "-head",
            "head(f)/(a b c)",
            "-size",
            "n=5",
            &corpus("blas3_head.f90"),
        ],
    );
    validate_passes(
        "blas3-c",
        &[
            "-head",
            "head(f)/(a b c)",
            "-size",
            "n=4",
            "-size",
            "a=16",
            "-size",
            "b=8",
            "-size",
            "c=8",
            &corpus("cblas3_head.c"),
        ],
    );
}

/// LAPACK's blocked LU with the system BLAS: DTRSM and DGEMM on blocks of one matrix are
/// proven disjoint from the built-in stand-ins (they touch what the routines touch), so the
/// adjoint is accepted and right (refused before: the stand-ins touched any element).
#[test]
fn blocks_of_one_matrix_given_to_blas_are_proven_disjoint() {
    validate_passes(
        "blas-lu",
        &[
            "-head",
            "lusolv(b)/(a b)",
            "-size",
            "m=6",
            "-size",
            "lda=7",
            "-size",
            "a=lda*m",
            "-size",
            "b=m",
            &corpus("blas_lu_blocks.f"),
        ],
    );
}

#[test]
fn single_precision_blas_uses_the_twins_of_the_double_records() {
    validate_passes(
        "sblas-f",
        &[
            "-head",
            "head(f8)/(a8 x8)",
            "-size",
            "n=5",
            &corpus("sblas_head.f90"),
        ],
    );
}

#[test]
fn cblas_calls_are_differentiated_as_cblas_calls() {
    validate_passes(
        "blas-c",
        &[
            "-head",
            "head(f y)/(a x)",
            "-size",
            "n=4",
            "-size",
            "a=16",
            "-size",
            "x=16",
            "-size",
            "y=4",
            &corpus("cblas_head.c"),
        ],
    );
}

#[test]
fn generated_code_says_what_the_user_supplies_and_calls_blas() {
    let dir = scratch("text");
    let out = dir.display().to_string();
    let o = radtap(&[
        "-b".into(),
        "-ext".into(),
        corpus("ext_g.lib"),
        "-head".into(),
        "head(y)/(x)".into(),
        "-O".into(),
        out.clone(),
        corpus("ext_head.f90"),
    ]);
    assert_eq!(o.status, 0, "{}", o.stderr);
    let b = std::fs::read_to_string(dir.join("ext_head_b.f90")).unwrap();
    assert!(b.contains("`g_b` is supplied by you"), "{b}");
    assert!(!b.contains("radtap_library"), "{b}");
    assert!(!b.contains("subroutine g_b"), "{b}");
    let o = radtap(&[
        "-d".into(),
        "-head".into(),
        "head(f y)/(a x)".into(),
        "-O".into(),
        out,
        corpus("blas_head.f90"),
    ]);
    assert_eq!(o.status, 0, "{}", o.stderr);
    let d = std::fs::read_to_string(dir.join("blas_head_d.f90")).unwrap();
    assert!(d.contains("call dgemv_d('N'"), "{d}");
    assert!(d.contains("call dgemm(transa, transb"), "{d}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_malformed_description_and_vector_mode_are_refused_where_they_are() {
    let dir = scratch("bad");
    let lib = dir.join("bad.lib");
    std::fs::write(
        &lib,
        "subroutine g:\n  external:\n  shape: (param 1, param 2)\n  ReadNotWritten: (1, 0, 1)\n",
    )
    .unwrap();
    let o = radtap(&[
        "-d".into(),
        "-ext".into(),
        lib.display().to_string(),
        "-head".into(),
        "head(y)/(x)".into(),
        "-O".into(),
        dir.display().to_string(),
        corpus("ext_head.f90"),
    ]);
    assert_eq!(o.status, 1, "{}", o.stderr);
    assert!(
        o.stderr.contains("bad.lib:4:") && o.stderr.contains("error[AD010]"),
        "{}",
        o.stderr
    );
    let o = radtap(&[
        "-d".into(),
        "-vector".into(),
        "-head".into(),
        "head(f y)/(a x)".into(),
        "-O".into(),
        dir.display().to_string(),
        corpus("blas_head.f90"),
    ]);
    assert_eq!(o.status, 1, "{}", o.stderr);
    assert!(
        o.stderr.contains("blas_head.f90:11:3: error[AD020]")
            && o.stderr.contains("vector tangent of `dgemv`"),
        "{}",
        o.stderr
    );
    let _ = std::fs::remove_dir_all(&dir);
}
