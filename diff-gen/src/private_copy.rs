//! PRIVATE entities of a module that its differentiated procedures refer to. The derivative
//! procedures live in the derivative module, outside the module, where those names cannot be
//! reached: the named constants and the procedures without derivatives they need are copied
//! into the derivative module (declared PRIVATE there). A private variable is module state: a
//! copy would be another variable (silently wrong), so it is refused, as is a procedure
//! keeping state between calls (SAVE, initialised locals, DATA) or reaching such a variable.
//!
//! A procedure of a library module specialised for the user's function lives in the user's
//! module (`il::specialise`: QUADPACK's `dqags` for the integrand of a module that uses
//! QUADPACK), and names the library module's PRIVATE entities (`epmach`, `dqpsrt`, the
//! abstract interface `func`): [`foreign_modules`] lists those modules, and the derivative
//! module of the user's module copies what they need the same way.

use radtap_il::visit::{decl_exprs, expr_children, stmt_children};
use radtap_il::*;

/// What the derivative module of a module must copy, in the order of the module's source.
#[derive(Default)]
pub(crate) struct PrivateCopies {
    /// Named constants (their declarations are copied).
    pub consts: Vec<SymbolId>,
    /// Procedures without derivatives (their units are copied).
    pub procs: Vec<UnitId>,
}

/// Whether `s` is a PRIVATE entity declared in module `m`.
fn hidden_in(prog: &Program, m: UnitId, s: SymbolId) -> bool {
    let mscope = prog.units[m].scope;
    let sd = &prog.symbols[s];
    let hidden = sd.attrs.private || (prog.scopes[mscope].default_private && !sd.attrs.public);
    sd.scope == mscope && hidden
}

/// The symbols named in `e` of `u`, the kinds written after `_` in literals included.
fn names_into(prog: &Program, u: &UnitData, e: ExprId, out: &mut Vec<SymbolId>) {
    match &u.exprs[e] {
        Expr::Name(s) => out.push(*s),
        Expr::Literal(l) => {
            if let Some((_, k)) = l.text.rsplit_once('_') {
                let k = k.trim();
                if !k.is_empty() && !k.bytes().all(|b| b.is_ascii_digit()) {
                    if let Some(s) = prog.lookup(u.scope, k) {
                        out.push(s);
                    }
                }
            }
        }
        _ => {}
    }
    expr_children(&u.exprs[e], &mut |c| names_into(prog, u, c, out));
}

/// Every symbol named by unit `p`: statements and declarations, its internal procedures
/// included.
pub(crate) fn unit_names(prog: &Program, p: UnitId) -> Vec<SymbolId> {
    let u = &prog.units[p];
    let mut exprs = Vec::new();
    for (_, st) in u.stmts.iter() {
        stmt_children(&st.kind, &mut |e| exprs.push(e), &mut |_| {});
    }
    for d in &u.decls {
        decl_exprs(d, &mut |e| exprs.push(e));
    }
    let mut out = Vec::new();
    for e in exprs {
        names_into(prog, u, e, &mut out);
    }
    for &q in &u.contains {
        out.extend(unit_names(prog, q));
    }
    out
}

/// The declaration expressions of constant `s` of module `m` (initialisation, kind, bounds).
fn const_exprs(prog: &Program, m: UnitId, s: SymbolId) -> Vec<SymbolId> {
    let u = &prog.units[m];
    let mut out = Vec::new();
    for d in &u.decls {
        let mine = match d {
            Decl::Var(v) => v.entities.iter().any(|e| e.sym == s),
            Decl::Parameter(ps) => ps.iter().any(|(p, _)| *p == s),
            _ => false,
        };
        if mine {
            let mut es = Vec::new();
            match d {
                Decl::Var(v) => {
                    let mut one = v.clone();
                    one.entities.retain(|e| e.sym == s);
                    decl_exprs(&Decl::Var(one), &mut |e| es.push(e));
                }
                Decl::Parameter(ps) => ps
                    .iter()
                    .filter(|(p, _)| *p == s)
                    .for_each(|(_, e)| es.push(*e)),
                _ => {}
            }
            for e in es {
                names_into(prog, u, e, &mut out);
            }
        }
    }
    out
}

/// Whether procedure `q` keeps state between calls: SAVE, an initialised local, DATA.
fn has_state(prog: &Program, q: UnitId) -> bool {
    let u = &prog.units[q];
    let local_state = u.decls.iter().any(|d| match d {
        Decl::Data(_) => true,
        Decl::Var(v) => v.entities.iter().any(|e| {
            let sd = &prog.symbols[e.sym];
            !sd.attrs.constant && (e.init.is_some() || sd.attrs.save)
        }),
        Decl::Verbatim(t) => t.to_ascii_lowercase().starts_with("save"),
        _ => false,
    });
    local_state || u.contains.iter().any(|&c| has_state(prog, c))
}

/// The private entities of module `m` that procedures `roots` (in `m`) need copied beside
/// their derivatives; `Err(s)` names a private entity that cannot be copied (a variable, or
/// a procedure with state). Active procedures (`active`) have their derivatives in the
/// derivative module already.
pub(crate) fn needed(
    prog: &Program,
    m: UnitId,
    roots: &[UnitId],
    active: &[UnitId],
) -> Result<PrivateCopies, SymbolId> {
    let todo: Vec<SymbolId> = roots.iter().flat_map(|&p| unit_names(prog, p)).collect();
    needed_from(prog, m, todo, active)
}

/// [`needed`] for the names `todo`.
pub(crate) fn needed_from(
    prog: &Program,
    m: UnitId,
    mut todo: Vec<SymbolId>,
    active: &[UnitId],
) -> Result<PrivateCopies, SymbolId> {
    let mut consts: Vec<SymbolId> = Vec::new();
    let mut procs: Vec<UnitId> = Vec::new();
    while let Some(s) = todo.pop() {
        if !hidden_in(prog, m, s) {
            continue;
        }
        let sd = &prog.symbols[s];
        if sd.kind == SymbolKind::Constant || sd.attrs.constant {
            if !consts.contains(&s) {
                consts.push(s);
                todo.extend(const_exprs(prog, m, s));
            }
            continue;
        }
        let defined = sd
            .unit
            .filter(|&q| prog.units[q].name == Some(s) && prog.units[m].contains.contains(&q));
        match (sd.kind, defined) {
            // An active procedure has its derivatives here; its primal is copied too when it
            // keeps no state, for the adjoint's forward sweeps call it (`call g(x, y)` before
            // `g_b`, which did not compile). One with state keeps its primal out of reach
            // (the tangent never calls it; a checkpointed call of it does not compile).
            (SymbolKind::Procedure, Some(q)) if active.contains(&q) => {
                if !has_state(prog, q) && !procs.contains(&q) {
                    procs.push(q);
                    todo.extend(unit_names(prog, q));
                }
            }
            (SymbolKind::Procedure, Some(q)) => {
                if has_state(prog, q) {
                    return Err(s);
                }
                if !procs.contains(&q) {
                    procs.push(q);
                    todo.extend(unit_names(prog, q));
                }
            }
            // Intrinsics, type names: nothing to copy. A module variable, a generic name:
            // not copied.
            (
                SymbolKind::Intrinsic
                | SymbolKind::Type
                | SymbolKind::Module
                | SymbolKind::Label
                | SymbolKind::UnitName,
                _,
            ) => {}
            _ => return Err(s),
        }
    }
    // In the module's order: a constant's initialisation may name an earlier one.
    let order = &prog.scopes[prog.units[m].scope].order;
    consts.sort_by_key(|s| order.iter().position(|x| x == s).unwrap_or(usize::MAX));
    let contains = &prog.units[m].contains;
    procs.sort_by_key(|q| contains.iter().position(|x| x == q).unwrap_or(usize::MAX));
    Ok(PrivateCopies { consts, procs })
}

/// The PRIVATE abstract interfaces of module `m` that the dummies of procedures `roots` (in
/// `m`) are declared with (`procedure(func) :: f`), each block reduced to those bodies: the
/// derivative procedures declare the same dummies outside `m`.
pub(crate) fn abstract_interfaces(prog: &Program, m: UnitId, roots: &[UnitId]) -> Vec<Interface> {
    let mut named: Vec<String> = Vec::new();
    for &p in roots {
        for d in &prog.units[p].decls {
            let Decl::Attr(a) = d else { continue };
            let k = a.keyword.to_ascii_lowercase();
            let Some(rest) = k.strip_prefix("procedure") else {
                continue;
            };
            let rest = rest.trim_start();
            if let Some(inner) = rest.strip_prefix('(') {
                if let Some(end) = inner.find(')') {
                    named.push(inner[..end].trim().to_string());
                }
            }
        }
    }
    let mut out = Vec::new();
    for d in &prog.units[m].decls {
        let Decl::Interface(itf) = d else { continue };
        if !itf.is_abstract {
            continue;
        }
        let bodies: Vec<UnitId> = itf
            .bodies
            .iter()
            .copied()
            .filter(|&b| {
                prog.units[b].name.is_some_and(|n| {
                    hidden_in(prog, m, n)
                        && named
                            .iter()
                            .any(|x| prog.symbols[n].spelling.eq_ignore_ascii_case(x))
                })
            })
            .collect();
        if !bodies.is_empty() {
            let mut one = itf.clone();
            one.bodies = bodies;
            out.push(one);
        }
    }
    out
}

/// The modules other than `m` whose PRIVATE entities procedures `roots` (in `m`) name: the
/// library modules of the specialised copies placed in `m`, in the program's order.
pub(crate) fn foreign_modules(prog: &Program, m: UnitId, roots: &[UnitId]) -> Vec<UnitId> {
    let names: Vec<SymbolId> = roots.iter().flat_map(|&p| unit_names(prog, p)).collect();
    let mut out: Vec<UnitId> = Vec::new();
    for (om, ou) in prog.units.iter() {
        if om == m || ou.kind != UnitKind::Module {
            continue;
        }
        if names.iter().any(|&s| hidden_in(prog, om, s)) {
            out.push(om);
        }
    }
    out
}
