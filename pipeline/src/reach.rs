//! Refusals of the frontends inside procedures (`UnitData::refusals`) are reported for the
//! procedures the heads reach: ODEPACK's `DNRM2` holds an assigned GOTO, and `DLSODE` never
//! calls it, so differentiating `DLSODE` with all of ODEPACK's files given must not stop there.
//! Reach is over-approximated by name (every procedure named like a name a reached procedure
//! uses, and the specifics of a generic of that name): a refusal is never dropped for a
//! procedure a head can call.

use crate::head::{find_head, parse_heads};
use radtap_il::{Decl, Diagnostic, Expr, Program, UnitId, UnitKind};
use std::collections::{BTreeSet, HashSet};

/// The refusals to report: every unit's when `all`, else those of the units the heads
/// `head` (the `-head` text) reach.
pub(crate) fn refusals(prog: &Program, head: Option<&str>, all: bool) -> Vec<Diagnostic> {
    let with: Vec<UnitId> = prog
        .units
        .iter()
        .filter(|(_, u)| !u.refusals.is_empty())
        .map(|(id, _)| id)
        .collect();
    if with.is_empty() {
        return Vec::new();
    }
    let reached = reached(prog, head, all);
    let mut out: Vec<Diagnostic> = with
        .into_iter()
        .filter(|u| reached.contains(u))
        .flat_map(|u| prog.units[u].refusals.iter().cloned())
        .collect();
    out.sort_by_key(|d| d.span.map(|s| (s.file, s.line, s.col)).unwrap_or((0, 0, 0)));
    out
}

/// The units whose refusals are reported: every unit when `all` or without a head, else
/// those the heads of `head` may reach.
pub(crate) fn reached(prog: &Program, head: Option<&str>, all: bool) -> BTreeSet<UnitId> {
    match head {
        Some(h) if !all => reached_from(prog, h),
        _ => prog.units.iter().map(|(id, _)| id).collect(),
    }
}

/// The procedures the heads of `head` may reach (by name; see the module doc).
fn reached_from(prog: &Program, head: &str) -> BTreeSet<UnitId> {
    let mut by_name: std::collections::HashMap<String, Vec<UnitId>> = Default::default();
    for (id, u) in prog.units.iter() {
        if matches!(u.kind, UnitKind::Subroutine | UnitKind::Function) {
            if let Some(n) = u.name {
                by_name
                    .entry(prog.symbols[n].spelling.to_ascii_lowercase())
                    .or_default()
                    .push(id);
            }
        }
    }
    // Generic names: the specifics and bodies of every interface block of that name.
    let mut generics: std::collections::HashMap<String, Vec<String>> = Default::default();
    for (_, u) in prog.units.iter() {
        for d in &u.decls {
            if let Decl::Interface(itf) = d {
                if let Some(g) = &itf.name {
                    let e = generics.entry(g.to_ascii_lowercase()).or_default();
                    e.extend(
                        itf.module_procs
                            .iter()
                            .flatten()
                            .map(|x| x.to_ascii_lowercase()),
                    );
                    e.extend(
                        itf.bodies
                            .iter()
                            .filter_map(|&b| prog.units[b].name)
                            .map(|n| prog.symbols[n].spelling.to_ascii_lowercase()),
                    );
                }
            }
        }
    }
    let mut out = BTreeSet::new();
    let mut todo: Vec<UnitId> = parse_heads(head)
        .unwrap_or_default()
        .iter()
        .filter_map(|s| find_head(prog, s.proc_name()))
        .collect();
    let mut seen_names: HashSet<String> = HashSet::new();
    while let Some(u) = todo.pop() {
        if !out.insert(u) {
            continue;
        }
        let ud = &prog.units[u];
        todo.extend(ud.contains.iter().copied());
        let mut names: Vec<String> = ud
            .exprs
            .iter()
            .filter_map(|(_, e)| match e {
                Expr::Name(s) => Some(prog.symbols[*s].spelling.to_ascii_lowercase()),
                _ => None,
            })
            .collect();
        while let Some(n) = names.pop() {
            if !seen_names.insert(n.clone()) {
                continue;
            }
            if let Some(us) = by_name.get(&n) {
                todo.extend(us.iter().copied());
            }
            if let Some(gs) = generics.get(&n) {
                names.extend(gs.iter().cloned());
            }
        }
    }
    out
}
