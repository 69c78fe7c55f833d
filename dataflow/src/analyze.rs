//! The analyses' driver ([`analyze`]): numbers the zones of the program and of each
//! procedure, computes the effects of every point and the summaries bottom-up over the
//! call graph's SCCs (iterating recursive ones to a fixpoint), resolves each head's
//! independents and dependents, then runs activity and the adjoint's analyses top-down;
//! with the AD060-family messages about what a procedure's effects cannot express.

use crate::activity::activity;
use crate::effects::*;
use crate::heads::resolve_head;
use crate::impls::*;
use crate::info::*;
use crate::solver::*;
use crate::zones::{self, Globals, ObjKey, ProcZones};
use crate::zoneset::{ZoneId, ZoneSet};
use crate::{effects, pointsto, purity};
use radtap_flowgraph::{CallGraph, Callee, FlowGraph};
use radtap_il::{Decl, Diagnostic, Expr, Program, UnitId};
use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap, HashSet};

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
