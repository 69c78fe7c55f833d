//! The constructors of the vocabulary's records (`super::records`, `super::others`): the
//! Fortran spellings, the C ones, the derivative, the [`flags`](super::flags) and the
//! signature (syntax in the vocabulary's module documentation).

use super::types::{Deriv, Flow, Routine, Rule};

type Names = &'static [&'static str];

/// A routine with a derivative rule.
pub(super) const fn d(
    fortran: Names,
    c: Names,
    rule: Rule,
    flags: u32,
    sig: &'static str,
) -> Routine {
    Routine {
        fortran,
        c,
        deriv: Deriv::Rule(rule),
        flags,
        sig,
    }
}

/// A routine whose derivative is zero wherever it exists.
pub(super) const fn z(fortran: Names, c: Names, flags: u32, sig: &'static str) -> Routine {
    Routine {
        fortran,
        c,
        deriv: Deriv::Zero,
        flags,
        sig,
    }
}

/// A routine with a rule of its own in the generators.
pub(super) const fn own(
    fortran: Names,
    c: Names,
    flow: Flow,
    flags: u32,
    sig: &'static str,
) -> Routine {
    Routine {
        fortran,
        c,
        deriv: Deriv::Own(flow),
        flags,
        sig,
    }
}

/// A routine without a derivative rule (refused when active).
pub(super) const fn no(
    fortran: Names,
    c: Names,
    flow: Flow,
    flags: u32,
    sig: &'static str,
) -> Routine {
    Routine {
        fortran,
        c,
        deriv: Deriv::NoRule(flow),
        flags,
        sig,
    }
}
