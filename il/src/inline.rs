//! Small helper functions inlined where loops call them, before the analyses (issue 47):
//!
//! ```c
//! static double sq(double t) { return t * t; }
//! for (i = 0; i < n; i++) s += w[i] * sq(x[i] - c);  →  s += w[i] * ((x[i] - c) * (x[i] - c));
//! ```
//!
//! is not written (`x[i] - c` is used twice and is not a plain reference: not inlined), but
//! `sq(x[i])` becomes `(x[i] * x[i])`. The adjoint then differentiates the expression in
//! place instead of calling `sq_b` (and the forward sweep `sq`) in every iteration, and the
//! other passes (`il::invariant_expr`, `il::cse`) see through it.
//!
//! A helper is a function whose body is one statement, C `return E;` / Fortran
//! `f = E` (its result variable), with a `double` / `real(8)` result, whose value `E`
//! (`valexpr::Cx::real8`) names nothing but its parameters and calls no function (a math
//! function's partial is better taken from the call's stored result, as the adjoint does
//! for `sigmoid`: inlined, ADBench's LSTM recomputed `exp` in the backward sweep). Its
//! parameters are scalars passed as `double` / `real(8)` or integers, or C pointers to
//! `double` (read by element), never Fortran arrays, optional or pointer dummies. A call is
//! inlined when it is inside a loop, in a unit of the same language, with one actual per
//! parameter (no keywords) of exactly the parameter's type (`double` for `double`, an integer
//! of the same size for an integer, a `double` pointer or array named for a pointer), so no
//! conversion is lost; a parameter used more than once needs a plain actual (a name, a
//! literal, an element with plain subscripts), so nothing is computed twice. The inlined
//! value is parenthesised, and so is each actual that is not plain. Turned off by
//! `-nooptim inlinehelpers`.

use crate::invariant::key;
use crate::ir::*;
use crate::valexpr::{untouchable, Cx};
use crate::visit::{expr_children, stmt_children};
use std::collections::HashMap;

/// A helper: its value and parameters.
struct Helper {
    unit: UnitId,
    value: ExprId,
    params: Vec<SymbolId>,
    /// How many times `value` names each parameter.
    uses: Vec<usize>,
    /// The math functions `value` calls.
    intrinsics: Vec<SymbolId>,
}

/// Inlines the calls of small helper functions inside loops of every unit; returns how many
/// calls were inlined.
pub fn inline_small_functions(prog: &mut Program) -> usize {
    let helpers = helpers(prog);
    if helpers.is_empty() {
        return 0;
    }
    let mut count = 0;
    let units: Vec<UnitId> = prog
        .units
        .iter()
        .filter(|(_, u)| !u.body.is_empty() && !untouchable(u))
        .map(|(id, _)| id)
        .collect();
    for uid in units {
        let body = prog.units[uid].body.clone();
        walk(prog, uid, &body, false, &helpers, &mut count);
    }
    count
}

fn scalar(t: &Type, base: BaseClass) -> bool {
    t.base == base && t.dims.is_empty() && t.pointers == 0
}

/// The helpers of the program, by name (C exact, Fortran lower case); a name two units
/// share names none.
fn helpers(prog: &Program) -> HashMap<String, Helper> {
    let mut out = HashMap::new();
    let mut seen: HashMap<String, usize> = HashMap::new();
    for (_, u) in prog.units.iter() {
        if let Some(n) = u.name {
            *seen
                .entry(key(u.lang, &prog.symbols[n].spelling))
                .or_default() += 1;
        }
    }
    let none = HashMap::new();
    for (id, u) in prog.units.iter() {
        let (Some(n), Some(r)) = (u.name, u.result) else {
            continue;
        };
        if u.kind != UnitKind::Function || u.body.len() != 1 || untouchable(u) {
            continue;
        }
        let name = key(u.lang, &prog.symbols[n].spelling);
        if seen.get(&name) != Some(&1) {
            continue;
        }
        let value = match (&u.stmts[u.body[0]].kind, u.lang) {
            (StmtKind::Return(Some(e)), Lang::C) => *e,
            (StmtKind::Assign { lhs, op: None, rhs }, Lang::Fortran) if matches!(u.exprs[*lhs], Expr::Name(s) if s == r) => {
                *rhs
            }
            _ => continue,
        };
        if u.stmts[u.body[0]].label.is_some()
            || !prog.symbols[r]
                .ty
                .as_ref()
                .is_some_and(|t| scalar(t, BaseClass::Real) && t.bytes == Some(8))
        {
            continue;
        }
        let params_ok = u.params.iter().all(|&p| {
            let d = &prog.symbols[p];
            let Some(t) = d.ty.as_ref() else {
                return false;
            };
            if d.attrs.optional || d.attrs.pointer || d.attrs.allocatable || d.attrs.target {
                return false;
            }
            let real8 = t.base == BaseClass::Real && t.bytes == Some(8);
            let int = t.base == BaseClass::Integer && t.bytes.is_some();
            let c_pointer = u.lang == Lang::C && real8 && t.pointers == 1 && t.dims.is_empty();
            (t.dims.is_empty() && t.pointers == 0 && (real8 || int)) || c_pointer
        });
        if !params_ok {
            continue;
        }
        // Nothing but parameters and smooth math functions.
        let cx = Cx::new(prog, u, &none);
        let mut uses = vec![0; u.params.len()];
        let mut intrinsics = Vec::new();
        let mut ok = cx.real8(value);
        let mut todo = vec![value];
        while let Some(x) = todo.pop() {
            match &u.exprs[x] {
                Expr::Name(s) => match u.params.iter().position(|p| p == s) {
                    Some(k) => uses[k] += 1,
                    // A math function: not inlined. The adjoint reuses a helper call's
                    // stored result for its partial (`sigmoid`'s from its value, issue 47),
                    // which the inlined `exp` would recompute (ADBench LSTM 0.79 -> 0.83).
                    None => {
                        ok = false;
                        intrinsics.push(*s);
                    }
                },
                Expr::Literal(_)
                | Expr::Paren(_)
                | Expr::Unary { .. }
                | Expr::Binary { .. }
                | Expr::Index { .. }
                | Expr::Call { .. } => {}
                _ => ok = false,
            }
            expr_children(&u.exprs[x], &mut |c| todo.push(c));
        }
        if ok {
            out.insert(
                name,
                Helper {
                    unit: id,
                    value,
                    params: u.params.clone(),
                    uses,
                    intrinsics,
                },
            );
        }
    }
    out
}

/// Inlines the calls in the statements of `block` (and their blocks) that are inside a loop.
fn walk(
    prog: &mut Program,
    uid: UnitId,
    block: &[StmtId],
    in_loop: bool,
    helpers: &HashMap<String, Helper>,
    count: &mut usize,
) {
    for &s in block {
        let kind = &prog.units[uid].stmts[s].kind;
        let looping = in_loop
            || matches!(
                kind,
                StmtKind::Do { .. }
                    | StmtKind::CFor { .. }
                    | StmtKind::While { .. }
                    | StmtKind::DoWhile { .. }
                    | StmtKind::Loop { .. }
            );
        let (mut exprs, mut inner) = (Vec::new(), Vec::new());
        stmt_children(kind, &mut |e| exprs.push(e), &mut |c| inner.push(c));
        if in_loop {
            for e in exprs {
                inline_in(prog, uid, e, helpers, count);
            }
        }
        walk(prog, uid, &inner, looping, helpers, count);
    }
}

/// Inlines the helper calls in `e`, innermost first.
fn inline_in(
    prog: &mut Program,
    uid: UnitId,
    e: ExprId,
    helpers: &HashMap<String, Helper>,
    count: &mut usize,
) {
    let mut kids = Vec::new();
    expr_children(&prog.units[uid].exprs[e], &mut |c| kids.push(c));
    for c in kids {
        inline_in(prog, uid, c, helpers, count);
    }
    let u = &prog.units[uid];
    let Expr::Call { callee, args } = &u.exprs[e] else {
        return;
    };
    let Expr::Name(f) = u.exprs[*callee] else {
        return;
    };
    if !matches!(
        prog.symbols[f].kind,
        SymbolKind::Procedure | SymbolKind::Unknown
    ) {
        return;
    }
    let Some(h) = helpers.get(&key(u.lang, &prog.symbols[f].spelling)) else {
        return;
    };
    if h.unit == uid || prog.units[h.unit].lang != u.lang || args.len() != h.params.len() {
        return;
    }
    if args.iter().any(|a| a.keyword.is_some()) {
        return;
    }
    let args: Vec<ExprId> = args.iter().map(|a| a.value).collect();
    // A math function the helper calls must not be a variable of this unit.
    let shadowed = h.intrinsics.iter().any(|&s| {
        let k = key(u.lang, &prog.symbols[s].spelling);
        prog.lookup(u.scope, &k)
            .is_some_and(|x| prog.symbols[x].kind != SymbolKind::Intrinsic)
    });
    if shadowed {
        return;
    }
    let none = HashMap::new();
    let cx = Cx::new(prog, u, &none);
    for (k, &a) in args.iter().enumerate() {
        let p = prog.symbols[h.params[k]].ty.as_ref().expect("checked");
        let fits = if p.pointers == 1 {
            matches!(u.exprs[a], Expr::Name(s) if prog.symbols[s].ty.as_ref().is_some_and(|t| {
                t.base == BaseClass::Real && t.bytes == Some(8) && t.pointers + t.dims.len() as u32 == 1
            }))
        } else if p.base == BaseClass::Real {
            cx.real8(a)
        } else {
            cx.int(a) && int_bytes(prog, u, a).is_none_or(|b| Some(b) == p.bytes)
        };
        if !fits || (h.uses[k] > 1 && !plain(u, a)) {
            return;
        }
    }
    // The value, copied into this unit with each parameter replaced by its actual.
    let value = copy_in(prog, uid, h, h.value, &args);
    let u = &mut prog.units[uid];
    u.exprs[e] = Expr::Paren(value);
    *count += 1;
}

/// The size of the integers an integer expression names (`None`: literals only); an
/// expression mixing sizes is given size 0 (fits nothing).
fn int_bytes(prog: &Program, u: &UnitData, e: ExprId) -> Option<u32> {
    let mut size: Option<u32> = None;
    let mut todo = vec![e];
    while let Some(x) = todo.pop() {
        let t = match &u.exprs[x] {
            Expr::Name(s) => prog.symbols[*s].ty.as_ref(),
            Expr::Index { base, .. } => match u.exprs[*base] {
                Expr::Name(s) => prog.symbols[s].ty.as_ref(),
                _ => None,
            },
            _ => None,
        };
        if let Some(t) = t {
            let b = t.bytes.unwrap_or(0);
            if size.is_some_and(|x| x != b) {
                return Some(0);
            }
            size = Some(b);
        }
        if !matches!(u.exprs[x], Expr::Index { .. }) {
            expr_children(&u.exprs[x], &mut |c| todo.push(c));
        }
    }
    size
}

/// A name, a literal, or an element whose subscripts are names and literals.
fn plain(u: &UnitData, e: ExprId) -> bool {
    match &u.exprs[e] {
        Expr::Name(_) | Expr::Literal(_) => true,
        Expr::Index { base, subs } => {
            matches!(u.exprs[*base], Expr::Name(_))
                && subs.iter().all(|s| {
                    matches!(s, Subscript::Index(i)
                        if matches!(u.exprs[*i], Expr::Name(_) | Expr::Literal(_)))
                })
        }
        _ => false,
    }
}

/// Expression `e` of helper `h`, copied into unit `uid` with its parameters replaced by
/// copies of `args` (parenthesised unless plain) and its math functions named in `uid`.
fn copy_in(prog: &mut Program, uid: UnitId, h: &Helper, e: ExprId, args: &[ExprId]) -> ExprId {
    let node = prog.units[h.unit].exprs[e].clone();
    let node = match node {
        Expr::Name(s) => {
            if let Some(k) = h.params.iter().position(|&p| p == s) {
                let u = &mut prog.units[uid];
                let a = u.deep_copy(args[k]);
                return if plain(u, a) || matches!(u.exprs[a], Expr::Paren(_)) {
                    a
                } else {
                    u.exprs.alloc(Expr::Paren(a))
                };
            }
            Expr::Name(local_intrinsic(prog, uid, s))
        }
        mut other => {
            crate::copy::expr_slots(&mut other, &mut |slot| {
                *slot = copy_in(prog, uid, h, *slot, args);
            });
            other
        }
    };
    prog.units[uid].exprs.alloc(node)
}

/// The symbol unit `uid` knows intrinsic `s` by (added to its scope when it has none).
fn local_intrinsic(prog: &mut Program, uid: UnitId, s: SymbolId) -> SymbolId {
    let u = &prog.units[uid];
    let k = key(u.lang, &prog.symbols[s].spelling);
    let scope = u.scope;
    if let Some(x) = prog.lookup(scope, &k) {
        if prog.symbols[x].kind == SymbolKind::Intrinsic {
            return x;
        }
    }
    let mut d = prog.symbols[s].clone();
    d.scope = scope;
    prog.add_symbol(scope, k, d)
}
