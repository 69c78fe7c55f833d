//! # radtap-dataflow: zones and the data-flow analyses, on one solver
//!
//! Memory is cut into *zones* ([`zones`]); every fact is a [`ZoneSet`] (a bitset) or a
//! [`Relation`] between zones. Each point of a flow graph has an [`Effect`] (what it reads,
//! writes, kills, and how written values depend on read ones); every analysis is one small
//! [`Analysis`] over those effects, solved by the one worklist engine [`solve`]:
//!
//! - interprocedural summaries ([`Summary`]: upward-exposed reads, writes, kills,
//!   dependency and diff-dependency relations), bottom-up over call-graph SCCs, iterating
//!   recursive SCCs to a fixpoint;
//! - activity = varied ∩ useful, top-down from the heads: each call contributes a calling
//!   context to its callee, and each procedure is analysed once with the union (envelope) of
//!   its contexts, so it gets one differentiated version;
//! - diff-liveness (with control: a test that a live statement depends on is live and its
//!   reads are diff-live), TBR, adjoint-out, and recomputable recorded values.
//!
//! Invariants: the IL is never changed; facts live in side tables indexed by dense point
//! numbers ([`ProcInfo::point`]); output (dumps) is ordered by source order and zone order,
//! never by hash order.

mod activity;
mod analyze;
mod dump;
mod effects;
mod exposed;
mod heads;
mod impls;
mod info;
mod opaque;
mod pointsto;
mod purity;
pub mod rotation;
mod solver;
pub mod zones;
mod zoneset;

use activity::adjoint_analyses;
pub use analyze::analyze;
pub use dump::dump;
pub use effects::{intrinsic_class, CallMap, Effect, IntrinsicClass};
pub use impls::*;
pub(crate) use info::Env;
pub use info::{ActivityInfo, HeadInfo, InOut, Mode, ProcInfo, ProgramInfo, Request, Summary};
pub use solver::{first_point_ids, solve, Analysis, At, Direction, JoinSemiLattice, Results};
pub use zones::{Globals, ObjKey, ProcZones, ZoneInfo};
pub use zoneset::{Relation, ZoneId, ZoneMap, ZoneSet};

use radtap_il::{Program, UnitId};
use std::collections::{HashMap, HashSet};

/// The functions of `prog` without side effects ([`purity::side_effect_free`]: no write but
/// their private locals and result, no I/O, calling only such functions and pure intrinsics),
/// for the rewrites before the analyses (`radtap_il::invariant`).
pub fn pure_functions(prog: &Program) -> HashSet<UnitId> {
    let callgraph = radtap_flowgraph::CallGraph::build(prog);
    let mut free: HashSet<UnitId> = HashSet::new();
    for scc in &callgraph.sccs {
        let recursive = scc.len() > 1 || callgraph.is_recursive(scc[0]);
        if !recursive && purity::side_effect_free(prog, scc[0], callgraph.sites_of(scc[0]), &free) {
            free.insert(scc[0]);
        }
    }
    free
}

/// Calling contexts of TBR for procedures whose forward sweep runs apart from their backward
/// sweep (`$AD NOCHECKPOINT` on the call or the procedure, `-nocheckpoint` for every call
/// when `split_all`): a caller's backward sweep may read a value such a callee overwrites
/// (column `j` of a module array that `col(j)` rewrites, read by the adjoint of the previous
/// column's call). The callee records it where it overwrites it, element by element, as
/// Tapenade's interprocedural TBR does, and the caller need not snapshot the whole array
/// before the call (`restored_by_callee` in the adjoint): each such callee's TBR starts from
/// the union over its split call sites of the caller's TBR before the call, mapped through
/// the call. Iterated to a fixpoint (a split callee's context grows its own callees'). Heads
/// and function references inside expressions are never split. Returns the visits.
pub fn split_contexts(prog: &Program, info: &mut ProgramInfo, split_all: bool) -> usize {
    let nockp = |d: &[radtap_il::Directive]| {
        d.iter()
            .any(|d| d.kind == radtap_il::DirectiveKind::Nocheckpoint)
    };
    let heads: HashSet<UnitId> = info.heads.iter().map(|h| h.head).collect();
    let mut visits = 0;
    for _round in 0..50 {
        let mut grown: HashMap<UnitId, ZoneSet> = HashMap::new();
        for (&p, pi) in &info.procs {
            let Some(act) = &pi.activity else {
                continue;
            };
            let unit = &prog.units[p];
            for (id, e) in pi.effects.iter().enumerate() {
                if e.call_maps.is_empty() {
                    continue;
                }
                let site_split = split_all || nockp(&unit.stmts[pi.point[id].stmt].directives);
                for m in &e.call_maps {
                    let c = m.callee;
                    // A described routine is always checkpointed: its `NAME_b` is one
                    // routine, with no `_fwd`/`_bwd` halves.
                    if m.in_expr
                        || heads.contains(&c)
                        || prog.described.contains_key(&c)
                        || !(site_split || nockp(&prog.units[c].directives))
                    {
                        continue;
                    }
                    let Some(cinfo) = info.procs.get(&c).filter(|ci| ci.activity.is_some()) else {
                        continue;
                    };
                    let tbr = &act.tbr_before[id];
                    let ctx = grown.entry(c).or_insert_with(|| cinfo.zones.empty());
                    for (z, t) in m.tgt.iter().enumerate() {
                        if t.as_ref()
                            .is_some_and(|t| t.iter().any(|x| tbr.contains(*x)))
                        {
                            ctx.insert(ZoneId(z as u32));
                        }
                    }
                }
            }
        }
        let mut changed = false;
        for (c, ctx) in grown {
            let ci = info.procs.get_mut(&c).expect("procedure");
            let act = ci.activity.as_mut().expect("activity computed");
            if act.tbr_in.union_with(&ctx) {
                changed = true;
                visits += adjoint_analyses(ci, info.mode);
            }
        }
        if !changed {
            break;
        }
    }
    info.visits += visits;
    visits
}
