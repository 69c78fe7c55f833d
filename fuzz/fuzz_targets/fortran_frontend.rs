//! Any bytes as a free-form Fortran file, a fixed-form one and a preprocessed one: parse,
//! lower, regenerate (-p), and re-parse what was written.
#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "../src/check.rs"]
mod check;

fuzz_target!(|data: &[u8]| {
    check::frontend(check::Target::Fortran, data);
});
