//! The types of the effects computation: the effect of a point, a call's argument maps, the
//! value of an expression, a reference to memory, and the evaluator's state; and the
//! evaluation of an expression and of a write as its pieces (references, calls, library
//! routines, I/O) reach them ([`Values`], implemented in `effects.rs`).

use crate::zones::{Obj, ProcZones};
use crate::zoneset::{ZoneId, ZoneMap, ZoneSet};
use crate::Env;
use radtap_flowgraph::CallSite;
use radtap_il::vocab::RoutineId;
use radtap_il::{ExprId, Program, UnitData, UnitId};
use std::collections::{BTreeMap, HashMap};

/// How an intrinsic transmits derivatives: the flow of its record in the vocabulary.
pub use radtap_il::vocab::Flow as IntrinsicClass;

/// Classification of an intrinsic by its record in the vocabulary ([`radtap_il::vocab`]).
pub fn intrinsic_class(r: RoutineId) -> IntrinsicClass {
    r.routine().flow()
}

/// The effect of one point.
#[derive(Clone, Debug, Default)]
pub struct Effect {
    /// Zones read (values, indices, conditions).
    pub reads: ZoneSet,
    /// Zones that may be written.
    pub writes: ZoneSet,
    /// Zones certainly and completely overwritten.
    pub kills: ZoneSet,
    /// For each written zone, the zones its new value depends on (besides itself when the
    /// write is partial).
    pub dep: ZoneMap,
    /// For each written differentiable zone, the zones it depends on differentiably.
    pub diff_dep: ZoneMap,
    /// For each differentiable source, the zones its partial derivative reads.
    pub partials: ZoneMap,
    /// Zones used to address the written references (needed to address their derivatives).
    pub addr: ZoneSet,
    /// Whether the point calls a procedure of the program.
    pub calls: bool,
    /// A plain assignment with nothing but its value to compute (no call to a procedure, no
    /// I/O, no C side effect inside): a tangent may leave it out when nothing needs its
    /// value. Every other point is kept, so whatever it reads must be computed.
    pub sliceable: bool,
    /// How each call at this point maps callee zones to caller zones.
    pub call_maps: Vec<CallMap>,
    /// Differentiable zones whose values go to other processes here (an MPI send, directly
    /// or in a callee): useful before the point whatever follows it.
    pub sent: Vec<ZoneId>,
    /// Differentiable zones given values from other processes here (an MPI receive):
    /// varied after the point whatever preceded it.
    pub received: Vec<ZoneId>,
}

/// The correspondence between a callee's interface zones and the caller's zones at one call.
#[derive(Clone, Debug)]
pub struct CallMap {
    /// The callee.
    pub callee: UnitId,
    /// Caller zones the entry value of each callee zone comes from.
    pub src: Vec<Option<ZoneSet>>,
    /// Caller zones written when the callee writes each zone.
    pub tgt: Vec<Option<Vec<ZoneId>>>,
    /// A function reference inside an expression (its result is a value).
    pub in_expr: bool,
}

/// The value of an expression: what it reads, and its differentiable sources with the zones
/// their partial derivatives read.
#[derive(Clone, Debug, Default)]
pub(crate) struct Val {
    pub(crate) reads: ZoneSet,
    pub(crate) diff: BTreeMap<ZoneId, ZoneSet>,
}

impl Val {
    pub(crate) fn union(mut self, o: Val) -> Val {
        self.reads.union_with(&o.reads);
        for (k, v) in o.diff {
            self.diff.entry(k).or_default().union_with(&v);
        }
        self
    }
    /// Every partial derivative also reads `extra`.
    pub(crate) fn with_uses(mut self, extra: &ZoneSet) -> Val {
        for v in self.diff.values_mut() {
            v.union_with(extra);
        }
        self
    }
    pub(crate) fn nondiff(mut self) -> Val {
        self.diff.clear();
        self
    }
}

/// A reference to memory: objects (zone ranges), whether it covers them completely, and the
/// zones read to compute the address.
#[derive(Clone, Debug)]
pub(crate) struct Ref {
    pub(crate) objs: Vec<Obj>,
    pub(crate) total: bool,
    pub(crate) addr: ZoneSet,
}

pub(crate) struct Eval<'a> {
    pub(crate) env: &'a Env<'a>,
    pub(crate) prog: &'a Program,
    pub(crate) unit: UnitId,
    pub(crate) u: &'a UnitData,
    pub(crate) pz: &'a ProcZones,
    pub(crate) by_expr: &'a HashMap<radtap_il::ExprId, &'a CallSite>,
    pub(crate) eff: Effect,
    pub(crate) masked: bool,
    pub(crate) in_expr: bool,
}

impl Eval<'_> {
    pub(crate) fn empty(&self) -> ZoneSet {
        self.pz.empty()
    }
}

/// The evaluation of an expression and of a write, as the rules for references, calls,
/// library routines and I/O reach them for their operands: `effects.rs` implements it, so
/// those rules depend on this interface, not on the evaluator's dispatch.
pub(crate) trait Values {
    /// The value of expression `e`.
    fn value(&mut self, e: ExprId) -> Val;
    /// Records the write of `v` to `r`.
    fn write(&mut self, r: &Ref, v: &Val);
}
