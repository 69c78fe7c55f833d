//! Zone ids, sets of zones, and relations between zones.

use fixedbitset::FixedBitSet;
use std::fmt;

/// A memory zone of one procedure's zone space (see [`crate::zones`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ZoneId(pub u32);

impl ZoneId {
    /// Position in the procedure's zone table.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A set of zones: the domain of every analysis.
#[derive(Clone, PartialEq, Eq, Default)]
pub struct ZoneSet(FixedBitSet);

impl ZoneSet {
    /// The empty set over `n` zones.
    pub fn new(n: usize) -> Self {
        ZoneSet(FixedBitSet::with_capacity(n))
    }
    /// The set of all `n` zones.
    pub fn full(n: usize) -> Self {
        let mut b = FixedBitSet::with_capacity(n);
        b.insert_range(..);
        ZoneSet(b)
    }
    /// Number of zones the set ranges over.
    pub fn domain(&self) -> usize {
        self.0.len()
    }
    /// Adds `z`.
    pub fn insert(&mut self, z: ZoneId) {
        self.0.grow(z.index() + 1);
        self.0.insert(z.index());
    }
    /// Removes `z`.
    pub fn remove(&mut self, z: ZoneId) {
        if z.index() < self.0.len() {
            self.0.set(z.index(), false);
        }
    }
    /// Whether `z` is in the set.
    pub fn contains(&self, z: ZoneId) -> bool {
        self.0.contains(z.index())
    }
    /// Adds every zone of `o`; returns whether the set changed.
    pub fn union_with(&mut self, o: &ZoneSet) -> bool {
        if o.0.len() > self.0.len() {
            self.0.grow(o.0.len());
        }
        // Block by block, noting a change as it happens (two population counts over both
        // sets were most of the cost of every transfer function). `o` has no more blocks
        // than `self` now, and its bits past its length are clear.
        let mut changed = false;
        for (a, b) in self.0.as_mut_slice().iter_mut().zip(o.0.as_slice()) {
            let n = *a | *b;
            changed |= n != *a;
            *a = n;
        }
        changed
    }
    /// Removes every zone of `o`.
    pub fn subtract(&mut self, o: &ZoneSet) {
        self.0.difference_with(&o.0);
    }
    /// Keeps only zones of `o`.
    pub fn intersect_with(&mut self, o: &ZoneSet) {
        self.0.intersect_with(&o.0);
    }
    /// Whether the two sets share a zone.
    pub fn intersects(&self, o: &ZoneSet) -> bool {
        !self.0.is_disjoint(&o.0)
    }
    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.0.is_clear()
    }
    /// Zones in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = ZoneId> + '_ {
        self.0.ones().map(|i| ZoneId(i as u32))
    }
    /// Number of zones in the set.
    pub fn count(&self) -> usize {
        self.0.count_ones(..)
    }
    /// `self ∩ o` as a new set.
    pub fn and(&self, o: &ZoneSet) -> ZoneSet {
        let mut s = self.clone();
        s.intersect_with(o);
        s
    }
}

impl fmt::Debug for ZoneSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.0.ones()).finish()
    }
}

impl FromIterator<ZoneId> for ZoneSet {
    fn from_iter<I: IntoIterator<Item = ZoneId>>(it: I) -> Self {
        let mut s = ZoneSet::default();
        for z in it {
            s.insert(z);
        }
        s
    }
}

/// A dependence relation: `rows[t]` holds the zones whose values (at some origin) the value of
/// zone `t` (here) may depend on. The identity relation is the start of a forward sweep.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Relation {
    /// One row per zone.
    pub rows: Vec<ZoneSet>,
}

impl Relation {
    /// The empty relation over `n` zones.
    pub fn empty(n: usize) -> Self {
        Relation {
            rows: vec![ZoneSet::new(n); n],
        }
    }
    /// The identity relation over `n` zones.
    pub fn identity(n: usize) -> Self {
        let mut r = Self::empty(n);
        for (i, row) in r.rows.iter_mut().enumerate() {
            row.insert(ZoneId(i as u32));
        }
        r
    }
    /// Row of `t`.
    pub fn row(&self, t: ZoneId) -> &ZoneSet {
        &self.rows[t.index()]
    }
    /// `⋃ rows[s]` for `s ∈ set`: what the zones of `set` depend on.
    pub fn image(&self, set: &ZoneSet) -> ZoneSet {
        let mut out = ZoneSet::new(self.rows.len());
        for s in set.iter() {
            if let Some(r) = self.rows.get(s.index()) {
                out.union_with(r);
            }
        }
        out
    }
}

/// A map from zones to sets of zones, sorted by key: the per-point rows of an
/// [`Effect`](crate::Effect) (`dep`, `diff_dep`, `partials`). A point writes one or a few
/// zones, so a sorted vector holds them in one small allocation where a `BTreeMap` took a
/// node of several hundred bytes per map and point (a third of the analysis memory of
/// straight-line code).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ZoneMap(Vec<(ZoneId, ZoneSet)>);

impl ZoneMap {
    /// The set of `k`, made by `empty` first when `k` has none.
    pub fn row_mut(&mut self, k: ZoneId, empty: impl FnOnce() -> ZoneSet) -> &mut ZoneSet {
        let i = match self.0.binary_search_by_key(&k, |(z, _)| *z) {
            Ok(i) => i,
            Err(i) => {
                self.0.insert(i, (k, empty()));
                i
            }
        };
        &mut self.0[i].1
    }
    /// The set of `k`, if any.
    pub fn get(&self, k: &ZoneId) -> Option<&ZoneSet> {
        self.0
            .binary_search_by_key(k, |(z, _)| *z)
            .ok()
            .map(|i| &self.0[i].1)
    }
    /// The keys and their sets, by increasing key.
    pub fn iter(&self) -> impl Iterator<Item = (&ZoneId, &ZoneSet)> {
        self.0.iter().map(|(k, v)| (k, v))
    }
    /// The sets, by increasing key.
    pub fn values(&self) -> impl Iterator<Item = &ZoneSet> {
        self.0.iter().map(|(_, v)| v)
    }
    /// Number of keys.
    pub fn len(&self) -> usize {
        self.0.len()
    }
    /// Whether no key has a set.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl<'a> IntoIterator for &'a ZoneMap {
    type Item = (&'a ZoneId, &'a ZoneSet);
    type IntoIter = std::iter::Map<
        std::slice::Iter<'a, (ZoneId, ZoneSet)>,
        fn(&'a (ZoneId, ZoneSet)) -> (&'a ZoneId, &'a ZoneSet),
    >;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter().map(|(k, v)| (k, v))
    }
}
