//! The analyses, each one small [`Analysis`] on the shared solver (paper §5.2).

use crate::effects::Effect;
use crate::solver::{Analysis, At, Direction};
use crate::zoneset::{Relation, ZoneId, ZoneSet};

/// Varied: zones that may depend differentiably on an independent (forward).
/// `V⁺ = (V⁻ \ kill) ∪ {t written : Diff-dep(t) ∩ V⁻ ≠ ∅}`.
pub struct Varied<'a> {
    /// Point effects.
    pub effects: &'a [Effect],
    /// Number of zones.
    pub n: usize,
    /// Varied zones at entry (independents, or the calling contexts' envelope).
    pub entry: &'a ZoneSet,
}

impl Analysis for Varied<'_> {
    type Domain = ZoneSet;
    const NAME: &'static str = "varied";
    const DIRECTION: Direction = Direction::Forward;
    fn bottom(&self) -> ZoneSet {
        ZoneSet::new(self.n)
    }
    fn boundary(&self, st: &mut ZoneSet) {
        st.union_with(self.entry);
    }
    fn apply(&self, at: At, st: &mut ZoneSet) {
        let e = &self.effects[at.id];
        let add: Vec<ZoneId> = e
            .diff_dep
            .iter()
            .filter(|(_, ds)| ds.intersects(st))
            .map(|(t, _)| *t)
            .collect();
        st.subtract(&e.kills);
        for t in add {
            st.insert(t);
        }
        // What comes from another process may depend on any independent (MPI, issue 46).
        for &t in &e.received {
            st.insert(t);
        }
    }
}

/// Useful: zones that may influence a dependent differentiably (backward).
/// `U⁻ = (U⁺ \ kill) ∪ ⋃_{t ∈ out ∩ U⁺} Diff-dep(t)`.
pub struct Useful<'a> {
    /// Point effects.
    pub effects: &'a [Effect],
    /// Number of zones.
    pub n: usize,
    /// Useful zones at exit (dependents, or the calling contexts' envelope).
    pub exit: &'a ZoneSet,
}

impl Analysis for Useful<'_> {
    type Domain = ZoneSet;
    const NAME: &'static str = "useful";
    const DIRECTION: Direction = Direction::Backward;
    fn bottom(&self) -> ZoneSet {
        ZoneSet::new(self.n)
    }
    fn boundary(&self, st: &mut ZoneSet) {
        st.union_with(self.exit);
    }
    fn apply(&self, at: At, st: &mut ZoneSet) {
        let e = &self.effects[at.id];
        let mut add = ZoneSet::new(self.n);
        for (t, ds) in &e.diff_dep {
            if st.contains(*t) {
                add.union_with(ds);
            }
        }
        st.subtract(&e.kills);
        st.union_with(&add);
        // What goes to another process may reach any dependent (MPI, issue 46).
        for &z in &e.sent {
            st.insert(z);
        }
    }
}

/// Dependency (or diff-dependency) relation from the procedure entry (forward).
/// `Dep⁺(I) = Dep⁻(I) ⊗ Dep(I)`, starting from the identity.
pub struct DepRelation<'a> {
    /// Point effects.
    pub effects: &'a [Effect],
    /// Number of zones.
    pub n: usize,
    /// Differentiable dependencies only.
    pub diff: bool,
}

impl Analysis for DepRelation<'_> {
    type Domain = Relation;
    const NAME: &'static str = "dependency";
    const DIRECTION: Direction = Direction::Forward;
    fn bottom(&self) -> Relation {
        Relation::empty(self.n)
    }
    fn boundary(&self, st: &mut Relation) {
        *st = Relation::identity(self.n);
    }
    fn apply(&self, at: At, st: &mut Relation) {
        let e = &self.effects[at.id];
        let rows = if self.diff { &e.diff_dep } else { &e.dep };
        let mut new: Vec<(ZoneId, ZoneSet)> = Vec::with_capacity(e.dep.len());
        for t in e.writes.iter() {
            let mut row = match rows.get(&t) {
                Some(srcs) => st.image(srcs),
                None => ZoneSet::new(self.n),
            };
            if !e.kills.contains(t) {
                row.union_with(st.row(t));
            }
            new.push((t, row));
        }
        for (t, row) in new {
            st.rows[t.index()] = row;
        }
    }
}

/// Upward-exposed reads: zones whose entry value may be read (backward).
/// `R⁻ = use(I) ∪ (R⁺ \ kill(I))`.
pub struct ExposedReads<'a> {
    /// Point effects.
    pub effects: &'a [Effect],
    /// Number of zones.
    pub n: usize,
}

impl Analysis for ExposedReads<'_> {
    type Domain = ZoneSet;
    const NAME: &'static str = "in";
    const DIRECTION: Direction = Direction::Backward;
    fn bottom(&self) -> ZoneSet {
        ZoneSet::new(self.n)
    }
    fn boundary(&self, _: &mut ZoneSet) {}
    fn apply(&self, at: At, st: &mut ZoneSet) {
        let e = &self.effects[at.id];
        st.subtract(&e.kills);
        st.union_with(&e.reads);
    }
}

/// Zones that may still hold their entry value (forward); the complement at the exit is the
/// set of zones every path overwrites completely.
pub struct NotKilled<'a> {
    /// Point effects.
    pub effects: &'a [Effect],
    /// Number of zones.
    pub n: usize,
}

impl Analysis for NotKilled<'_> {
    type Domain = ZoneSet;
    const NAME: &'static str = "not-killed";
    const DIRECTION: Direction = Direction::Forward;
    fn bottom(&self) -> ZoneSet {
        ZoneSet::new(self.n)
    }
    fn boundary(&self, st: &mut ZoneSet) {
        *st = ZoneSet::full(self.n);
    }
    fn apply(&self, at: At, st: &mut ZoneSet) {
        st.subtract(&self.effects[at.id].kills);
    }
}

/// Diff-liveness (backward): `DL⁻ = use(I') ∪ (Dep(I) ⊗ DL⁺)`, plus the zones read by a
/// control test that a diff-live statement depends on, and everything a kept point reads:
/// the points every mode keeps (all but sliceable assignments: calls, I/O) and the points
/// writing a live zone compute all they read (indices, the arguments of a passive call),
/// so their inputs must be computed too.
pub struct DiffLive<'a> {
    /// Point effects.
    pub effects: &'a [Effect],
    /// Number of zones.
    pub n: usize,
    /// `use(I')` per point.
    pub deriv_uses: &'a [ZoneSet],
    /// Control tests found live so far.
    pub live_tests: &'a [bool],
    /// Live at the exit.
    pub exit: &'a ZoneSet,
}

impl Analysis for DiffLive<'_> {
    type Domain = ZoneSet;
    const NAME: &'static str = "diff-live";
    const DIRECTION: Direction = Direction::Backward;
    fn bottom(&self) -> ZoneSet {
        ZoneSet::new(self.n)
    }
    fn boundary(&self, st: &mut ZoneSet) {
        st.union_with(self.exit);
    }
    fn apply(&self, at: At, st: &mut ZoneSet) {
        let e = &self.effects[at.id];
        let mut add = self.deriv_uses[at.id].clone();
        if self.live_tests[at.id] || !e.sliceable || e.writes.intersects(st) {
            // All it reads, but a zone it overwrites completely whose old value none of its
            // results depends on (an INTENT(OUT) actual argument) is no input.
            let mut overwritten = e.kills.clone();
            for srcs in e.dep.values() {
                overwritten.subtract(srcs);
            }
            let mut inputs = e.reads.clone();
            inputs.subtract(&overwritten);
            add.union_with(&inputs);
        }
        for (t, srcs) in &e.dep {
            if st.contains(*t) {
                add.union_with(srcs);
            }
        }
        st.subtract(&e.kills);
        st.union_with(&add);
        // What goes to another process may reach any dependent (MPI, issue 46).
        for &z in &e.sent {
            st.insert(z);
        }
    }
}

/// To-be-recorded (forward): `TBR⁺ = (TBR⁻ ∪ use(I') ∪ addr(I)) \ kill(I)` when I is live for
/// differentiation, `TBR⁻ ∪ use(I') ∪ addr(I)` otherwise, where `addr(I)` (the zones that
/// address the references I writes: `k` in `a(k) = 2.0`) is added when I overwrites a
/// recorded zone: the
/// backward sweep restores `a(k)` through `k`, so a later `do k = 0, n` must record or
/// recompute `k` like any value an adjoint reads.
pub struct Tbr<'a> {
    /// Point effects.
    pub effects: &'a [Effect],
    /// Number of zones.
    pub n: usize,
    /// TBR on entry (split-mode calling contexts).
    pub entry: &'a ZoneSet,
    /// `use(I')` per point.
    pub deriv_uses: &'a [ZoneSet],
    /// isLiveForDiff per point.
    pub live: &'a [bool],
}

impl Analysis for Tbr<'_> {
    type Domain = ZoneSet;
    const NAME: &'static str = "tbr";
    const DIRECTION: Direction = Direction::Forward;
    fn bottom(&self) -> ZoneSet {
        ZoneSet::new(self.n)
    }
    fn boundary(&self, st: &mut ZoneSet) {
        st.union_with(self.entry);
    }
    fn apply(&self, at: At, st: &mut ZoneSet) {
        st.union_with(&self.deriv_uses[at.id]);
        let e = &self.effects[at.id];
        // Not only where live: a split sweep and a statement that cannot be sliced run
        // (and record) whatever the slicing says.
        if e.writes.intersects(st) {
            st.union_with(&e.addr);
        }
        if self.live[at.id] {
            st.subtract(&e.kills);
        }
    }
}

/// Adjoint-out (backward): `AO⁻ = (AO⁺ ∪ out(I)) \ (TBR⁻(I) ∪ use(I'))` when I is live for
/// differentiation, `AO⁺` otherwise.
pub struct AdjointOut<'a> {
    /// Point effects.
    pub effects: &'a [Effect],
    /// Number of zones.
    pub n: usize,
    /// `use(I')` per point.
    pub deriv_uses: &'a [ZoneSet],
    /// isLiveForDiff per point.
    pub live: &'a [bool],
    /// TBR⁻ per point.
    pub tbr_before: &'a [ZoneSet],
}

impl Analysis for AdjointOut<'_> {
    type Domain = ZoneSet;
    const NAME: &'static str = "adjoint-out";
    const DIRECTION: Direction = Direction::Backward;
    fn bottom(&self) -> ZoneSet {
        ZoneSet::new(self.n)
    }
    fn boundary(&self, _: &mut ZoneSet) {}
    fn apply(&self, at: At, st: &mut ZoneSet) {
        if self.live[at.id] {
            st.union_with(&self.effects[at.id].writes);
            st.subtract(&self.tbr_before[at.id]);
            st.subtract(&self.deriv_uses[at.id]);
        }
    }
}

/// Reaching definitions of a few tracked zones (forward): for each, whether no write, exactly
/// one (which point), or several may reach a point. Used to find recomputable recorded
/// values (paper §4.9), which needs "exactly one" and nothing more.
///
/// The domain is one slot per tracked zone, not a set over every point: a set over points
/// cost O(points) per point to copy and to kill (quadratic: 5 GB of copying at 200,000
/// statements), and killing one zone removed the whole point, losing its writes of other
/// zones.
pub struct ReachingDefs<'a> {
    /// Point effects.
    pub effects: &'a [Effect],
    /// The slot of each zone (by zone index), for the tracked ones.
    pub slot: &'a [Option<u32>],
    /// Number of tracked zones.
    pub slots: usize,
}

/// The reaching writes of each tracked zone: `Reaching::NONE`, `Reaching::MANY`, or the one
/// point's number plus one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reaching(pub Vec<u32>);

impl Reaching {
    pub const NONE: u32 = 0;
    pub const MANY: u32 = u32::MAX;

    /// The one point whose write of slot `s` reaches here, if exactly one does.
    pub fn single(&self, s: u32) -> Option<usize> {
        match self.0[s as usize] {
            Self::NONE | Self::MANY => None,
            p => Some(p as usize - 1),
        }
    }
}

impl crate::solver::JoinSemiLattice for Reaching {
    fn join(&mut self, other: &Self) -> bool {
        let mut changed = false;
        for (a, &b) in self.0.iter_mut().zip(&other.0) {
            if *a == b || b == Self::NONE || *a == Self::MANY {
                continue;
            }
            *a = if *a == Self::NONE { b } else { Self::MANY };
            changed = true;
        }
        changed
    }
}

impl Analysis for ReachingDefs<'_> {
    type Domain = Reaching;
    const NAME: &'static str = "reaching-defs";
    const DIRECTION: Direction = Direction::Forward;
    fn bottom(&self) -> Reaching {
        Reaching(vec![Reaching::NONE; self.slots])
    }
    fn boundary(&self, _: &mut Reaching) {}
    fn apply(&self, at: At, st: &mut Reaching) {
        let e = &self.effects[at.id];
        for z in e.kills.iter() {
            if let Some(s) = self.slot[z.index()] {
                st.0[s as usize] = Reaching::NONE;
            }
        }
        let me = at.id as u32 + 1;
        for z in e.writes.iter() {
            if let Some(s) = self.slot[z.index()] {
                let r = &mut st.0[s as usize];
                *r = if *r == Reaching::NONE || *r == me {
                    me
                } else {
                    Reaching::MANY
                };
            }
        }
    }
}
