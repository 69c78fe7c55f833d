//! Procedures with a dummy procedure are specialised per actual procedure, as Tapenade does.
//!
//! `call heun(one_compartment, …)` and `call heun(two_compartment, …)`: the dummy `f` of
//! `heun` receives two procedures, and the derivative of `heun` cannot call both `f_d`s by
//! one name. Before the analyses, `heun` gets one copy per actual procedure (in the order the
//! calls name them), in which every call through `f` calls that procedure by name; each call
//! site calls its copy. The analyses and both modes then see ordinary calls, and each copy
//! gets its own derivative (`heun_d`, then a fresh name for the next copy). The same is done
//! when the single actual's module is out of reach of the procedure's module (a library
//! calling the user's function): the copy USEs the actual's module, so its derivative uses
//! the actual's derivative module. A copy goes in the procedure's module, with `use` of the
//! actual's module when that comes before it; when the actual's module comes after it (a
//! user module using the library, the common layout), in the actual's module, with `use` of
//! the procedure's module: every derivative module then uses only modules written before it.
//!
//! A copy keeps the spelling of the original (a call the derivative keeps as it is still
//! calls the user's procedure, with the same actual), with a scope and symbols of its own. A
//! dummy passed on to another procedure is passed as the actual procedure in the copy, so
//! that procedure is specialised in turn. Left as they are (the generators refuse what they
//! cannot differentiate, with a located AD020): procedures with several called dummy
//! procedures (called or passed on), internal procedures or a result named like the function; calls passing
//! anything but a procedure with a body (an intrinsic, an external one); a copy to be placed
//! in the actual's module when the procedure names PRIVATE entities of its own. A call
//! passing the caller's own dummy procedure on keeps calling the original. The scopes of
//! BLOCK constructs are copied with the procedure.

use crate::ir::*;
use std::collections::HashMap;

/// A call of the procedure being specialised: unit, statement or expression, callee node.
struct Site {
    unit: UnitId,
    callee: ExprId,
    actual: UnitId,
}

/// Specialises every Fortran procedure whose dummy procedure receives several procedures, or
/// one its module cannot reach.
pub fn specialise_dummy_procedures(prog: &mut Program) {
    let procs: Vec<UnitId> = prog
        .units
        .iter()
        .filter(|(_, u)| {
            u.lang == Lang::Fortran && matches!(u.kind, UnitKind::Subroutine | UnitKind::Function)
        })
        .map(|(id, _)| id)
        .collect();
    // A copy passing `a` on to another procedure's dummy makes that one specialisable in
    // turn: a few rounds (each round's copies are called by name only).
    let mut procs = procs;
    let mut replaced: Vec<UnitId> = Vec::new();
    for _ in 0..4 {
        let before = prog.units.len();
        for p in procs {
            if specialise(prog, p, &replaced) {
                replaced.push(p);
            }
        }
        if prog.units.len() == before {
            break;
        }
        procs = prog
            .units
            .iter()
            .filter(|(_, u)| {
                u.lang == Lang::Fortran
                    && matches!(u.kind, UnitKind::Subroutine | UnitKind::Function)
            })
            .map(|(id, _)| id)
            .collect();
    }
}

/// The nodes of `u` naming a procedure: callees of calls, and the actual arguments of
/// calls to non-intrinsic procedures that are bare names (a dummy procedure passed on).
fn procedure_slots(prog: &Program, u: &UnitData) -> Vec<ExprId> {
    let mut out = Vec::new();
    let call = |callee: ExprId, args: &[Arg], out: &mut Vec<ExprId>| {
        out.push(callee);
        let intrinsic = matches!(&u.exprs[callee],
            Expr::Name(s) if prog.symbols[*s].kind == SymbolKind::Intrinsic);
        if !intrinsic {
            out.extend(
                args.iter()
                    .filter(|a| matches!(u.exprs[a.value], Expr::Name(_)))
                    .map(|a| a.value),
            );
        }
    };
    for (_, st) in u.stmts.iter() {
        if let StmtKind::Call { callee, args, .. } = &st.kind {
            call(*callee, args, &mut out);
        }
    }
    for (_, e) in u.exprs.iter() {
        if let Expr::Call { callee, args } = e {
            call(*callee, args, &mut out);
        }
    }
    out
}

/// The dummies of `p` it calls or passes on to another procedure.
fn called_dummies(prog: &Program, p: UnitId) -> Vec<usize> {
    let u = &prog.units[p];
    let mut out = Vec::new();
    for e in procedure_slots(prog, u) {
        if let Expr::Name(s) = &u.exprs[e] {
            if let Some(i) = u.params.iter().position(|x| x == s) {
                if matches!(
                    prog.symbols[*s].kind,
                    SymbolKind::Procedure | SymbolKind::Unknown
                ) && !out.contains(&i)
                {
                    out.push(i);
                }
            }
        }
    }
    out
}

/// The procedure with a body that symbol `s` names.
fn definition(prog: &Program, s: SymbolId) -> Option<UnitId> {
    let sd = &prog.symbols[s];
    if sd.kind != SymbolKind::Procedure || sd.attrs.dummy {
        return None;
    }
    if let Some(u) = sd.unit.filter(|&u| prog.units[u].name == Some(s)) {
        return Some(u);
    }
    let key = sd.spelling.to_ascii_lowercase();
    let mut found = prog.units.iter().filter(|(_, u)| {
        matches!(u.kind, UnitKind::Subroutine | UnitKind::Function)
            && u.name
                .is_some_and(|n| prog.symbols[n].spelling.eq_ignore_ascii_case(&key))
    });
    match (found.next(), found.next()) {
        (Some((id, _)), None) => Some(id),
        _ => None,
    }
}

/// The module holding `u` (through its hosts).
fn module_of(prog: &Program, u: UnitId) -> Option<UnitId> {
    let mut at = prog.units[u].parent;
    while let Some(q) = at {
        if prog.units[q].kind == UnitKind::Module {
            return Some(q);
        }
        at = prog.units[q].parent;
    }
    None
}

/// Whether unit `p` (or a host of it) is module `m` or uses it.
fn sees(prog: &Program, p: UnitId, m: UnitId) -> bool {
    let mut at = Some(p);
    while let Some(q) = at {
        if q == m
            || prog.units[q]
                .decls
                .iter()
                .any(|d| matches!(d, Decl::Use(ui, _) if ui.unit == Some(m)))
        {
            return true;
        }
        at = prog.units[q].parent;
    }
    false
}

/// The calls of `p` in the program (but in the procedures `replaced` by their copies) and
/// the procedure each passes for dummy `k`; `None` when one passes something else.
fn sites_of(prog: &Program, p: UnitId, k: usize, replaced: &[UnitId]) -> Option<Vec<Site>> {
    let pname = prog.units[p].name?;
    let pspell = prog.symbols[pname].spelling.to_ascii_lowercase();
    let kname = prog.symbols[prog.units[p].params[k]]
        .spelling
        .to_ascii_lowercase();
    let mut out = Vec::new();
    for (uid, u) in prog.units.iter() {
        // A procedure replaced by its copies is called no more.
        if u.lang != Lang::Fortran || replaced.contains(&uid) {
            continue;
        }
        let mut calls: Vec<(ExprId, &[Arg])> = Vec::new();
        for (_, st) in u.stmts.iter() {
            if let StmtKind::Call { callee, args, .. } = &st.kind {
                calls.push((*callee, args));
            }
        }
        for (_, e) in u.exprs.iter() {
            if let Expr::Call { callee, args } = e {
                calls.push((*callee, args));
            }
        }
        for (callee, args) in calls {
            let Expr::Name(s) = &u.exprs[callee] else {
                continue;
            };
            let sd = &prog.symbols[*s];
            if !sd.spelling.eq_ignore_ascii_case(&pspell) || definition(prog, *s) != Some(p) {
                continue;
            }
            let actual = args
                .iter()
                .find(|a| {
                    a.keyword
                        .as_ref()
                        .is_some_and(|w| w.eq_ignore_ascii_case(&kname))
                })
                .or_else(|| args.get(k).filter(|a| a.keyword.is_none()))?;
            let Expr::Name(a) = &u.exprs[actual.value] else {
                return None;
            };
            // A caller passing its own dummy procedure on keeps calling `p` itself (QUADPACK's
            // `dqagpe` passing `f` to `dqk21`, while the specialised `dqage` passes the user's
            // function): that site is left as it is.
            if prog.symbols[*a].attrs.dummy && u.params.contains(a) {
                continue;
            }
            let d = definition(prog, *a)?;
            out.push(Site {
                unit: uid,
                callee,
                actual: d,
            });
        }
    }
    // A name passed along elsewhere (`call other(heun)`) would keep calling the original.
    Some(out)
}

/// Specialises `p`; whether it did (its calls now call the copies).
fn specialise(prog: &mut Program, p: UnitId, replaced: &[UnitId]) -> bool {
    let u = &prog.units[p];
    let Some(m) = u.parent.filter(|&m| prog.units[m].kind == UnitKind::Module) else {
        return false;
    };
    if !u.contains.is_empty() || (u.kind == UnitKind::Function && u.result == u.name) {
        return false;
    }
    // Local types and ENTRY names would be shared with the copy (BLOCK scopes are copied).
    if u.decls.iter().any(|d| matches!(d, Decl::TypeDef(_)))
        || u.stmts.iter().any(|(_, st)| {
            matches!(st.kind, StmtKind::Entry { .. } | StmtKind::Decl(_))
                || matches!(&st.kind, StmtKind::Block { decls, .. }
                if decls.iter().any(|d| matches!(d, Decl::TypeDef(_) | Decl::Use(..))))
        })
    {
        return false;
    }
    let [k] = called_dummies(prog, p)[..] else {
        return false;
    };
    let Some(sites) = sites_of(prog, p, k, replaced) else {
        return false;
    };
    let mut actuals: Vec<UnitId> = Vec::new();
    for s in &sites {
        if !actuals.contains(&s.actual) {
            actuals.push(s.actual);
        }
    }
    let reachable = |a: UnitId| module_of(prog, a).is_none_or(|am| sees(prog, p, am));
    match actuals.as_slice() {
        [] => return false,
        [a] if reachable(*a) => return false,
        _ => {}
    }
    // A copy placed in the actual's module reaches `p`'s module through USE: only its
    // public names.
    let moved = actuals.iter().any(|&a| host_of(prog, p, m, a) != m);
    if moved && names_private_of(prog, p, m) {
        return false;
    }
    let dummy = prog.units[p].params[k];
    let pname = prog.units[p].name.expect("named");
    for (n, a) in actuals.into_iter().enumerate() {
        let (mut cu, map) = copy_unit(prog, p);
        let dummy = map.get(&dummy).copied().unwrap_or(dummy);
        let asym = prog.units[a].name.expect("named");
        // Calls through the dummy call `a` by name; passed on, it passes `a`.
        for c in procedure_slots(prog, &cu) {
            if matches!(cu.exprs[c], Expr::Name(s) if s == dummy) {
                cu.exprs[c] = Expr::Name(asym);
            }
        }
        let host = host_of(prog, p, m, a);
        if host == m {
            if let Some(am) = module_of(prog, a).filter(|&am| !sees(prog, p, am)) {
                let aname = prog.symbols[asym].spelling.clone();
                cu.decls.insert(0, use_decl(prog, am, Some(&aname)));
            }
        } else {
            // In the actual's module, which comes after `p`'s: the copy uses `p`'s module.
            cu.decls.insert(0, use_decl(prog, m, None));
            cu.parent = Some(host);
            let hs = prog.units[host].scope;
            prog.scopes[cu.scope].parent = Some(hs);
        }
        let csym = prog.symbols.alloc(prog.symbols[pname].clone());
        cu.name = Some(csym);
        let scope = cu.scope;
        let cid = prog.units.alloc(cu);
        prog.symbols[csym].unit = Some(cid);
        prog.scopes[scope].kind = ScopeKind::Unit(cid);
        for &new in map.values() {
            if prog.symbols[new].unit == Some(p) {
                prog.symbols[new].unit = Some(cid);
            }
        }
        let at = if host == m {
            prog.units[m]
                .contains
                .iter()
                .position(|&x| x == p)
                .map_or(prog.units[m].contains.len(), |i| i + 1 + n)
        } else {
            prog.units[host].contains.len()
        };
        prog.units[host].contains.insert(at, cid);
        for s in sites.iter().filter(|s| s.actual == a) {
            prog.units[s.unit].exprs[s.callee] = Expr::Name(csym);
        }
    }
    true
}

/// A copy of unit `p` with a scope and symbols of its own (the copy's scope still names `p`
/// as owner: the caller sets it): every name of `p`'s scope is a new symbol, and the copy's
/// expressions, declarations, dummies and result name the new ones.
fn copy_unit(prog: &mut Program, p: UnitId) -> (UnitData, HashMap<SymbolId, SymbolId>) {
    let mut cu = prog.units[p].clone();
    let old_scope = cu.scope;
    let mut map: HashMap<SymbolId, SymbolId> = HashMap::new();
    // The unit's scope, then the scopes of its BLOCK constructs (outer ones first: a scope
    // is allocated before those lowered inside it), each copied with its symbols.
    let mut scopes: Vec<ScopeId> = vec![old_scope];
    let mut blocks: Vec<ScopeId> = cu
        .stmts
        .iter()
        .filter_map(|(_, st)| match &st.kind {
            StmtKind::Block { scope, .. } => *scope,
            _ => None,
        })
        .collect();
    blocks.sort_by_key(|s| s.index());
    blocks.dedup();
    scopes.extend(blocks);
    let mut new_scope: HashMap<ScopeId, ScopeId> = HashMap::new();
    for &os in &scopes {
        let sc = prog.scopes[os].clone();
        let parent = sc.parent.map(|q| new_scope.get(&q).copied().unwrap_or(q));
        let ns = prog.scopes.alloc(ScopeData::new(sc.kind, parent));
        new_scope.insert(os, ns);
        let mut syms: Vec<SymbolId> = sc.order.clone();
        syms.extend(sc.names.values().copied());
        for s in syms {
            if prog.symbols[s].scope != os || map.contains_key(&s) {
                continue;
            }
            let mut d = prog.symbols[s].clone();
            d.scope = ns;
            map.insert(s, prog.symbols.alloc(d));
        }
    }
    let m = |s: &mut SymbolId| {
        if let Some(n) = map.get(s) {
            *s = *n;
        }
    };
    for &os in &scopes {
        let mut sc = prog.scopes[os].clone();
        sc.parent = sc.parent.map(|q| new_scope.get(&q).copied().unwrap_or(q));
        for v in sc.names.values_mut() {
            m(v);
        }
        sc.order.iter_mut().for_each(m);
        prog.scopes[new_scope[&os]] = sc;
    }
    let scope = new_scope[&old_scope];
    cu.scope = scope;
    let sids: Vec<StmtId> = cu.stmts.ids().collect();
    for st in sids {
        if let StmtKind::Block {
            scope: Some(bs),
            decls,
            associations,
            ..
        } = &mut cu.stmts[st].kind
        {
            if let Some(n) = new_scope.get(bs) {
                *bs = *n;
            }
            decls.iter_mut().for_each(|d| map_decl(d, &m));
            associations.iter_mut().for_each(|(s, _)| m(s));
        }
    }
    cu.params.iter_mut().for_each(m);
    if let Some(r) = cu.result.as_mut() {
        m(r);
    }
    let ids: Vec<ExprId> = cu.exprs.ids().collect();
    for e in ids {
        if let Expr::Name(s) = &mut cu.exprs[e] {
            m(s);
        }
    }
    for d in cu.decls.iter_mut() {
        map_decl(d, &m);
    }
    (cu, map)
}

/// Renames the symbols declaration `d` declares through `m`.
fn map_decl(d: &mut Decl, m: &dyn Fn(&mut SymbolId)) {
    match d {
        Decl::Var(v) => v.entities.iter_mut().for_each(|e| m(&mut e.sym)),
        Decl::Parameter(ps) => ps.iter_mut().for_each(|(s, _)| m(s)),
        Decl::Attr(a) => a.items.iter_mut().for_each(|i| m(&mut i.sym)),
        Decl::Common(bs) => bs
            .iter_mut()
            .for_each(|(_, es)| es.iter_mut().for_each(|e| m(&mut e.sym))),
        Decl::StmtFunction { name, params, .. } => {
            m(name);
            params.iter_mut().for_each(m);
        }
        _ => {}
    }
}

/// Where the copy of `p` (in module `m`) for actual `a` goes: `m`, unless `a`'s module is out
/// of `p`'s reach and comes after `m` in the program (its derivative module is written after
/// `m`'s, which could then not use it): then `a`'s module.
fn host_of(prog: &Program, p: UnitId, m: UnitId, a: UnitId) -> UnitId {
    match module_of(prog, a) {
        Some(am) if am != m && !sees(prog, p, am) && am.index() > m.index() => am,
        _ => m,
    }
}

/// Whether `p` names an entity of module `m` that `USE m` does not give.
fn names_private_of(prog: &Program, p: UnitId, m: UnitId) -> bool {
    let ms = prog.units[m].scope;
    let default_private = prog.scopes[ms].default_private;
    prog.units[p].exprs.iter().any(|(_, e)| match e {
        Expr::Name(s) => {
            let sd = &prog.symbols[*s];
            sd.scope == ms && (sd.attrs.private || (default_private && !sd.attrs.public))
        }
        _ => false,
    })
}

/// `use m` or `use m, only: name`.
fn use_decl(prog: &Program, m: UnitId, only: Option<&str>) -> Decl {
    let mname = prog.symbols[prog.units[m].name.expect("module name")]
        .spelling
        .clone();
    let (names, text) = match only {
        Some(a) => (
            vec![(a.to_string(), a.to_string())],
            format!("use {mname}, only: {a}"),
        ),
        None => (Vec::new(), format!("use {mname}")),
    };
    Decl::Use(
        UseImport {
            module: mname.to_ascii_lowercase(),
            unit: Some(m),
            only: only.is_some(),
            names,
        },
        text,
    )
}
