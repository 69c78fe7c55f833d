//! Lifting of host association: the variables of a Fortran subroutine or function that its
//! internal procedures use become explicit dummy arguments of those internal procedures, and
//! every call to an internal procedure passes them.
//!
//! Before differentiation, `subroutine foo(x, y); call bar(); contains; subroutine bar();
//! y = sin(x)` becomes `call bar(x, y)` with `subroutine bar(x, y)`, `x` and `y` declared in
//! `bar` like in `foo` (arrays assumed-shape with their lower bounds, characters of assumed
//! length). The analyses then see every read and write an internal procedure makes to its
//! host's memory at the call, through the argument mapping they already have (activity,
//! TBR, recording, the call summaries); and the generators emit the internal procedure's
//! derivative inside the host's derivative, where the lifted arguments are ordinary
//! arguments. A call passes the same variables the procedure used by host association, so
//! the lifted program computes what the original computes.
//!
//! The closure over internal procedures calling each other is taken: an internal procedure
//! also receives what the internal procedures it calls use. What cannot be lifted is refused
//! with a located AD020 naming the construct: an internal procedure that uses host variables
//! and is passed as an actual argument (its callers are not known), a host array of unknown
//! rank-2+ size (`a(n,*)`), a lower bound that is not constant, a host variable with no type
//! declaration, and an internal procedure declaring a name it would also have to receive.

use crate::copy::Copier;
use crate::ir::*;
use crate::visit::expr_children;
use crate::{Code, Diagnostic};
use std::collections::{BTreeMap, BTreeSet};

/// Lifts the host variables the internal procedures of every subroutine and function use into
/// arguments. Units without internal procedures are left as they are. A host whose lifting is
/// refused is left as written, and the refusal reported only when `reported(host)`: a
/// procedure no head reaches is not differentiated, so what cannot be lifted there must not
/// stop the heads of the same files (the Fortran Astrodynamics Toolkit's `kepler_classical`
/// passes internal procedures using its variables to a solver, and refused every head of
/// the module).
pub fn lift_host_association(
    prog: &mut Program,
    reported: impl Fn(UnitId) -> bool,
) -> Vec<Diagnostic> {
    let hosts: Vec<UnitId> = prog
        .units
        .iter()
        .filter(|(_, u)| {
            matches!(u.kind, UnitKind::Subroutine | UnitKind::Function)
                && u.lang == Lang::Fortran
                && !u.contains.is_empty()
        })
        .map(|(id, _)| id)
        .collect();
    let mut diags = Vec::new();
    for h in hosts {
        let before = diags.len();
        lift_host(prog, h, &mut diags);
        if !reported(h) {
            diags.truncate(before);
        }
    }
    diags
}

/// The internal procedure a callee expression names, among `internals`.
fn internal_callee(
    prog: &Program,
    u: &UnitData,
    callee: ExprId,
    internals: &[UnitId],
) -> Option<UnitId> {
    let Expr::Name(s) = &u.exprs[callee] else {
        return None;
    };
    let sd = &prog.symbols[*s];
    if let Some(q) = sd.unit.filter(|q| internals.contains(q)) {
        return Some(q);
    }
    if sd.kind != SymbolKind::Procedure {
        return None;
    }
    internals.iter().copied().find(|&q| {
        prog.units[q]
            .name
            .is_some_and(|n| prog.symbols[n].spelling.eq_ignore_ascii_case(&sd.spelling))
    })
}

/// Callee expressions of the calls of unit `u` (statements and function references).
fn callee_exprs(u: &UnitData) -> BTreeSet<ExprId> {
    let mut out = BTreeSet::new();
    for (_, s) in u.stmts.iter() {
        if let StmtKind::Call { callee, .. } = &s.kind {
            out.insert(*callee);
        }
    }
    for (_, e) in u.exprs.iter() {
        if let Expr::Call { callee, .. } = e {
            out.insert(*callee);
        }
    }
    out
}

fn header_span(u: &UnitData) -> crate::Span {
    u.source_map.header.unwrap_or_default()
}

fn lift_host(prog: &mut Program, h: UnitId, diags: &mut Vec<Diagnostic>) {
    let internals = prog.units[h].contains.clone();
    let host_scope = prog.units[h].scope;
    // Host variables each internal procedure names directly.
    let mut uses: BTreeMap<UnitId, BTreeSet<SymbolId>> = BTreeMap::new();
    // Internal procedures each one calls.
    let mut calls: BTreeMap<UnitId, BTreeSet<UnitId>> = BTreeMap::new();
    for &q in &internals {
        let u = &prog.units[q];
        let mut used = BTreeSet::new();
        for (_, e) in u.exprs.iter() {
            if let Expr::Name(s) = e {
                let sd = &prog.symbols[*s];
                if sd.scope == host_scope
                    && sd.kind == SymbolKind::Variable
                    && !sd.attrs.constant
                    && sd.common.is_none()
                    && !passive_undeclared(prog, h, *s)
                {
                    used.insert(*s);
                }
            }
        }
        uses.insert(q, used);
        let mut called = BTreeSet::new();
        for c in callee_exprs(u) {
            if let Some(r) = internal_callee(prog, u, c, &internals) {
                called.insert(r);
            }
        }
        calls.insert(q, called);
    }
    // Closure: a procedure also receives what the internal procedures it calls receive.
    loop {
        let mut changed = false;
        for &q in &internals {
            let mut add = BTreeSet::new();
            for r in &calls[&q] {
                add.extend(uses[r].iter().copied());
            }
            let set = uses
                .get_mut(&q)
                .expect("every internal procedure has a set");
            for s in add {
                changed |= set.insert(s);
            }
        }
        if !changed {
            break;
        }
    }
    if uses.values().all(|s| s.is_empty()) {
        return;
    }
    // Refusals first: nothing is rewritten when one of them applies.
    let before = diags.len();
    let callers: Vec<UnitId> = std::iter::once(h)
        .chain(internals.iter().copied())
        .collect();
    for &c in &callers {
        let u = &prog.units[c];
        let callees = callee_exprs(u);
        for (id, e) in u.exprs.iter() {
            if callees.contains(&id) {
                continue;
            }
            let Expr::Name(s) = e else { continue };
            if prog.symbols[*s].kind != SymbolKind::Procedure {
                continue;
            }
            let Some(q) = internal_callee(prog, u, id, &internals) else {
                continue;
            };
            if q != c && !uses[&q].is_empty() {
                let span = u
                    .source_map
                    .expr
                    .get(id)
                    .copied()
                    .unwrap_or_else(|| header_span(u));
                diags.push(Diagnostic::error(
                    Code::Unsupported,
                    span,
                    format!(
                        "the internal procedure `{}` uses variables of its host and is passed as an argument here; this is not supported yet (make those variables its arguments)",
                        prog.name(*s)
                    ),
                ));
            }
        }
    }
    for &q in &internals {
        let qu = &prog.units[q];
        for &s in &uses[&q] {
            let sd = &prog.symbols[s];
            let key = sd.spelling.to_ascii_lowercase();
            let why = if prog.scopes[qu.scope].names.contains_key(&key) {
                Some(format!("it declares its own `{}`", sd.spelling))
            } else if type_spec_of(&prog.units[h], s).is_none() {
                Some(format!(
                    "`{}` has no type declaration in the host",
                    sd.spelling
                ))
            } else {
                let dims = sd.ty.as_ref().map(|t| t.dims.clone()).unwrap_or_default();
                let assumed = dims.iter().any(|d| d.upper == DimUpper::Assumed);
                let var_lower = dims
                    .iter()
                    .filter_map(|d| d.lower)
                    .any(|l| names_variable(prog, &prog.units[h], l));
                if assumed && dims.len() > 1 {
                    Some(format!(
                        "`{}` is an assumed-size array of rank {}",
                        sd.spelling,
                        dims.len()
                    ))
                } else if var_lower {
                    Some(format!(
                        "`{}` has a lower bound that is not constant",
                        sd.spelling
                    ))
                } else {
                    None
                }
            };
            if let Some(why) = why {
                diags.push(Diagnostic::error(
                    Code::Unsupported,
                    header_span(qu),
                    format!(
                        "the internal procedure `{}` uses the host's `{}` and {why}: not supported yet (pass `{}` as an argument)",
                        qu.name.map(|n| prog.name(n)).unwrap_or("?"),
                        sd.spelling,
                        sd.spelling
                    ),
                ));
            }
        }
    }
    if diags.len() > before {
        return;
    }
    // The lifted dummies, per internal procedure: host symbol → own symbol.
    let host = prog.units[h].clone();
    let mut lifted: BTreeMap<UnitId, Vec<(SymbolId, SymbolId)>> = BTreeMap::new();
    for &q in &internals {
        let mut pairs = Vec::new();
        // In the host's declaration order, so the output does not depend on ids.
        let mut order: Vec<SymbolId> = uses[&q].iter().copied().collect();
        let pos = |s: &SymbolId| prog.scopes[host_scope].order.iter().position(|x| x == s);
        order.sort_by_key(|s| (pos(s), *s));
        for s in order {
            let own = lift_one(prog, &host, q, s);
            pairs.push((s, own));
        }
        lifted.insert(q, pairs);
    }
    // Names of host variables inside each internal procedure become its own dummies.
    for (&q, pairs) in &lifted {
        let map: BTreeMap<SymbolId, SymbolId> = pairs.iter().copied().collect();
        let u = &mut prog.units[q];
        let ids: Vec<ExprId> = u.exprs.ids().collect();
        for id in ids {
            if let Expr::Name(s) = &mut u.exprs[id] {
                if let Some(&n) = map.get(s) {
                    *s = n;
                }
            }
        }
        u.params.extend(pairs.iter().map(|p| p.1));
    }
    // Every call passes the lifted variables, as the caller sees them.
    for &c in &callers {
        let in_caller: BTreeMap<SymbolId, SymbolId> = lifted
            .get(&c)
            .map(|p| p.iter().copied().collect())
            .unwrap_or_default();
        let u = &prog.units[c];
        let mut sites: Vec<(Option<StmtId>, ExprId, ExprId, UnitId)> = Vec::new();
        for (sid, s) in u.stmts.iter() {
            if let StmtKind::Call { callee, .. } = &s.kind {
                if let Some(q) = internal_callee(prog, u, *callee, &internals) {
                    sites.push((Some(sid), *callee, *callee, q));
                }
            }
        }
        for (eid, e) in u.exprs.iter() {
            if let Expr::Call { callee, .. } = e {
                if let Some(q) = internal_callee(prog, u, *callee, &internals) {
                    sites.push((None, eid, *callee, q));
                }
            }
        }
        for (stmt, at, _, q) in sites {
            let pairs = &lifted[&q];
            if pairs.is_empty() {
                continue;
            }
            let optional = prog.units[q]
                .params
                .iter()
                .any(|p| prog.symbols[*p].attrs.optional);
            let mut extra = Vec::new();
            for &(hs, own) in pairs {
                let actual = in_caller.get(&hs).copied().unwrap_or(hs);
                extra.push((prog.symbols[own].spelling.clone(), actual));
            }
            let u = &mut prog.units[c];
            let args = match stmt {
                Some(sid) => match &mut u.stmts[sid].kind {
                    StmtKind::Call {
                        args, no_parens, ..
                    } => {
                        *no_parens = false;
                        args.clone()
                    }
                    _ => continue,
                },
                None => match &u.exprs[at] {
                    Expr::Call { args, .. } => args.clone(),
                    _ => continue,
                },
            };
            let keywords = optional || args.iter().any(|a| a.keyword.is_some());
            let mut args = args;
            for (name, actual) in extra {
                let value = u.exprs.alloc(Expr::Name(actual));
                args.push(Arg {
                    keyword: keywords.then_some(name),
                    value,
                });
            }
            match stmt {
                Some(sid) => {
                    if let StmtKind::Call { args: a, .. } = &mut u.stmts[sid].kind {
                        *a = args;
                    }
                }
                None => {
                    if let Expr::Call { args: a, .. } = &mut u.exprs[at] {
                        *a = args;
                    }
                }
            }
        }
    }
}

/// The type of `s` as `host` declares it: its type declaration, or the function header's type
/// of the host's result.
fn type_spec_of(host: &UnitData, s: SymbolId) -> Option<&TypeSpec> {
    host.decls
        .iter()
        .find_map(|d| match d {
            Decl::Var(v) if v.entities.iter().any(|e| e.sym == s) => Some(&v.spec),
            _ => None,
        })
        .or_else(|| host.header_type.as_ref().filter(|_| host.result == Some(s)))
}

/// A host name with no declaration, no dummy and no result, of a type that carries no
/// derivative (an integer, or no type: a kind name the frontend left unresolved): left to
/// host association, as the analyses number it as a global of the program.
fn passive_undeclared(prog: &Program, h: UnitId, s: SymbolId) -> bool {
    let host = &prog.units[h];
    if host.params.contains(&s) || host.result == Some(s) || type_spec_of(host, s).is_some() {
        return false;
    }
    // A kind name in the function header (`real(wp) function f`) that the frontend made a
    // variable of the function though it names a constant of an enclosing scope or module.
    let key = prog.symbols[s].spelling.to_ascii_lowercase();
    let through_use = prog.scopes[host.scope].uses.iter().find_map(|u| {
        let remote = u
            .names
            .iter()
            .find(|(l, _)| l.eq_ignore_ascii_case(&key))
            .map_or(key.clone(), |(_, r)| r.to_ascii_lowercase());
        prog.lookup(prog.units[u.unit?].scope, &remote)
    });
    let outer = through_use.or_else(|| {
        prog.scopes[host.scope]
            .parent
            .and_then(|p| prog.lookup(p, &key))
    });
    if outer.is_some_and(|o| prog.symbols[o].kind == SymbolKind::Constant) {
        return true;
    }
    !prog.symbols[s].ty.as_ref().is_some_and(|t| {
        matches!(
            t.base,
            BaseClass::Real | BaseClass::Complex | BaseClass::Record(_)
        )
    })
}

/// Whether expression `e` of `u` names a variable.
fn names_variable(prog: &Program, u: &UnitData, e: ExprId) -> bool {
    if let Expr::Name(s) = &u.exprs[e] {
        if prog.symbols[*s].kind == SymbolKind::Variable && !prog.symbols[*s].attrs.constant {
            return true;
        }
    }
    let mut any = false;
    expr_children(&u.exprs[e], &mut |k| any |= names_variable(prog, u, k));
    any
}

/// Declares in internal procedure `q` a dummy argument standing for host variable `s`, and
/// returns it.
fn lift_one(prog: &mut Program, host: &UnitData, q: UnitId, s: SymbolId) -> SymbolId {
    let sd = prog.symbols[s].clone();
    let spec = type_spec_of(host, s)
        .expect("checked before lifting")
        .clone();
    let c = Copier { src: host };
    let qscope = prog.units[q].scope;
    let movable = sd.attrs.allocatable || sd.attrs.pointer;
    let (spec, dims) = {
        let u = &mut prog.units[q];
        let mut spec = c.spec(u, &spec);
        if spec.class == BaseClass::Character {
            let len = match &spec.char_len {
                Some(CharLen::Star(LenValue::Deferred))
                | Some(CharLen::Paren(LenValue::Deferred))
                | Some(CharLen::Keyword(LenValue::Deferred)) => LenValue::Deferred,
                _ => LenValue::Assumed,
            };
            spec.char_len = Some(CharLen::Keyword(len));
        }
        let src_dims = sd.ty.as_ref().map(|t| t.dims.clone()).unwrap_or_default();
        let dims: Vec<Dim> = src_dims
            .iter()
            .map(|d| Dim {
                lower: if movable {
                    None
                } else {
                    d.lower.map(|l| c.expr(u, l))
                },
                upper: if d.upper == DimUpper::Assumed {
                    DimUpper::Assumed
                } else {
                    DimUpper::Deferred
                },
            })
            .collect();
        (spec, dims)
    };
    let mut attrs = Vec::new();
    // A PURE (or ELEMENTAL) procedure never defines a variable it reaches by host
    // association, and its dummies need an INTENT: the lifted ones are INTENT(IN) (without
    // one, bspline-fortran's pure `check_inputs`, copied into a derivative module, did not
    // compile).
    let pure = prog.units[q]
        .attrs
        .prefixes
        .iter()
        .any(|p| p.eq_ignore_ascii_case("pure") || p.eq_ignore_ascii_case("elemental"));
    if pure {
        attrs.push(Attr::Intent(Intent::In));
    }
    for (on, k) in [
        (sd.attrs.allocatable, "allocatable"),
        (sd.attrs.pointer, "pointer"),
        (sd.attrs.target, "target"),
        (sd.attrs.optional && sd.attrs.dummy, "optional"),
    ] {
        if on {
            attrs.push(Attr::Keyword(k.to_string()));
        }
    }
    let ty = sd.ty.clone().map(|mut t| {
        t.dims = dims.clone();
        t
    });
    let data = SymbolData {
        attrs: SymAttrs {
            intent: pure.then_some(Intent::In),
            dummy: true,
            optional: sd.attrs.optional && sd.attrs.dummy,
            allocatable: sd.attrs.allocatable,
            pointer: sd.attrs.pointer,
            target: sd.attrs.target,
            ..SymAttrs::default()
        },
        ..SymbolData::variable(&sd.spelling, qscope, ty)
    };
    let own = prog.add_symbol(qscope, sd.spelling.to_ascii_lowercase(), data);
    let decl = Decl::var(VarDecl {
        spec,
        attrs,
        entities: vec![Entity {
            sym: own,
            dims: (!dims.is_empty()).then_some(dims),
            char_len: None,
            derived: Vec::new(),
            init: None,
        }],
        double_colon: true,
    });
    let u = &mut prog.units[q];
    let at = u
        .decls
        .iter()
        .rposition(|d| matches!(d, Decl::Use(..) | Decl::Implicit(_)))
        .map_or(0, |i| i + 1);
    u.decls.insert(at, decl);
    own
}
