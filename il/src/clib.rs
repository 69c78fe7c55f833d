//! The C library functions radtap knows by name, and what each may do.
//!
//! A C call to a function that has no body in the input files, no prototype in view and is
//! not listed here is a call to an **unknown routine**: the call graph resolves it as external
//! (`Callee::External`), exactly like a function whose prototype is in view, and the analyses
//! assume it may read and write everything reachable from its arguments and from the globals
//! (docs/decisions.md, "Unknown routines"); where that touches active data, the generators
//! refuse the call (AD070). Taking an unknown function for a library one (it was: every
//! undeclared callee was an intrinsic producing new values) silently lost the derivative of
//! what it wrote (`ext_scale(&t, 3)`, `MPI_Allreduce(&t, &s, …)`).
//!
//! A function is known, by its record in the vocabulary ([`crate::vocab`]), only when what it
//! does to derivatives is known: the `math.h` families (pure: they read their values; the
//! records of the differentiable ones have their rules), functions that never carry a derivative (I/O, strings,
//! clocks, random numbers, process control), the allocators, and the copies whose effects the
//! data-flow analyses model (`memcpy`, `memmove`, `memset`). Not listed, so unknown and
//! refused when active: functions that move real values the analyses cannot follow (`qsort`
//! of an active array, GNU `sincos` writing two results, `scanf`/`fread` filling variables).

pub use crate::vocab::CLibrary;

/// What the C library function `name` (as written) does, if radtap knows it.
///
/// GCC's `math.h` macros expand to builtins (`HUGE_VAL` is `__builtin_huge_val()`, `NAN`
/// `__builtin_nanf("")`, `isnan(x)` `__builtin_isnan(x)`): `__builtin_f` is the math
/// function `f`, and the constants have records of their own (as unknown routines they
/// wrote every global: cephes' `hcephes_expx2`, returning `HUGE_VAL`, was taken to write the
/// error flag `merror`).
pub fn c_library(name: &str) -> Option<CLibrary> {
    crate::vocab::lookup(name, crate::Lang::C).and_then(|r| r.library_kind())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every C spelling of a record with a derivative rule is a `math.h` function for
    /// `c_library`: one missing here would make its calls unknown routines, refused where
    /// the record has their derivative.
    #[test]
    fn every_differentiable_c_spelling_is_a_math_function() {
        for r in crate::vocab::ROUTINES.iter().filter(|r| r.rule().is_some()) {
            for n in r.c_spellings() {
                assert_eq!(c_library(&n), Some(CLibrary::Math), "{n}");
            }
        }
    }
}
