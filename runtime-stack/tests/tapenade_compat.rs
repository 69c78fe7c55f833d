//! ADFirstAidKit compatibility of the runtime (DESIGN.md, "Runtime API"): code written for
//! Tapenade's kit must link against radtap's runtime unchanged and compute the same thing.
//!
//! `tapenade_style/binomial_b.c` and `binomial_b.f90` are hand-written adjoints in the shape of
//! Tapenade's BINOMIAL-CKP output (the loop over `adBinomial_next` actions 1..6: push, look
//! (through a repeat mark), pop snapshot, advance one iteration or `adBinomial_resize` when the
//! loop has exited, first turn taping the rest of the loop, turn), calling only the kit's
//! published names: the C one through `<adStack.h>` and Tapenade's own prototypes for
//! `adBinomial_*`, the Fortran one through the gfortran aliases (`logical adbinomial_next`,
//! `adbinomial_resize_`). Each checks its gradient against central finite differences and that
//! the stack is empty afterwards, for several trip counts, snapshot counts and declared lengths
//! (exact, the usual `nsteps+1`, and over-estimates that take the resize path).
//!
//! These tests need `gcc` and `gfortran` on the PATH (a missing compiler is a failure).

mod common;

use common::{fresh_dir, run, run_fortran_with_runtime};

const C_ADJOINT: &str = include_str!("tapenade_style/binomial_b.c");
const FORTRAN_ADJOINT: &str = include_str!("tapenade_style/binomial_b.f90");

#[test]
fn tapenade_style_c_binomial_adjoint_links_and_is_correct() {
    let dir = fresh_dir("compat-c");
    radtap_runtime_stack::write_to(&dir).expect("write runtime");
    std::fs::write(dir.join("binomial_b.c"), C_ADJOINT).expect("write adjoint");
    // `#include <adStack.h>` as Tapenade writes it: the runtime directory on the include path.
    run(
        &dir,
        "gcc",
        &[
            "-std=c99",
            "-O2",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-I.",
            "-o",
            "b",
            "binomial_b.c",
            "adStack.c",
            "adBinomial.c",
            "-lm",
        ],
    );
    let exe = dir.join("b");
    let stdout = run(&dir, exe.to_str().expect("utf-8 temp path"), &[]);
    assert!(
        stdout.contains("tapenade-style binomial adjoint: 96 cases, 0 failures"),
        "unexpected output:\n{stdout}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn tapenade_style_fortran_binomial_adjoint_links_and_is_correct() {
    let stdout = run_fortran_with_runtime("compat-fortran", "binomial_b.f90", FORTRAN_ADJOINT);
    assert!(
        stdout.contains("(fortran):  96 cases,   0 failures"),
        "unexpected output:\n{stdout}"
    );
}
