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

mod dump;
mod effects;
mod exposed;
mod impls;
mod opaque;
mod pointsto;
mod purity;
pub mod rotation;
mod solver;
pub mod zones;
mod zoneset;

pub use dump::dump;
pub use effects::{intrinsic_class, CallMap, Effect, IntrinsicClass};
pub use impls::*;
pub use solver::{first_point_ids, solve, Analysis, At, Direction, JoinSemiLattice, Results};
pub use zones::{Globals, ObjKey, ProcZones, ZoneInfo};
pub use zoneset::{Relation, ZoneId, ZoneMap, ZoneSet};

use radtap_flowgraph::{CallGraph, Callee, FlowGraph, Point};
use radtap_il::{Code, Decl, Diagnostic, Expr, Program, SymbolId, UnitId};
use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap, HashSet};

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
    fn empty(n: usize) -> Self {
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
    layouts: RefCell<zones::Layouts>,
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

/// Runs every analysis for `requests` (several heads allowed). Returns the facts and the
/// warnings about independents and dependents (code AD060).
pub fn analyze(prog: &Program, requests: &[Request], mode: Mode) -> (ProgramInfo, Vec<Diagnostic>) {
    let callgraph = CallGraph::build(prog);
    let procs = CallGraph::procedures(prog);
    let layouts = RefCell::new(zones::Layouts::default());
    let globals = Globals::build(prog, &mut layouts.borrow_mut(), &procs);
    let mut visits = 0;

    // Global zones each procedure uses, bottom-up; a call to an unknown routine uses every
    // global it may reach.
    let unknown_reach = globals.reachable_by_unknown(prog);
    let mut used: HashMap<UnitId, BTreeSet<u32>> = HashMap::new();
    for scc in &callgraph.sccs {
        let mut set = BTreeSet::new();
        for &p in scc {
            direct_globals(prog, &globals, p, &mut set);
            for site in callgraph.sites_of(p) {
                match &site.callee {
                    Callee::Defined(cs) => {
                        for c in cs {
                            if let Some(s) = used.get(c) {
                                set.extend(s.iter().copied());
                            }
                        }
                    }
                    Callee::External(_) => set.extend(unknown_reach.iter().copied()),
                    Callee::Intrinsic(_) => {}
                }
            }
        }
        for &p in scc {
            used.insert(p, set.clone());
        }
    }
    let mut zones_map: HashMap<UnitId, ProcZones> = HashMap::new();
    for &p in &procs {
        let mut z =
            zones::build_proc_zones(prog, &mut layouts.borrow_mut(), &globals, p, &used[&p]);
        let mut reach = z.empty();
        let calls_unknown = callgraph
            .sites_of(p)
            .iter()
            .any(|s| matches!(s.callee, Callee::External(_)));
        if calls_unknown {
            for &gz in &unknown_reach {
                if let Some(l) = z.local_of_global(gz) {
                    reach.insert(l);
                }
            }
        }
        z.unknown_reach = reach;
        pointsto::compute(prog, p, &mut z);
        zones_map.insert(p, z);
    }
    let mut graphs: HashMap<UnitId, FlowGraph> = procs
        .iter()
        .map(|&p| (p, FlowGraph::build(prog, p)))
        .collect();

    // Summaries bottom-up; recursive SCCs iterate to a fixpoint.
    let mut summaries: HashMap<UnitId, Summary> = HashMap::new();
    let mut effects: HashMap<UnitId, Vec<Effect>> = HashMap::new();
    let mut free: HashSet<UnitId> = HashSet::new();
    for scc in &callgraph.sccs {
        let recursive = scc.len() > 1 || callgraph.is_recursive(scc[0]);
        if !recursive && purity::side_effect_free(prog, scc[0], callgraph.sites_of(scc[0]), &free) {
            free.insert(scc[0]);
        }
        for &p in scc {
            summaries.insert(p, Summary::empty(zones_map[&p].len()));
        }
        // Fixed by the declarations: computed once, not at every round.
        let decl_reads: HashMap<UnitId, ZoneSet> = scc
            .iter()
            .map(|&p| (p, declaration_reads(prog, p, &zones_map[&p])))
            .collect();
        for _round in 0..50 {
            let mut changed = false;
            for &p in scc {
                let env = Env {
                    prog,
                    zones: &zones_map,
                    summaries: &summaries,
                    layouts: &layouts,
                    free: &free,
                };
                let mut effs = effects::point_effects(
                    &env,
                    &graphs[&p],
                    &zones_map[&p],
                    callgraph.sites_of(p),
                );
                messages(prog, p, &zones_map[&p], &mut effs);
                let (mut s, v) = summarize(&graphs[&p], &zones_map[&p], &effs);
                s.reads.union_with(&decl_reads[&p]);
                visits += v;
                if summaries.get(&p) != Some(&s) {
                    changed = true;
                    summaries.insert(p, s);
                }
                effects.insert(p, effs);
            }
            if !recursive || !changed {
                break;
            }
        }
    }

    let mut infos: HashMap<UnitId, ProcInfo> = HashMap::new();
    for &p in &procs {
        let g = graphs.remove(&p).expect("graph of every procedure");
        let first_point = first_point_ids(&g);
        let point = g
            .blocks
            .iter()
            .flat_map(|b| b.points.iter().copied())
            .collect();
        infos.insert(
            p,
            ProcInfo {
                graph: g,
                zones: zones_map.remove(&p).expect("zones of every procedure"),
                effects: effects.remove(&p).unwrap_or_default(),
                point,
                first_point,
                summary: summaries.remove(&p).expect("summary of every procedure"),
                activity: None,
            },
        );
    }

    let mut diags = Vec::new();
    let mut heads = Vec::new();
    for r in requests {
        let Some(info) = infos.get(&r.head) else {
            continue;
        };
        let h = resolve_head(prog, info, r, &mut diags);
        heads.push(h);
    }
    visits += activity(&mut infos, &heads, mode);
    (
        ProgramInfo {
            callgraph,
            globals,
            procs: infos,
            heads,
            mode,
            visits,
            layouts,
        },
        diags,
    )
}

/// Global zones a procedure references directly.
fn direct_globals(prog: &Program, g: &Globals, p: UnitId, out: &mut BTreeSet<u32>) {
    let u = &prog.units[p];
    let mut add = |k: ObjKey| {
        if let Some(o) = g.objects.get(&k) {
            out.extend(o.start..o.start + o.len);
        }
    };
    for (_, e) in u.exprs.iter() {
        if let radtap_il::Expr::Name(s) = e {
            add(ObjKey::Sym(*s));
            add(ObjKey::Pointee(*s));
        }
    }
    // Names in I/O control lists, kept as text (`write (fname, '(a)')`, `iostat=ios`).
    for (_, st) in u.stmts.iter() {
        if let radtap_il::StmtKind::Io { control, .. } = &st.kind {
            for name in effects::io::control_names(control) {
                if let Some(s) = prog.lookup(u.scope, &name) {
                    add(ObjKey::Sym(s));
                }
            }
        }
    }
    for d in &u.decls {
        if let radtap_il::Decl::Common(list) = d {
            for (_, ents) in list {
                for e in ents {
                    add(ObjKey::Sym(e.sym));
                }
            }
        }
    }
}

/// Interface zones of a procedure: what a caller can see.
fn interface(pz: &ProcZones) -> ZoneSet {
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

/// The interface zones the unit's declarations read on entry: the variables in the bounds
/// and lengths of its arrays and strings (`A(LDA,*)`, automatic `e(k)`, `e(d%n)`). Indexing
/// `A(J,J)` reads `LDA` though no statement names it: without it in the summary, the
/// caller's `LDA = 10` looked dead and was sliced away (a silently wrong derivative).
fn declaration_reads(prog: &Program, unit: UnitId, pz: &ProcZones) -> ZoneSet {
    let u = &prog.units[unit];
    let mut out = pz.empty();
    let mut todo = Vec::new();
    for d in &u.decls {
        if matches!(d, Decl::Var(_) | Decl::Attr(_) | Decl::Common(_)) {
            radtap_il::visit::decl_exprs(d, &mut |e| todo.push(e));
        }
    }
    while let Some(e) = todo.pop() {
        if let Expr::Name(x) = u.exprs[e] {
            // Bounds and lengths are integers, or fields of records (`e(d%n)`); a kind name
            // (`real(wp) function f`, which the frontend may make a variable of `f`) or a
            // named constant is no value a caller sets.
            let bound = prog.symbols[x].ty.as_ref().is_some_and(|t| {
                matches!(
                    t.base,
                    radtap_il::BaseClass::Integer | radtap_il::BaseClass::Record(_)
                )
            });
            if let Some(o) = pz
                .objects
                .get(&ObjKey::Sym(x))
                .filter(|_| bound && !zones::named_constant(prog, x))
            {
                out.union_with(&pz.obj_set(o));
            }
        }
        radtap_il::visit::expr_children(&u.exprs[e], &mut |c| todo.push(c));
    }
    out.intersect_with(&interface(pz));
    out
}

/// A described routine's message buffers (MPI's `Sent:` / `Received:`, issue 46): each point
/// of its stand-in that reads a sent buffer sends it, each that writes a received buffer
/// receives it (the summary then carries them to the callers).
fn messages(prog: &Program, p: UnitId, pz: &ProcZones, effs: &mut [Effect]) {
    let Some(d) = prog.described.get(&p) else {
        return;
    };
    let mut sent = pz.empty();
    let mut received = pz.empty();
    for (i, &sym) in pz.params.iter().enumerate() {
        let Some(f) = d.param(i).filter(|f| f.sent || f.received) else {
            continue;
        };
        let obj = pz
            .objects
            .get(&ObjKey::Pointee(sym))
            .or_else(|| pz.objects.get(&ObjKey::Sym(sym)));
        if let Some(o) = obj {
            let mut z = pz.obj_set(o);
            z.intersect_with(&pz.differentiable);
            if f.sent {
                sent.union_with(&z);
            }
            if f.received {
                received.union_with(&z);
            }
        }
    }
    for e in effs {
        for z in e.reads.iter().filter(|&z| sent.contains(z)) {
            e.sent.push(z);
        }
        for z in e.writes.iter().filter(|&z| received.contains(z)) {
            e.received.push(z);
        }
    }
}

fn summarize(g: &FlowGraph, pz: &ProcZones, effs: &[Effect]) -> (Summary, usize) {
    let n = pz.len();
    let iface = interface(pz);
    let mut visits = 0;
    let er = ExposedReads { effects: effs, n };
    let r = solve(&er, g);
    visits += r.visits;
    let mut reads = r.at_end(&er, g);
    reads.intersect_with(&iface);
    let mut writes = pz.empty();
    for e in effs {
        writes.union_with(&e.writes);
    }
    writes.intersect_with(&iface);
    let nk = NotKilled { effects: effs, n };
    let r = solve(&nk, g);
    visits += r.visits;
    let not_killed = r.at_end(&nk, g);
    let mut kills = iface.clone();
    kills.subtract(&not_killed);
    kills.intersect_with(&writes);
    let mut rel = |diff| {
        let a = DepRelation {
            effects: effs,
            n,
            diff,
        };
        let r = solve(&a, g);
        visits += r.visits;
        let mut m = r.at_end(&a, g);
        for (i, row) in m.rows.iter_mut().enumerate() {
            if !iface.contains(ZoneId(i as u32)) {
                *row = ZoneSet::new(n);
            } else {
                row.intersect_with(&iface);
            }
        }
        m
    };
    let dep = rel(false);
    let diff_dep = rel(true);
    let mut sent = pz.empty();
    let mut received = pz.empty();
    for e in effs {
        e.sent.iter().for_each(|&z| sent.insert(z));
        e.received.iter().for_each(|&z| received.insert(z));
    }
    sent.intersect_with(&iface);
    received.intersect_with(&iface);
    (
        Summary {
            reads,
            writes,
            kills,
            dep,
            diff_dep,
            sent,
            received,
        },
        visits,
    )
}

/// Zones named by `name` (`x`, `s%f`, `p->x`) in the head's zone space.
fn zones_of_name(prog: &Program, info: &ProcInfo, head: UnitId, name: &str) -> Option<ZoneSet> {
    let u = &prog.units[head];
    let lang = u.lang;
    let base = name.split(['(', '%', '.', '[', '-']).next().unwrap_or(name);
    let key = if lang == radtap_il::Lang::Fortran {
        base.to_ascii_lowercase()
    } else {
        base.to_string()
    };
    let sym: SymbolId = prog.lookup(u.scope, &key).or_else(|| {
        // A function's name stands for its result.
        u.result
            .filter(|r| prog.name(*r).eq_ignore_ascii_case(base))
    })?;
    let sym = if prog.symbols[sym].kind == radtap_il::SymbolKind::Procedure {
        u.result?
    } else {
        sym
    };
    let pz = &info.zones;
    let key = if zones::is_pointer(prog, sym) && pz.objects.contains_key(&ObjKey::Pointee(sym)) {
        ObjKey::Pointee(sym)
    } else {
        ObjKey::Sym(sym)
    };
    let o = pz.objects.get(&key)?;
    // A field path selects the zones whose printed name starts with it.
    let mut set = pz.obj_set(o);
    if name.len() > base.len() && name.contains(['%', '.']) {
        let want = name.replace(' ', "").to_ascii_lowercase();
        let narrowed: ZoneSet = set
            .iter()
            .filter(|z| {
                let zn = pz.zones[z.index()].name.to_ascii_lowercase();
                zn == want
                    || zn.starts_with(&format!("{want}%"))
                    || zn.starts_with(&format!("{want}."))
            })
            .collect();
        if !narrowed.is_empty() {
            set = narrowed;
        }
    }
    Some(set)
}

fn resolve_head(
    prog: &Program,
    info: &ProcInfo,
    r: &Request,
    diags: &mut Vec<Diagnostic>,
) -> HeadInfo {
    let pz = &info.zones;
    let iface = interface(pz);
    let pick = |names: &[String], default: &ZoneSet| -> Vec<(String, ZoneSet)> {
        if names.is_empty() {
            default
                .iter()
                .map(|z| {
                    let mut s = pz.empty();
                    s.insert(z);
                    (pz.zones[z.index()].name.clone(), s)
                })
                .collect()
        } else {
            // Only zones of a differentiable type can be independent or dependent.
            names
                .iter()
                .filter_map(|n| {
                    zones_of_name(prog, info, r.head, n)
                        .map(|s| (n.clone(), s.and(&pz.differentiable)))
                })
                .collect()
        }
    };
    let mut dflt_in = info.summary.reads.and(&pz.differentiable);
    dflt_in.intersect_with(&iface);
    // An INTENT(OUT) argument is undefined on entry: never an independent by default.
    for p in &pz.params {
        if prog.symbols[*p].attrs.intent == Some(radtap_il::Intent::Out) {
            if let Some(o) = pz.objects.get(&ObjKey::Sym(*p)) {
                dflt_in.subtract(&pz.obj_set(o));
            }
        }
    }
    // A C `const` global is a constant of the program: an independent only when named.
    for (k, o) in &pz.objects {
        if let ObjKey::Sym(sym) = k {
            if o.start >= pz.global_base && prog.symbols[*sym].attrs.constant {
                dflt_in.subtract(&pz.obj_set(o));
            }
        }
    }
    let mut dflt_out = info.summary.writes.and(&pz.differentiable);
    dflt_out.intersect_with(&iface);
    if prog.units[r.head].lang == radtap_il::Lang::C {
        // A C argument passed by value is a copy: writing it is invisible to the caller.
        for p in &pz.params {
            let by_value = prog.symbols[*p]
                .ty
                .as_ref()
                .is_none_or(|t| t.pointers == 0 && t.dims.is_empty());
            if let (true, Some(o)) = (by_value, pz.objects.get(&ObjKey::Sym(*p))) {
                dflt_out.subtract(&pz.obj_set(o));
            }
        }
    }
    // A procedure's SAVE local (CloverLeaf's `real(8) :: one_by_six = 1.0_8/6.0_8`, a C
    // `static` local) is out of the caller's reach: no default independent or dependent
    // (`radtap validate` refused the head: "neither an argument nor a global").
    for (k, o) in &pz.objects {
        if let ObjKey::Sym(sym) = k {
            let sd = &prog.symbols[*sym];
            let local = !sd.attrs.dummy
                && sd.common.is_none()
                && zones::unit_of_scope(prog, sd.scope).is_some_and(|u| {
                    matches!(
                        prog.units[u].kind,
                        radtap_il::UnitKind::Subroutine | radtap_il::UnitKind::Function
                    )
                });
            if o.start >= pz.global_base && local {
                dflt_in.subtract(&pz.obj_set(o));
                dflt_out.subtract(&pz.obj_set(o));
            }
        }
    }
    let named: Vec<String> = r.vars.iter().chain(&r.outvars).cloned().collect();
    diags.extend(opaque::refusals(prog, r.head, &named));
    let independents = pick(&r.vars, &dflt_in);
    let dependents = pick(&r.outvars, &dflt_out);
    let head_name = prog.units[r.head]
        .name
        .map(|n| prog.name(n).to_string())
        .unwrap_or_default();
    let dd = &info.summary.diff_dep;
    let default_independents = r.vars.is_empty();
    let mut boundary_active = pz.empty();
    for (n, zs) in &independents {
        for z in zs.iter() {
            if dependents
                .iter()
                .any(|(_, ds)| ds.iter().any(|t| dd.row(t).contains(z)))
            {
                boundary_active.insert(z);
            }
        }
        if !zs.intersects(&boundary_active) {
            let keep = if r.fixinterface {
                "kept because of -fixinterface"
            } else if array_like(prog, r.head, n) {
                ARRAY_KEPT
            } else {
                "it gets no derivative argument"
            };
            diags.push(warning(format!(
                "independent `{n}` of `{head_name}` has no differentiable influence on any dependent; {keep}"
            )));
        }
    }
    for (n, ds) in &dependents {
        let mut depends = false;
        for t in ds.iter() {
            if independents.iter().any(|(_, zs)| dd.row(t).intersects(zs)) {
                boundary_active.insert(t);
                depends = true;
            }
        }
        if !depends {
            let keep = if r.fixinterface {
                "kept because of -fixinterface"
            } else if default_independents {
                "its derivative argument is kept and set to zero, as Tapenade does when the independents are not named"
            } else if array_like(prog, r.head, n) {
                ARRAY_KEPT
            } else {
                "it gets no derivative argument"
            };
            diags.push(warning(format!(
                "dependent `{n}` of `{head_name}` does not depend differentiably on any independent; {keep}"
            )));
        }
    }
    HeadInfo {
        head: r.head,
        independents,
        dependents,
        fixinterface: r.fixinterface,
        boundary_active,
        default_independents,
    }
}

/// What AD060 says of an array or pointer argument that is not active on the head's boundary.
const ARRAY_KEPT: &str =
    "it keeps a derivative argument only if it is active inside, as scratch (Tapenade's `(loc)`)";

/// Whether `name` (as `-vars`/`-outvars` give it) is an array or pointer of `head`: such an
/// argument keeps its derivative argument when it is active inside the head.
fn array_like(prog: &Program, head: UnitId, name: &str) -> bool {
    let base = name
        .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
        .find(|w| !w.is_empty())
        .unwrap_or(name);
    let u = &prog.units[head];
    prog.lookup(u.scope, base).is_some_and(|s| {
        let sd = &prog.symbols[s];
        sd.attrs.pointer
            || sd.attrs.allocatable
            || sd
                .ty
                .as_ref()
                .is_some_and(|t| t.pointers > 0 || !t.dims.is_empty())
    })
}

fn warning(msg: String) -> Diagnostic {
    let mut d = Diagnostic::global(Code::NoInfluence, msg);
    d.severity = radtap_il::Severity::Warning;
    d
}

/// Activity top-down from the heads with calling-context envelopes, then diff-liveness, TBR
/// and adjoint-out per reached procedure.
fn activity(infos: &mut HashMap<UnitId, ProcInfo>, heads: &[HeadInfo], mode: Mode) -> usize {
    let mut visits = 0;
    // Contexts: (varied at entry, useful at exit).
    let mut ctx: HashMap<UnitId, (ZoneSet, ZoneSet)> = HashMap::new();
    let mut work: Vec<UnitId> = Vec::new();
    for h in heads {
        let pz = &infos[&h.head].zones;
        let e = ctx
            .entry(h.head)
            .or_insert_with(|| (pz.empty(), pz.empty()));
        for (_, z) in &h.independents {
            e.0.union_with(z);
        }
        for (_, z) in &h.dependents {
            e.1.union_with(z);
        }
        if !work.contains(&h.head) {
            work.push(h.head);
        }
    }
    let mut rounds = 0;
    while let Some(p) = work.pop() {
        rounds += 1;
        if rounds > 100_000 {
            break;
        }
        let info = &infos[&p];
        let (vin, uout) = ctx[&p].clone();
        let effs = &info.effects;
        let n = info.zones.len();
        let g = &info.graph;
        let va = Varied {
            effects: effs,
            n,
            entry: &vin,
        };
        let vr = solve(&va, g);
        let ua = Useful {
            effects: effs,
            n,
            exit: &uout,
        };
        let ur = solve(&ua, g);
        visits += vr.visits + ur.visits;
        let np = info.point.len();
        let mut vb = vec![ZoneSet::new(n); np];
        let mut va_after = vec![ZoneSet::new(n); np];
        vr.for_each_point(&va, g, &mut |at, b, a| {
            vb[at.id] = b.clone();
            va_after[at.id] = a.clone();
        });
        let mut ub = vec![ZoneSet::new(n); np];
        let mut ua_after = vec![ZoneSet::new(n); np];
        ur.for_each_point(&ua, g, &mut |at, b, a| {
            ub[at.id] = b.clone();
            ua_after[at.id] = a.clone();
        });
        // Zones active somewhere in `p`: a call writing one of them while it is useful
        // after the call resets its derivative, though nothing the call reads varies.
        // Tangent only: an adjoint never reads the adjoint of a value no independent
        // reached (it is not varied before the call on any path).
        let mut active_any = ZoneSet::new(n);
        for i in 0..np {
            active_any.union_with(&vb[i].and(&ub[i]));
            active_any.union_with(&va_after[i].and(&ua_after[i]));
        }
        let mut resets = vec![ZoneSet::new(n); np];
        // Calling contexts of callees.
        let mut grown = Vec::new();
        for (id, e) in effs.iter().enumerate() {
            // Several calls in one statement (`smooth(x[0]) + smooth(x[1])`): what one call
            // makes varied may reach the next one's entry, what the next one reads may be
            // useful at the previous one's exit. The statement is one point of the flow
            // graph, so each call sees what is varied before or after it, and useful before
            // or after it (the first call's state change was read as passive by the second).
            let (vb_id, ua_id) = if e.call_maps.len() > 1 {
                let (mut v, mut u) = (vb[id].clone(), ua_after[id].clone());
                v.union_with(&va_after[id]);
                u.union_with(&ub[id]);
                (v, u)
            } else {
                (vb[id].clone(), ua_after[id].clone())
            };
            for m in &e.call_maps {
                let Some(cinfo) = infos.get(&m.callee) else {
                    continue;
                };
                let cz = &cinfo.zones;
                let mut cv = cz.empty();
                let mut cu = cz.empty();
                for (z, s) in m.src.iter().enumerate() {
                    if let Some(s) = s {
                        if s.intersects(&vb_id) && cz.differentiable.contains(ZoneId(z as u32)) {
                            cv.insert(ZoneId(z as u32));
                        }
                    }
                }
                for (z, t) in m.tgt.iter().enumerate() {
                    if let Some(t) = t {
                        if t.iter().any(|x| ua_id.contains(*x)) {
                            cu.insert(ZoneId(z as u32));
                        }
                        // Written, useful after, active elsewhere in `p`, varied neither
                        // before nor after the call: the derivative must be reset (what
                        // the call makes varied, its derivative sets). Taken as varied at
                        // the callee's entry (it never reads that value), its derivative
                        // writes the zero derivative of what it stores there.
                        let z = ZoneId(z as u32);
                        let reset: Vec<ZoneId> = t
                            .iter()
                            .copied()
                            .filter(|&x| {
                                ua_id.contains(x)
                                    && active_any.contains(x)
                                    && !vb_id.contains(x)
                                    && !va_after[id].contains(x)
                                    && info.zones.differentiable.contains(x)
                            })
                            .collect();
                        if !reset.is_empty()
                            && mode == Mode::Tangent
                            && cz.differentiable.contains(z)
                            && !cinfo.summary.reads.contains(z)
                        {
                            cv.insert(z);
                            for x in reset {
                                resets[id].insert(x);
                            }
                        }
                    }
                }
                if m.in_expr && e.writes.intersects(&ua_id) {
                    if let Some(o) = cz.result.and_then(|r| cz.objects.get(&ObjKey::Sym(r))) {
                        cu.union_with(&cz.obj_set(o));
                    }
                }
                cv.intersect_with(&cz.differentiable);
                cu.intersect_with(&cz.differentiable);
                grown.push((m.callee, cv, cu));
            }
        }
        let info = infos.get_mut(&p).expect("procedure");
        info.activity = Some(ActivityInfo {
            varied_in: vin,
            useful_out: uout,
            active_before: vb.iter().zip(&ub).map(|(v, u)| v.and(u)).collect(),
            active_after: va_after
                .iter()
                .zip(&ua_after)
                .map(|(v, u)| v.and(u))
                .collect(),
            varied_before: vb,
            useful_after: ua_after,
            deriv_uses: Vec::new(),
            has_derivative: Vec::new(),
            resets,
            difflive_before: Vec::new(),
            difflive_after: Vec::new(),
            live: Vec::new(),
            tbr_in: ZoneSet::new(n),
            tbr_before: Vec::new(),
            save: Vec::new(),
            recompute: Vec::new(),
            adjout_after: Vec::new(),
            adjout_before: Vec::new(),
        });
        for (c, cv, cu) in grown {
            let cz_len = infos[&c].zones.len();
            let e = ctx
                .entry(c)
                .or_insert_with(|| (ZoneSet::new(cz_len), ZoneSet::new(cz_len)));
            let mut ch = e.0.union_with(&cv);
            ch |= e.1.union_with(&cu);
            if (ch || infos[&c].activity.is_none()) && !work.contains(&c) {
                work.push(c);
            }
        }
    }
    for info in infos.values_mut() {
        if info.activity.is_some() {
            visits += adjoint_analyses(info, mode);
        }
    }
    visits
}

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

/// `use(I')` and diff-liveness (with live control), TBR, recomputation, adjoint-out.
fn adjoint_analyses(info: &mut ProcInfo, mode: Mode) -> usize {
    let mut visits = 0;
    let n = info.zones.len();
    let np = info.point.len();
    let effs = &info.effects;
    let g = &info.graph;
    let act = info.activity.as_mut().expect("activity computed");
    let mut deriv_uses = vec![ZoneSet::new(n); np];
    let mut has_derivative = vec![false; np];
    for (id, e) in effs.iter().enumerate() {
        let (vb, ua) = (&act.varied_before[id], &act.useful_after[id]);
        let mut uses = ZoneSet::new(n);
        let mut has = false;
        for t in e.writes.iter() {
            if !ua.contains(t) || !info.zones.differentiable.contains(t) {
                continue;
            }
            if let Some(ds) = e.diff_dep.get(&t) {
                for x in ds.iter().filter(|x| vb.contains(*x)) {
                    has = true;
                    if let Some(p) = e.partials.get(&x) {
                        uses.union_with(p);
                    }
                }
            }
            if vb.contains(t) || act.resets[id].contains(t) {
                has = true; // an active zone overwritten: its derivative is reset
            }
        }
        // MPI (issue 46): a message received that a dependent needs, or one sent that an
        // independent reaches, carries its derivative.
        has |= e.received.iter().any(|&t| ua.contains(t)) || e.sent.iter().any(|&z| vb.contains(z));
        if has {
            uses.union_with(&e.addr);
        }
        deriv_uses[id] = uses;
        has_derivative[id] = has;
    }
    // Diff-liveness, iterated with live control tests.
    let exit_live = match mode {
        Mode::Tangent => info.summary.writes.clone(),
        Mode::Adjoint => ZoneSet::new(n),
    };
    let mut live_tests = vec![false; np];
    let first_ids = &info.first_point;
    let id_of = |p: Point| {
        let (b, i) = g.location.get(&p)?;
        Some(first_ids[b.index()] + *i as usize)
    };
    let (mut dl_before, mut dl_after, mut live);
    loop {
        let a = DiffLive {
            effects: effs,
            n,
            deriv_uses: &deriv_uses,
            live_tests: &live_tests,
            exit: &exit_live,
        };
        let r = solve(&a, g);
        visits += r.visits;
        dl_before = vec![ZoneSet::new(n); np];
        dl_after = vec![ZoneSet::new(n); np];
        r.for_each_point(&a, g, &mut |at, b, af| {
            dl_before[at.id] = b.clone();
            dl_after[at.id] = af.clone();
        });
        live = (0..np)
            .map(|id| effs[id].writes.intersects(&dl_after[id]) || live_tests[id])
            .collect::<Vec<bool>>();
        // A live point or a point with a derivative makes its controlling tests live, and a
        // live test makes its own controlling tests live: closed here in one pass (one
        // solve per nesting level made nested IFs quadratic).
        let mut changed = false;
        let mut work: Vec<usize> = g
            .blocks
            .iter()
            .enumerate()
            .filter(|(bi, bd)| {
                let first = first_ids[*bi];
                (0..bd.points.len()).any(|i| live[first + i] || has_derivative[first + i])
            })
            .map(|(bi, _)| bi)
            .collect();
        while let Some(bi) = work.pop() {
            for c in &g.controllers[bi] {
                if let Some(tp) = g.test_of(*c) {
                    if let Some(tid) = id_of(tp) {
                        if !live_tests[tid] {
                            live_tests[tid] = true;
                            changed = true;
                            if let Some((tb, _)) = g.location.get(&tp) {
                                work.push(tb.index());
                            }
                        }
                    }
                }
            }
        }
        if !changed {
            break;
        }
    }
    // TBR.
    let ta = Tbr {
        effects: effs,
        n,
        entry: &act.tbr_in,
        deriv_uses: &deriv_uses,
        live: &live,
    };
    let tr = solve(&ta, g);
    visits += tr.visits;
    let mut tbr_before = vec![ZoneSet::new(n); np];
    tr.for_each_point(&ta, g, &mut |at, b, _| tbr_before[at.id] = b.clone());
    let mut save = vec![ZoneSet::new(n); np];
    for id in 0..np {
        if live[id] {
            let mut need = tbr_before[id].clone();
            need.union_with(&deriv_uses[id]);
            save[id] = effs[id].writes.and(&need);
        }
    }
    // A point whose overwritten values are recorded is restored through the zones that
    // address them (`a(k) = a_save` reads `k` in the backward sweep): they are read by the
    // adjoint of the point like its derivative's reads (TBR above added them already).
    // So is a point that is not live but runs anyway (split sweeps, statements that cannot
    // be sliced) and records what it overwrites.
    for id in 0..np {
        let w = &effs[id].writes;
        if w.intersects(&tbr_before[id]) || w.intersects(&deriv_uses[id]) {
            let addr = &effs[id].addr;
            deriv_uses[id].union_with(addr);
        }
    }
    // Recomputation: a recorded zone whose only reaching definition is a cheap assignment
    // (no call) reading only zones that nothing in the procedure writes.
    let mut written_anywhere = ZoneSet::new(n);
    for e in effs.iter() {
        written_anywhere.union_with(&e.writes);
    }
    // Only the recorded zones that are not differentiable are asked about.
    let mut slot = vec![None; n];
    let mut slots = 0u32;
    for id in 0..np {
        for z in save[id].iter() {
            if !info.zones.differentiable.contains(z) && slot[z.index()].is_none() {
                slot[z.index()] = Some(slots);
                slots += 1;
            }
        }
    }
    let rd = ReachingDefs {
        effects: effs,
        slot: &slot,
        slots: slots as usize,
    };
    let rr = solve(&rd, g);
    visits += rr.visits;
    let mut recompute = vec![ZoneSet::new(n); np];
    rr.for_each_point(&rd, g, &mut |at, before, _| {
        for z in save[at.id].iter() {
            if info.zones.differentiable.contains(z) {
                continue;
            }
            let Some(d) = slot[z.index()].and_then(|s| before.single(s)) else {
                continue;
            };
            let de = &effs[d];
            let mut inputs = de.reads.clone();
            inputs.remove(z);
            let simple = !de.calls
                && de.kills.contains(z)
                && de.writes.count() == 1
                && !inputs.intersects(&written_anywhere)
                && !de.reads.contains(z);
            if simple {
                recompute[at.id].insert(z);
            }
        }
    });
    // Adjoint-out.
    let aa = AdjointOut {
        effects: effs,
        n,
        deriv_uses: &deriv_uses,
        live: &live,
        tbr_before: &tbr_before,
    };
    let ar = solve(&aa, g);
    visits += ar.visits;
    let mut ao_before = vec![ZoneSet::new(n); np];
    let mut ao_after = vec![ZoneSet::new(n); np];
    ar.for_each_point(&aa, g, &mut |at, b, a| {
        ao_before[at.id] = b.clone();
        ao_after[at.id] = a.clone();
    });
    act.deriv_uses = deriv_uses;
    act.has_derivative = has_derivative;
    act.difflive_before = dl_before;
    act.difflive_after = dl_after;
    act.live = live;
    act.tbr_before = tbr_before;
    act.save = save;
    act.recompute = recompute;
    act.adjout_after = ao_after;
    act.adjout_before = ao_before;
    visits
}
