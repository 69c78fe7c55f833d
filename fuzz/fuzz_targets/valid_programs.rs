//! Structure-aware: the bytes drive a generator of valid Fortran and C programs (arithmetic
//! with intrinsics, IF, DO/for, calls between procedures); each is differentiated in tangent
//! and adjoint mode. A valid program is differentiated or refused (AD020), never an
//! internal error, and what is written re-parses.
#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "../src/check.rs"]
mod check;

fuzz_target!(|data: &[u8]| {
    check::valid_program(data);
});
