//! Any bytes as a Fortran or C file (first byte picks), differentiated in tangent and
//! adjoint mode with each of its procedures as head; the output must re-parse.
#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "../src/check.rs"]
mod check;

fuzz_target!(|data: &[u8]| {
    check::pipeline(data);
});
