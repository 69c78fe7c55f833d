//! C `static` locals that hold no state become automatic before the analyses. f2c declares
//! every local of a routine `static` (Fortran 77 allowed SAVE semantics):
//!
//! ```c
//! static integer i__;
//! static doublereal dmax__, s;
//! dmax__ = 0.;  s = 0.;
//! for (i__ = 1; i__ <= i__1; ++i__) { ... }
//! ```
//!
//! A state kept from call to call is refused where the derivative cannot share it
//! (a function writing it used in an expression, a checkpointed adjoint reading it), so such
//! routines were refused though nothing of one call reaches the next. A scalar `static`
//! local is automatic when every call writes it before anything reads it: the first
//! statement of the function's top level that names it assigns it (`v = e`, or a `for`
//! initialiser `v = e`) with a value that does not read it. Not when the function has a
//! label or a jump (a `goto` could pass the assignment), nor when it may call itself (a
//! recursive call between the write and a read would change the value read), nor when its
//! address is taken anywhere (`&v` may outlive the call).

use crate::ir::*;
use crate::visit::{expr_children, stmt_children};
use std::collections::{HashMap, HashSet};

/// Makes automatic the stateless `static` locals of every C function (see the module doc).
pub fn automatic_statics(prog: &mut Program) {
    let units = prog.units_with_body(Lang::C);
    let calls = callees(prog);
    for id in units {
        if reaches(&calls, id, id) {
            continue;
        }
        let stateless = stateless_statics(&prog.units[id], prog);
        if stateless.is_empty() {
            continue;
        }
        let decls: Vec<StmtId> = all_statements(&prog.units[id]);
        for s in decls {
            let StmtKind::Decl(Decl::Var(v)) = &mut prog.units[id].stmts[s].kind else {
                continue;
            };
            if !v.entities.is_empty() && v.entities.iter().all(|e| stateless.contains(&e.sym)) {
                v.attrs
                    .retain(|a| !matches!(a, Attr::Keyword(k) if k == "static"));
                for e in &v.entities {
                    prog.symbols[e.sym].attrs.save = false;
                }
            }
        }
    }
}

/// The `static` scalars declared in `u` that every call writes before reading.
fn stateless_statics(u: &UnitData, prog: &Program) -> HashSet<SymbolId> {
    let all = all_statements(u);
    let mut candidates: HashSet<SymbolId> = HashSet::new();
    for &s in &all {
        match &u.stmts[s].kind {
            StmtKind::Decl(Decl::Var(v))
                if v.attrs
                    .iter()
                    .any(|a| matches!(a, Attr::Keyword(k) if k == "static")) =>
            {
                for e in &v.entities {
                    let scalar = prog.symbols[e.sym]
                        .ty
                        .as_ref()
                        .is_some_and(|t| t.dims.is_empty());
                    if scalar
                        && e.dims.is_none()
                        && !e.derived.iter().any(|d| matches!(d, DeclOp::Array(_)))
                    {
                        candidates.insert(e.sym);
                    }
                }
            }
            StmtKind::Goto(_) | StmtKind::ComputedGoto { .. } => return HashSet::new(),
            _ if u.stmts[s].label.is_some() => return HashSet::new(),
            _ => {}
        }
    }
    let mut stateless = HashSet::new();
    // Not a variable whose address is taken anywhere (`gk = &k` after the write: the
    // address outlives the call).
    for (_, e) in u.exprs.iter() {
        if let Expr::Unary {
            op: UnOp::AddrOf,
            arg,
        } = e
        {
            if let Expr::Name(v) = u.exprs[*arg] {
                candidates.remove(&v);
            }
        }
    }
    if candidates.is_empty() {
        return stateless;
    }
    // The top level in order: the first statement naming a candidate decides it.
    let mut undecided = candidates;
    for &s in &u.body {
        if undecided.is_empty() {
            break;
        }
        match &u.stmts[s].kind {
            // Its own declaration (the initialiser a static gets once) decides nothing.
            StmtKind::Decl(Decl::Var(v))
                if v.entities.iter().any(|e| undecided.contains(&e.sym)) =>
            {
                continue
            }
            StmtKind::Assign { lhs, op: None, rhs } => {
                write_first(u, *lhs, &[*rhs], &mut undecided, &mut stateless);
                continue;
            }
            StmtKind::CFor { init: Some(i), .. } => {
                if let StmtKind::Assign { lhs, op: None, rhs } = &u.stmts[*i].kind {
                    write_first(u, *lhs, &[*rhs], &mut undecided, &mut stateless);
                }
            }
            _ => {}
        }
        // Anything else naming a candidate reads it (or may), or writes only part of it.
        let named = named_in_stmt(u, s);
        undecided.retain(|v| !named.contains(v));
    }
    stateless
}

/// `lhs = value`: a candidate `lhs` not read by `value` is written first; candidates read by
/// `value` are read first.
fn write_first(
    u: &UnitData,
    lhs: ExprId,
    values: &[ExprId],
    undecided: &mut HashSet<SymbolId>,
    stateless: &mut HashSet<SymbolId>,
) {
    let mut read = HashSet::new();
    for &v in values {
        named_in_expr(u, v, &mut read);
    }
    // A target that is not a plain variable reads what it names (`y[k] = …`, `*p = …`).
    if !matches!(u.exprs[lhs], Expr::Name(_)) {
        named_in_expr(u, lhs, &mut read);
    }
    undecided.retain(|v| !read.contains(v));
    if let Expr::Name(v) = u.exprs[lhs] {
        if undecided.remove(&v) {
            stateless.insert(v);
        }
    }
}

fn named_in_expr(u: &UnitData, e: ExprId, out: &mut HashSet<SymbolId>) {
    let mut stack = vec![e];
    while let Some(x) = stack.pop() {
        if let Expr::Name(v) = u.exprs[x] {
            out.insert(v);
        }
        expr_children(&u.exprs[x], &mut |k| stack.push(k));
    }
}

/// Every symbol named in `s` and the statements nested in it.
fn named_in_stmt(u: &UnitData, s: StmtId) -> HashSet<SymbolId> {
    let mut out = HashSet::new();
    let mut stack = vec![s];
    while let Some(t) = stack.pop() {
        let mut exprs = Vec::new();
        stmt_children(&u.stmts[t].kind, &mut |e| exprs.push(e), &mut |c| {
            stack.push(c)
        });
        for e in exprs {
            named_in_expr(u, e, &mut out);
        }
    }
    out
}

/// Every statement of `u`, nested ones included.
fn all_statements(u: &UnitData) -> Vec<StmtId> {
    let mut out = Vec::new();
    let mut stack: Vec<StmtId> = u.body.clone();
    while let Some(s) = stack.pop() {
        out.push(s);
        stmt_children(&u.stmts[s].kind, &mut |_| {}, &mut |c| stack.push(c));
    }
    out
}

/// The units each unit calls by name (a call through a pointer names no unit: a function
/// whose address is taken counts as called by every function that takes it).
fn callees(prog: &Program) -> HashMap<UnitId, HashSet<UnitId>> {
    let mut out: HashMap<UnitId, HashSet<UnitId>> = HashMap::new();
    for (id, u) in prog.units.iter() {
        let set = out.entry(id).or_default();
        for (_, e) in u.exprs.iter() {
            if let Expr::Name(s) = e {
                if let Some(c) = prog.symbols[*s].unit {
                    set.insert(c);
                }
            }
        }
    }
    out
}

/// Whether `to` is reachable from `from` through one call or more.
fn reaches(calls: &HashMap<UnitId, HashSet<UnitId>>, from: UnitId, to: UnitId) -> bool {
    let mut seen = HashSet::new();
    let mut stack: Vec<UnitId> = calls.get(&from).into_iter().flatten().copied().collect();
    while let Some(c) = stack.pop() {
        if c == to {
            return true;
        }
        if seen.insert(c) {
            stack.extend(calls.get(&c).into_iter().flatten().copied());
        }
    }
    false
}
