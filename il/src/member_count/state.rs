//! The symbolic state the member-count proof carries through a procedure: per record it
//! names (`mat`, `dst`, `result[i]`), the known values of the integer members and a lower
//! bound of the block's count ([`Blk`]), as products of atoms ([`Prod`]); and the facts the
//! branch conditions give (equal products, non-positive products), and the records freed.

use std::collections::{BTreeMap, HashSet};

/// A product of atoms (sorted texts); `"0"` among them makes it zero.
pub(super) type Prod = Vec<String>;

#[derive(Clone, Debug, PartialEq)]
pub(super) enum Blk {
    /// The block's count is at least this product.
    AtLeast(Prod),
    /// `NULL`: count zero.
    Null,
    /// Freed, uninitialised, or not known.
    Broken,
}

#[derive(Clone, Debug, PartialEq)]
pub(super) struct Rec {
    pub(super) blk: Blk,
    pub(super) mem: Vec<Prod>,
}

#[derive(Clone, Default)]
pub(super) struct State {
    pub(super) recs: BTreeMap<String, Rec>,
    pub(super) eqs: Vec<(Prod, Prod)>,
    pub(super) nonpos: Vec<Prod>,
    pub(super) dead: HashSet<String>,
}
