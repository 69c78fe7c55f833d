//! Array expressions given as actual arguments for array dummies become temporaries.
//!
//! Before differentiation, `call rhs(n, y + h*k1, rate, k2)` (with `rhs`'s second dummy an
//! array) becomes `arg1 = y + h*k1; call rhs(n, arg1, rate, k2)`, `arg1` a new local array of
//! the caller declared with the shape of `y`. The analyses and both generators then see an
//! ordinary variable at the call: the tangent and adjoint of the assignment are those of any
//! array assignment, and the call passes a variable with a derivative, so the callee's
//! derivative receives the tangent of the expression (and gives back its adjoint) through
//! the argument mapping the modes already have. The same holds for a function reference
//! `f(y + h*k1)` in the value of an assignment or in an actual argument of a call.
//!
//! The shape comes from a whole array of the caller named in the expression's elementwise
//! operands, of the expression's rank: the temporary is declared with that array's bounds,
//! which the caller evaluates on entry for both, so the shapes agree; an assumed-shape array
//! gives `size(y, k)`. An expression with no such operand (only sections, a function
//! result, an allocatable or pointer array), a labelled statement (a jump to it must also
//! run the new assignment, and a labelled DO may end on it) and statements inside WHERE or
//! FORALL (the new assignment would be masked) are left as they are: the generators refuse
//! them with a located AD020, never differentiate them as if inactive.

use crate::ir::*;
use crate::visit::expr_children;
use crate::{Diagnostic, Directive};

/// Rewrites every array expression given for an array dummy of a procedure of the program
/// into a temporary assigned just before the statement (Fortran units only).
pub fn hoist_array_actuals(prog: &mut Program) -> Vec<Diagnostic> {
    let units: Vec<UnitId> = prog
        .units
        .iter()
        .filter(|(_, u)| {
            u.lang == Lang::Fortran
                && matches!(
                    u.kind,
                    UnitKind::Subroutine | UnitKind::Function | UnitKind::Program
                )
        })
        .map(|(id, _)| id)
        .collect();
    for u in units {
        let body = prog.units[u].body.clone();
        let body = hoist_block(prog, u, body);
        prog.units[u].body = body;
    }
    Vec::new()
}

fn hoist_block(prog: &mut Program, u: UnitId, block: Block) -> Block {
    let mut out = Vec::with_capacity(block.len());
    for s in block {
        let mut kind = prog.units[u].stmts[s].kind.clone();
        let mut nested = true;
        match &mut kind {
            StmtKind::If {
                arms,
                else_block,
                logical,
                ..
            } => {
                for (_, b) in arms.iter_mut() {
                    *b = hoist_block(prog, u, std::mem::take(b));
                }
                if let Some(b) = else_block {
                    *b = hoist_block(prog, u, std::mem::take(b));
                }
                // A logical IF holds one statement: one that grew is a block IF.
                if arms.iter().any(|(_, b)| b.len() > 1) {
                    *logical = false;
                }
            }
            StmtKind::Do { body, .. }
            | StmtKind::While { body, .. }
            | StmtKind::Loop { body }
            | StmtKind::Block { body, .. } => *body = hoist_block(prog, u, std::mem::take(body)),
            StmtKind::Select { cases, .. } => {
                for c in cases.iter_mut() {
                    c.body = hoist_block(prog, u, std::mem::take(&mut c.body));
                }
            }
            _ => nested = false,
        }
        if nested {
            prog.units[u].stmts[s].kind = kind;
            out.push(s);
            continue;
        }
        if prog.units[u].stmts[s].label.is_some() {
            out.push(s);
            continue;
        }
        let sites = actual_sites(prog, u, s);
        let first = out.len();
        for e in sites {
            if let Some(a) = hoist_one(prog, u, s, e) {
                out.push(a);
            }
        }
        if out.len() > first {
            // A region starting at the statement starts at its first new assignment.
            let ud = &mut prog.units[u];
            let (region, own): (Vec<Directive>, Vec<Directive>) =
                std::mem::take(&mut ud.stmts[s].directives)
                    .into_iter()
                    .partition(|d| d.kind.is_region());
            ud.stmts[s].directives = own;
            ud.stmts[out[first]].directives = region;
        }
        out.push(s);
    }
    out
}

/// The actual arguments of statement `s` that are array expressions for array dummies.
fn actual_sites(prog: &Program, u: UnitId, s: StmtId) -> Vec<ExprId> {
    let ud = &prog.units[u];
    let mut calls: Vec<(ExprId, Vec<Arg>)> = Vec::new();
    let mut roots = Vec::new();
    match &ud.stmts[s].kind {
        StmtKind::Call { callee, args, .. } => {
            calls.push((*callee, args.clone()));
            roots.extend(args.iter().map(|a| a.value));
        }
        StmtKind::Assign { rhs, op: None, .. } => roots.push(*rhs),
        _ => return Vec::new(),
    }
    // Function references anywhere below the values.
    let mut stack = roots;
    while let Some(e) = stack.pop() {
        if let Expr::Call { callee, args } = &ud.exprs[e] {
            calls.push((*callee, args.clone()));
        }
        expr_children(&ud.exprs[e], &mut |k| stack.push(k));
    }
    let mut out = Vec::new();
    for (callee, args) in calls {
        let Some(defs) = definitions(prog, ud, callee) else {
            continue;
        };
        for (i, a) in args.iter().enumerate() {
            if matches!(
                ud.exprs[a.value],
                Expr::Name(_) | Expr::Index { .. } | Expr::Field { .. } | Expr::Literal(_)
            ) {
                continue;
            }
            let formal_array = defs.iter().all(|&d| {
                let du = &prog.units[d];
                let f = match &a.keyword {
                    Some(k) => du
                        .params
                        .iter()
                        .find(|p| prog.symbols[**p].spelling.eq_ignore_ascii_case(k))
                        .copied(),
                    None => du.params.get(i).copied(),
                };
                f.and_then(|f| prog.symbols[f].ty.as_ref())
                    .is_some_and(|t| !t.dims.is_empty() && t.base == BaseClass::Real)
            });
            if formal_array && !out.contains(&a.value) {
                out.push(a.value);
            }
        }
    }
    out
}

/// The units a callee expression of `u` names: its definition, or every unit of that name
/// (interface bodies included) when the symbol does not say; `None` for intrinsics,
/// generics and dummy procedures.
fn definitions(prog: &Program, u: &UnitData, callee: ExprId) -> Option<Vec<UnitId>> {
    let Expr::Name(s) = &u.exprs[callee] else {
        return None;
    };
    let sd = &prog.symbols[*s];
    if sd.kind != SymbolKind::Procedure || sd.attrs.dummy {
        return None;
    }
    if let Some(d) = sd.unit {
        return Some(vec![d]);
    }
    let v: Vec<UnitId> = prog
        .units
        .iter()
        .filter(|(_, du)| {
            du.lang == Lang::Fortran
                && matches!(du.kind, UnitKind::Subroutine | UnitKind::Function)
                && du
                    .name
                    .is_some_and(|n| prog.symbols[n].spelling.eq_ignore_ascii_case(&sd.spelling))
        })
        .map(|(id, _)| id)
        .collect();
    (!v.is_empty()).then_some(v)
}

/// The rank of expression `e` of `u`, when it is known from its elementwise structure.
fn rank(prog: &Program, u: &UnitData, e: ExprId) -> Option<usize> {
    match &u.exprs[e] {
        Expr::Literal(_) => Some(0),
        Expr::Name(s) => {
            let sd = &prog.symbols[*s];
            matches!(sd.kind, SymbolKind::Variable | SymbolKind::Constant)
                .then(|| sd.ty.as_ref().map_or(0, |t| t.dims.len()))
        }
        Expr::Index { base, subs } => {
            let Expr::Name(b) = &u.exprs[*base] else {
                return None;
            };
            if prog.symbols[*b].kind != SymbolKind::Variable {
                return None;
            }
            let mut r = 0;
            for sub in subs {
                r += match sub {
                    Subscript::Range(..) => 1,
                    Subscript::Index(i) => rank(prog, u, *i)?,
                };
            }
            Some(r)
        }
        Expr::Paren(a) | Expr::Unary { arg: a, .. } => rank(prog, u, *a),
        Expr::Binary { lhs, rhs, .. } => Some(rank(prog, u, *lhs)?.max(rank(prog, u, *rhs)?)),
        Expr::Call { .. } => {
            let args = elemental_args(prog, u, e)?;
            let mut r = 0;
            for a in args {
                r = r.max(rank(prog, u, a)?);
            }
            Some(r)
        }
        _ => None,
    }
}

/// The arguments of an elemental intrinsic reference.
fn elemental_args(prog: &Program, u: &UnitData, e: ExprId) -> Option<Vec<ExprId>> {
    let Expr::Call { callee, args } = &u.exprs[e] else {
        return None;
    };
    let r = crate::vocab::routine_called(prog, u, *callee)?;
    (u.lang == Lang::Fortran && r.routine().elemental() && args.iter().all(|a| a.keyword.is_none()))
        .then(|| args.iter().map(|a| a.value).collect())
}

/// A whole real array of `u`, declared in `u`, of rank `r`, among the elementwise operands of
/// `e`: the shape of the expression.
fn shape_source(prog: &Program, u: &UnitData, e: ExprId, r: usize) -> Option<SymbolId> {
    match &u.exprs[e] {
        Expr::Name(s) => {
            let sd = &prog.symbols[*s];
            let t = sd.ty.as_ref()?;
            let ok = sd.kind == SymbolKind::Variable
                && t.base == BaseClass::Real
                && t.dims.len() == r
                && !sd.attrs.allocatable
                && !sd.attrs.pointer
                && t.dims.iter().all(|d| d.upper != DimUpper::Assumed)
                && type_spec_of(u, *s).is_some();
            ok.then_some(*s)
        }
        Expr::Paren(a) | Expr::Unary { arg: a, .. } => shape_source(prog, u, *a, r),
        Expr::Binary { lhs, rhs, .. } => {
            shape_source(prog, u, *lhs, r).or_else(|| shape_source(prog, u, *rhs, r))
        }
        Expr::Call { .. } => elemental_args(prog, u, e)?
            .into_iter()
            .find_map(|a| shape_source(prog, u, a, r)),
        _ => None,
    }
}

/// The type of `s` as `u` declares it.
pub(crate) fn type_spec_of(u: &UnitData, s: SymbolId) -> Option<&TypeSpec> {
    u.decls.iter().find_map(|d| match d {
        Decl::Var(v) if v.entities.iter().any(|e| e.sym == s) => Some(&v.spec),
        _ => None,
    })
}

/// Declares a temporary for actual `e` of statement `s` and returns the assignment to it
/// (the actual then names the temporary); `None` when the shape is not known.
fn hoist_one(prog: &mut Program, uid: UnitId, s: StmtId, e: ExprId) -> Option<StmtId> {
    let (src, spec, dims) = {
        let u = &prog.units[uid];
        let r = rank(prog, u, e).filter(|&r| r > 0)?;
        let src = shape_source(prog, u, e, r)?;
        let spec = type_spec_of(u, src)?.clone();
        let dims = prog.symbols[src].ty.as_ref()?.dims.clone();
        (src, spec, dims)
    };
    let scope = prog.units[uid].scope;
    let mut n = 1;
    let key = loop {
        let k = format!("arg{n}");
        if prog.lookup(scope, &k).is_none() {
            break k;
        }
        n += 1;
    };
    let ty = prog.symbols[src].ty.clone();
    let u = &mut prog.units[uid];
    let mut spec = spec;
    match &mut spec.kind {
        KindSel::Paren(k) | KindSel::Keyword(k) => *k = u.deep_copy(*k),
        KindSel::Default | KindSel::Star(_) => {}
    }
    spec.char_len = None;
    let new_dims: Vec<Dim> = dims
        .iter()
        .enumerate()
        .map(|(k, d)| match d.upper {
            DimUpper::Expr(x) => Dim {
                lower: d.lower.map(|l| u.deep_copy(l)),
                upper: DimUpper::Expr(u.deep_copy(x)),
            },
            _ => {
                // Assumed shape: `size(y, k)`.
                let a = u.exprs.alloc(Expr::Name(src));
                let kk = u.int_literal(k as i64 + 1);
                let call = u.intrinsic_call("size", vec![a, kk]);
                Dim {
                    lower: None,
                    upper: DimUpper::Expr(call),
                }
            }
        })
        .collect();
    let ty = ty.map(|mut t| {
        t.dims = new_dims.clone();
        t
    });
    let data = SymbolData::variable(&key, scope, ty);
    let t = prog.add_symbol(scope, key, data);
    let u = &mut prog.units[uid];
    let decl = Decl::var(VarDecl {
        spec,
        attrs: Vec::new(),
        entities: vec![Entity {
            sym: t,
            dims: Some(new_dims),
            char_len: None,
            derived: Vec::new(),
            init: None,
        }],
        double_colon: true,
    });
    let at = u
        .decls
        .iter()
        .rposition(|d| matches!(d, Decl::Var(_)))
        .map_or(u.decls.len(), |i| i + 1);
    u.decls.insert(at, decl);
    // The actual's node becomes the temporary's name; the expression moves to the new
    // assignment (its sub-expressions keep their ids and spans).
    let value = u.exprs[e].clone();
    let moved = u.exprs.alloc(value);
    if let Some(sp) = u.source_map.expr.get(e).copied() {
        u.source_map.expr.insert(moved, sp);
    }
    u.exprs[e] = Expr::Name(t);
    let lhs = u.exprs.alloc(Expr::Name(t));
    let span = u.source_map.stmt.get(s).copied();
    let kind = StmtKind::Assign {
        lhs,
        op: None,
        rhs: moved,
    };
    Some(u.new_stmt(kind, span))
}
