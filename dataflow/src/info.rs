//! What the analyses answer, and what they are asked: the requests (head, independents,
//! dependents, [`Mode`]), the per-procedure facts ([`ProcInfo`]: zones, effects, summary,
//! activity and the adjoint's liveness, TBR and recomputation sets, per dense point), the
//! per-head facts ([`HeadInfo`]) and the program's ([`ProgramInfo`]); the interprocedural
//! [`Summary`] of a procedure seen from a caller, and the read-only [`Env`] effects are
//! computed in.

use crate::effects;
use crate::effects::*;
use crate::zones::{self, Globals, ObjKey, ProcZones};
use crate::zoneset::{Relation, ZoneId, ZoneSet};
use radtap_flowgraph::{CallGraph, FlowGraph, Point};
use radtap_il::{Program, UnitId};
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

/// What a procedure does to its interface zones, seen from a caller.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    /// Zones whose entry value may be read.
    pub reads: ZoneSet,
    /// Zones that may be written.
    pub writes: ZoneSet,
    /// Zones overwritten completely on every path.
    pub kills: ZoneSet,
    /// Exit value of each zone ← entry values it may depend on.
    pub dep: Relation,
    /// The same, differentiable dependencies only.
    pub diff_dep: Relation,
    /// Zones whose values may go to other processes (MPI sends, issue 46).
    pub sent: ZoneSet,
    /// Zones that may be given values from other processes (MPI receives).
    pub received: ZoneSet,
}

impl Summary {
    pub(crate) fn empty(n: usize) -> Self {
        Summary {
            reads: ZoneSet::new(n),
            writes: ZoneSet::new(n),
            kills: ZoneSet::new(n),
            dep: Relation::empty(n),
            diff_dep: Relation::empty(n),
            sent: ZoneSet::new(n),
            received: ZoneSet::new(n),
        }
    }
}

/// Interface zones of a procedure: what a caller can see.
pub(crate) fn interface(pz: &ProcZones) -> ZoneSet {
    let mut s = pz.empty();
    for (k, o) in &pz.objects {
        let keep = match k {
            ObjKey::Sym(sym) => {
                pz.params.contains(sym) || pz.result == Some(*sym) || o.start >= pz.global_base
            }
            ObjKey::Pointee(sym) => pz.params.contains(sym) || o.start >= pz.global_base,
            ObjKey::Heap(..) => false,
        };
        if keep {
            s.union_with(&pz.obj_set(o));
        }
    }
    s
}

/// In-out status of a zone for a procedure (the paper's four booleans, collapsed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InOut {
    /// Read and possibly overwritten.
    InOut,
    /// Read, never overwritten.
    In,
    /// Overwritten before any read.
    Out,
    /// Neither read nor written.
    Unused,
}

/// Shared, read-only context for computing effects.
pub(crate) struct Env<'a> {
    pub(crate) prog: &'a Program,
    pub(crate) zones: &'a HashMap<UnitId, ProcZones>,
    pub(crate) summaries: &'a HashMap<UnitId, Summary>,
    pub(crate) layouts: &'a RefCell<zones::Layouts>,
    /// Functions whose calls have no effect besides their result
    /// ([`purity::side_effect_free`]), known so far bottom-up.
    pub(crate) free: &'a HashSet<UnitId>,
}

/// Which derivative code the analyses prepare.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Tangent: the primal results must still be computed, so they are live at the exit.
    Tangent,
    /// Adjoint: only derivatives matter at the exit of the forward sweep (paper §4.9).
    Adjoint,
}

/// A differentiation request: the head and its independent and dependent variables.
#[derive(Clone, Debug)]
pub struct Request {
    /// The head procedure.
    pub head: UnitId,
    /// Independent variables by name (`x`, `s%f`); empty for the default (all real inputs).
    pub vars: Vec<String>,
    /// Dependent variables by name; empty for the default (all real outputs).
    pub outvars: Vec<String>,
    /// Keep every listed variable even when it is inactive.
    pub fixinterface: bool,
}

/// Activity and the AD-specific analyses of one procedure, per point.
#[derive(Clone, Debug)]
pub struct ActivityInfo {
    /// Varied zones at entry (the envelope of the calling contexts).
    pub varied_in: ZoneSet,
    /// Useful zones at exit.
    pub useful_out: ZoneSet,
    /// Active before / after each point.
    pub active_before: Vec<ZoneSet>,
    /// Active after each point.
    pub active_after: Vec<ZoneSet>,
    /// Varied before each point.
    pub varied_before: Vec<ZoneSet>,
    /// Useful after each point.
    pub useful_after: Vec<ZoneSet>,
    /// `use(I')`: zones the derivative instruction of each point reads.
    pub deriv_uses: Vec<ZoneSet>,
    /// Whether each point has a derivative instruction.
    pub has_derivative: Vec<bool>,
    /// Zones each call point overwrites with values that depend on no independent while
    /// their derivatives are read later (`fill(y, n, 0.0)` before a loop accumulating into
    /// `y`): the call resets their derivatives to zero, through its callee's derivative,
    /// whose context takes them as varied at entry (the callee does not read them).
    /// Tangent mode only.
    pub resets: Vec<ZoneSet>,
    /// Diff-live before each point.
    pub difflive_before: Vec<ZoneSet>,
    /// Diff-live after each point.
    pub difflive_after: Vec<ZoneSet>,
    /// isLiveForDiff: the point's primal computation is needed for derivatives.
    pub live: Vec<bool>,
    /// TBR on entry: what the backward sweeps of split-mode callers read of the values this
    /// procedure overwrites (empty for a procedure always checkpointed; [`split_contexts`]).
    pub tbr_in: ZoneSet,
    /// TBR before each point.
    pub tbr_before: Vec<ZoneSet>,
    /// Zones to record before the point overwrites them.
    pub save: Vec<ZoneSet>,
    /// Recorded zones whose value can be recomputed instead (cheap, inputs unchanged).
    pub recompute: Vec<ZoneSet>,
    /// Adjoint-out after each point.
    pub adjout_after: Vec<ZoneSet>,
    /// Adjoint-out before each point.
    pub adjout_before: Vec<ZoneSet>,
}

/// Everything known about one procedure.
pub struct ProcInfo {
    /// Its flow graph.
    pub graph: FlowGraph,
    /// Its zones.
    pub zones: ProcZones,
    /// Effects per point (dense numbering).
    pub effects: Vec<Effect>,
    /// Points by dense number.
    pub point: Vec<Point>,
    /// Dense number of each block's first point.
    pub first_point: Vec<usize>,
    /// Its summary.
    pub summary: Summary,
    /// Activity and friends, for procedures reached from a head.
    pub activity: Option<ActivityInfo>,
}

impl ProcInfo {
    /// Dense number of a point.
    pub fn point_id(&self, p: Point) -> Option<usize> {
        let (b, i) = self.graph.location.get(&p)?;
        Some(self.first_point[b.index()] + *i as usize)
    }
    /// In-out status of each zone.
    pub fn in_out(&self, z: ZoneId) -> InOut {
        match (
            self.summary.reads.contains(z),
            self.summary.writes.contains(z),
        ) {
            (true, true) => InOut::InOut,
            (true, false) => InOut::In,
            (false, true) => InOut::Out,
            (false, false) => InOut::Unused,
        }
    }
}

/// The independent and dependent zones of a head, as resolved.
#[derive(Clone, Debug)]
pub struct HeadInfo {
    /// The head.
    pub head: UnitId,
    /// Independent zones (head zone space), with the name each came from.
    pub independents: Vec<(String, ZoneSet)>,
    /// Dependent zones.
    pub dependents: Vec<(String, ZoneSet)>,
    /// `-fixinterface`: every listed variable keeps its derivative argument, active or not.
    pub fixinterface: bool,
    /// Zones active on the head's boundary: the independents that influence some dependent
    /// (active on entry) and the dependents that depend on some independent (active on
    /// exit). Tapenade 3.16 gives a scalar argument a derivative argument only there; an
    /// array or pointer argument keeps its own whenever it is active inside the head.
    pub boundary_active: ZoneSet,
    /// The independents were not named (`-head f` or `-head "f(y)"`, no `-vars`): as in
    /// Tapenade, every dependent argument then keeps its derivative argument, zero when
    /// nothing varies it (RW status `zero`).
    pub default_independents: bool,
}

/// Results of the analyses on a whole program.
pub struct ProgramInfo {
    /// The call graph.
    pub callgraph: CallGraph,
    /// Global zones.
    pub globals: Globals,
    /// Per procedure.
    pub procs: HashMap<UnitId, ProcInfo>,
    /// Per head.
    pub heads: Vec<HeadInfo>,
    /// The mode the analyses were run for.
    pub mode: Mode,
    /// Solver block visits in total (for benchmarks).
    pub visits: usize,
    /// Record layouts, kept to resolve references after the analyses.
    pub(crate) layouts: RefCell<zones::Layouts>,
}

impl ProgramInfo {
    /// Where component `field` lies in a record of type `td`: its first zone relative to the
    /// record's first, its number of zones, and its own record type.
    pub fn field_range(
        &self,
        prog: &Program,
        td: radtap_il::TypeDefId,
        field: &str,
    ) -> Option<(u32, u32, Option<radtap_il::TypeDefId>)> {
        self.layouts.borrow_mut().field(prog, td, field)
    }

    /// The zones of procedure `unit` that the reference `e` (a name, element, section, field or
    /// dereference) may touch; `None` when `e` is not a reference to memory.
    pub fn ref_zones(&self, prog: &Program, unit: UnitId, e: radtap_il::ExprId) -> Option<ZoneSet> {
        let info = self.procs.get(&unit)?;
        let (zones, summaries, free) = (HashMap::new(), HashMap::new(), HashSet::new());
        let env = Env {
            prog,
            zones: &zones,
            summaries: &summaries,
            layouts: &self.layouts,
            free: &free,
        };
        effects::reference_zones(&env, unit, &info.zones, e)
    }
}
