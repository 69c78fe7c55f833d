//! Loop-invariant calls of pure functions leave their loop, before the analyses (issue 47;
//! Enzyme's lesson, `papers/enzyme-poster.txt`: differentiate optimised code).
//!
//! `for (i = 0; i < n; i++) out[i] = in[i] / mag(in, n);` becomes
//! `if (0 < n) mag_val = mag(in, n); for (…) out[i] = in[i] / mag_val;`: the forward sweep
//! calls `mag` once instead of n times, and the backward sweep calls `mag_b` once (after the
//! loop's reversal has accumulated the adjoint of `mag_val`) instead of `mag_nodiff` and
//! `mag_b` in every iteration — O(n) instead of O(n²).
//!
//! A call moves when
//! - the callee is a function of the program without side effects that reads nothing but its
//!   arguments (`pure`, given by the caller: the dataflow's purity, and no global read here),
//!   with a scalar integer, real or logical result;
//! - the loop is a Fortran DO with no step or a literal one, or a C `for (i = a; i OP b; …)`:
//!   the hoisted call runs under the loop's first test (`if (a OP b)`), so a loop that runs
//!   no iteration evaluates nothing it did not (a `sqrt` of a negative bound would give a
//!   NaN partial that a zero adjoint times NaN spreads);
//! - the loop calls no subroutine and no function with effects, has no pointer assignment or
//!   statement radtap does not see through, and writes none of the variables the call's
//!   arguments name; in C an array argument is a pointer nothing in the loop writes through
//!   unless both that pointer and each one written through are `restrict` (or local arrays).
//!
//! Identical calls of one loop share one temporary. Turned off by `-nooptim hoistinvariant`.

use crate::ir::*;
use crate::visit::{expr_children, same_expr, stmt_children};
use std::collections::{HashMap, HashSet};

/// Whether the program has a function with a body and a loop somewhere: what the pass could
/// act on (the purity it needs builds a call graph: not for straight-line code).
pub fn worth_trying(prog: &Program) -> bool {
    let function = prog
        .units
        .iter()
        .any(|(_, u)| u.kind == UnitKind::Function && !u.body.is_empty());
    function
        && prog.units.iter().any(|(_, u)| {
            u.stmts
                .iter()
                .any(|(_, s)| matches!(s.kind, StmtKind::Do { .. } | StmtKind::CFor { .. }))
        })
}

/// Moves loop-invariant calls of the functions `pure` out of their loops in every unit;
/// returns how many calls moved.
pub fn hoist_invariant_calls(prog: &mut Program, pure: &HashSet<UnitId>) -> usize {
    let callees = pure_callees(prog, pure);
    if callees.is_empty() {
        return 0;
    }
    let mut moved = 0;
    let units: Vec<UnitId> = prog
        .units
        .iter()
        .filter(|(_, u)| !u.body.is_empty())
        .map(|(id, _)| id)
        .collect();
    for uid in units {
        let body = std::mem::take(&mut prog.units[uid].body);
        let body = rewrite_block(prog, uid, body, &callees, &mut moved);
        prog.units[uid].body = body;
    }
    moved
}

/// The functions of `pure` with a scalar integer, real or logical result that read nothing but
/// their arguments, by name (C exact, Fortran lower case).
pub fn pure_callees(prog: &Program, pure: &HashSet<UnitId>) -> HashMap<String, UnitId> {
    let mut callees: HashMap<String, UnitId> = HashMap::new();
    for &f in pure {
        let u = &prog.units[f];
        let (Some(n), Some(r)) = (u.name, u.result) else {
            continue;
        };
        let scalar = prog.symbols[r].ty.as_ref().is_some_and(|t| {
            t.dims.is_empty()
                && t.pointers == 0
                && matches!(
                    t.base,
                    BaseClass::Real | BaseClass::Integer | BaseClass::Logical
                )
        });
        if scalar && reads_only_arguments(prog, f) {
            callees.insert(key(u.lang, &prog.symbols[n].spelling), f);
        }
    }
    callees
}

pub(crate) fn key(lang: Lang, s: &str) -> String {
    match lang {
        Lang::Fortran => s.to_ascii_lowercase(),
        Lang::C => s.to_string(),
    }
}

/// Whether function `f` names no variable outside its own scope (a module variable, COMMON
/// member, C global), so its value depends on its arguments alone.
pub(crate) fn reads_only_arguments(prog: &Program, f: UnitId) -> bool {
    let u = &prog.units[f];
    let own = |s: SymbolId| {
        let d = &prog.symbols[s];
        if matches!(
            d.kind,
            SymbolKind::Procedure | SymbolKind::Intrinsic | SymbolKind::Generic
        ) {
            return true;
        }
        if d.attrs.constant {
            return true;
        }
        // Its own scope, or a C block scope inside it.
        let mut sc = Some(d.scope);
        while let Some(x) = sc {
            if x == u.scope {
                return d.common.is_none();
            }
            sc = match prog.scopes[x].kind {
                ScopeKind::Block => prog.scopes[x].parent,
                _ => None,
            };
        }
        false
    };
    u.exprs.iter().all(|(_, e)| match e {
        Expr::Name(s) => own(*s),
        _ => true,
    })
}

/// Rewrites the loops of `block` (innermost first), inserting the hoisted calls before each.
fn rewrite_block(
    prog: &mut Program,
    uid: UnitId,
    block: Block,
    callees: &HashMap<String, UnitId>,
    moved: &mut usize,
) -> Block {
    let mut out = Vec::with_capacity(block.len());
    for s in block {
        // Nested blocks first.
        let n = blocks_mut(&mut prog.units[uid].stmts[s].kind).len();
        for k in 0..n {
            let inner = std::mem::take(blocks_mut(&mut prog.units[uid].stmts[s].kind)[k]);
            let inner = rewrite_block(prog, uid, inner, callees, moved);
            *blocks_mut(&mut prog.units[uid].stmts[s].kind)[k] = inner;
        }
        if prog.units[uid].stmts[s].label.is_none() {
            if let Some((pre, n)) = hoist_from_loop(prog, uid, s, callees) {
                *moved += n;
                out.extend(pre);
            }
        }
        out.push(s);
    }
    out
}

pub(crate) fn blocks_mut(k: &mut StmtKind) -> Vec<&mut Block> {
    match k {
        StmtKind::If {
            arms, else_block, ..
        } => {
            let mut v: Vec<&mut Block> = arms.iter_mut().map(|(_, b)| b).collect();
            v.extend(else_block.as_mut());
            v
        }
        StmtKind::Do { body, .. }
        | StmtKind::While { body, .. }
        | StmtKind::Loop { body }
        | StmtKind::CFor { body, .. }
        | StmtKind::DoWhile { body, .. } => vec![body],
        StmtKind::Select { cases, .. } => cases.iter_mut().map(|c| &mut c.body).collect(),
        _ => Vec::new(),
    }
}

/// What a loop writes: variables (assigned, a counter, passed where they may be written) and
/// the pointers written through (`p[i] = …`, `*p = …`); `opaque` when it does something this
/// pass does not follow.
#[derive(Default)]
pub(crate) struct Writes {
    pub(crate) vars: HashSet<SymbolId>,
    pub(crate) through: HashSet<SymbolId>,
    pub(crate) opaque: bool,
}

/// The first test of loop `s` as a new expression (`a OP b` of `for (i = a; i OP b; …)`,
/// `start <= end` of a DO), if the loop has one this pass understands.
pub(crate) fn first_test(prog: &mut Program, uid: UnitId, s: StmtId) -> Option<ExprId> {
    let u = &prog.units[uid];
    let (lhs, op, rhs) = match &u.stmts[s].kind {
        StmtKind::Do {
            start, end, step, ..
        } => {
            let up = match step {
                None => true,
                Some(st) => match literal_int(u, *st)? {
                    k if k > 0 => true,
                    k if k < 0 => false,
                    _ => return None,
                },
            };
            (
                *start,
                if up {
                    BinOp::Le(RelSpell::Symbol)
                } else {
                    BinOp::Ge(RelSpell::Symbol)
                },
                *end,
            )
        }
        StmtKind::CFor {
            init: Some(init),
            cond: Some(cond),
            ..
        } => {
            let (var, value) = match &u.stmts[*init].kind {
                StmtKind::Assign {
                    lhs, op: None, rhs, ..
                } => (name_of(u, *lhs)?, *rhs),
                StmtKind::Decl(Decl::Var(v)) if v.entities.len() == 1 => {
                    match &v.entities[0].init {
                        Some(Init::Expr(e)) => (v.entities[0].sym, *e),
                        _ => return None,
                    }
                }
                _ => return None,
            };
            let Expr::Binary { op, lhs, rhs } = &u.exprs[*cond] else {
                return None;
            };
            if !matches!(
                op,
                BinOp::Lt(_) | BinOp::Le(_) | BinOp::Gt(_) | BinOp::Ge(_) | BinOp::Ne(_)
            ) || name_of(u, *lhs) != Some(var)
            {
                return None;
            }
            (value, *op, *rhs)
        }
        _ => return None,
    };
    let u = &mut prog.units[uid];
    let (l, r) = (u.deep_copy(lhs), u.deep_copy(rhs));
    Some(u.exprs.alloc(Expr::Binary { op, lhs: l, rhs: r }))
}

pub(crate) fn literal_int(u: &UnitData, e: ExprId) -> Option<i64> {
    match &u.exprs[e] {
        Expr::Literal(l) if l.kind == LitKind::Int => l.text.parse().ok(),
        Expr::Unary {
            op: UnOp::Neg, arg, ..
        } => literal_int(u, *arg).map(|v| -v),
        Expr::Paren(a) => literal_int(u, *a),
        _ => None,
    }
}

pub(crate) fn name_of(u: &UnitData, e: ExprId) -> Option<SymbolId> {
    match &u.exprs[e] {
        Expr::Name(s) => Some(*s),
        Expr::Paren(a) => name_of(u, *a),
        _ => None,
    }
}

/// The variable an assignment target or actual argument names (`a`, `a(i)`, `a%b`), and
/// whether it is written through a pointer (`p[i]`, `*p`, `p->x`).
pub(crate) fn target_of(prog: &Program, u: &UnitData, e: ExprId) -> Option<(SymbolId, bool)> {
    match &u.exprs[e] {
        Expr::Name(s) => Some((*s, false)),
        Expr::Paren(a) => target_of(prog, u, *a),
        Expr::Index { base, .. } | Expr::Field { base, .. } => {
            let (s, through) = target_of(prog, u, *base)?;
            let ptr =
                u.lang == Lang::C && prog.symbols[s].ty.as_ref().is_some_and(|t| t.pointers > 0);
            Some((s, through || ptr))
        }
        Expr::Unary {
            op: UnOp::Deref,
            arg,
        } => Some((target_of(prog, u, *arg)?.0, true)),
        _ => None,
    }
}

/// What the statements of `block` write.
pub(crate) fn loop_writes(
    prog: &Program,
    u: &UnitData,
    block: &[StmtId],
    callees: &HashMap<String, UnitId>,
    w: &mut Writes,
) {
    for &s in block {
        let k = &u.stmts[s].kind;
        match k {
            StmtKind::Assign { lhs, .. } => match target_of(prog, u, *lhs) {
                Some((v, true)) => {
                    w.through.insert(v);
                }
                Some((v, false)) => {
                    w.vars.insert(v);
                }
                None => w.opaque = true,
            },
            StmtKind::Do { var, .. } => match name_of(u, *var) {
                Some(v) => {
                    w.vars.insert(v);
                }
                None => w.opaque = true,
            },
            StmtKind::CFor { init, step, .. } => {
                if let Some(i) = init {
                    loop_writes(prog, u, &[*i], callees, w);
                }
                if let Some(st) = step {
                    // `i++`, `i += 2`: every name there may be written.
                    names_in(u, *st, &mut |v| {
                        w.vars.insert(v);
                    });
                }
            }
            StmtKind::Decl(Decl::Var(v)) => {
                for e in &v.entities {
                    w.vars.insert(e.sym);
                }
            }
            StmtKind::If { .. }
            | StmtKind::While { .. }
            | StmtKind::Loop { .. }
            | StmtKind::DoWhile { .. }
            | StmtKind::Select { .. }
            | StmtKind::Continue
            | StmtKind::Empty
            | StmtKind::Exit(_)
            | StmtKind::Cycle(_)
            | StmtKind::Break
            | StmtKind::CContinue => {}
            _ => w.opaque = true,
        }
        // Calls anywhere in the statement: only pure functions and intrinsics.
        let mut exprs = Vec::new();
        stmt_children(k, &mut |e| exprs.push(e), &mut |_| {});
        for e in exprs {
            calls_in(prog, u, e, callees, w);
        }
        let mut inner = Vec::new();
        stmt_children(k, &mut |_| {}, &mut |c| inner.push(c));
        if !matches!(k, StmtKind::CFor { .. }) {
            loop_writes(prog, u, &inner, callees, w);
        } else if let StmtKind::CFor { body, .. } = k {
            loop_writes(prog, u, body, callees, w);
        }
    }
}

/// Marks `w` opaque for a call in `e` that is not an intrinsic without effects or a pure
/// function of the program, and for a C assignment or `++` inside an expression.
fn calls_in(
    prog: &Program,
    u: &UnitData,
    e: ExprId,
    callees: &HashMap<String, UnitId>,
    w: &mut Writes,
) {
    match &u.exprs[e] {
        Expr::Call { callee, .. } => {
            let ok = match &u.exprs[*callee] {
                Expr::Name(s) => {
                    let d = &prog.symbols[*s];
                    match d.kind {
                        SymbolKind::Intrinsic => match u.lang {
                            Lang::Fortran => true,
                            Lang::C => matches!(
                                crate::clib::c_library(&d.spelling),
                                Some(crate::clib::CLibrary::Math)
                            ),
                        },
                        _ => callees.contains_key(&key(u.lang, &d.spelling)),
                    }
                }
                _ => false,
            };
            if !ok {
                w.opaque = true;
            }
        }
        Expr::Assign { .. } => w.opaque = true,
        Expr::Unary {
            op: UnOp::AddrOf, ..
        } => w.opaque = true,
        _ => {}
    }
    expr_children(&u.exprs[e], &mut |c| calls_in(prog, u, c, callees, w));
}

pub(crate) fn names_in(u: &UnitData, e: ExprId, f: &mut dyn FnMut(SymbolId)) {
    if let Expr::Name(s) = &u.exprs[e] {
        f(*s);
    }
    expr_children(&u.exprs[e], &mut |c| names_in(u, c, f));
}

/// Whether C pointer parameter or variable `s` is declared `restrict`.
pub(crate) fn restrict(prog: &Program, u: &UnitData, s: SymbolId) -> bool {
    let Some(k) = u.params.iter().position(|&p| p == s) else {
        return false;
    };
    let _ = prog;
    u.c_params.get(k).is_some_and(|p| {
        p.derived
            .iter()
            .any(|o| matches!(o, DeclOp::Pointer(q) if q.iter().any(|x| x == "restrict")))
    })
}

/// Whether the call `e` depends on nothing loop `w` writes.
fn invariant(prog: &Program, u: &UnitData, e: ExprId, w: &Writes) -> bool {
    let mut ok = true;
    names_in(u, e, &mut |s| {
        let d = &prog.symbols[s];
        if matches!(
            d.kind,
            SymbolKind::Procedure | SymbolKind::Intrinsic | SymbolKind::Generic
        ) {
            return;
        }
        if w.vars.contains(&s) || w.through.contains(&s) || d.attrs.pointer || d.attrs.target {
            ok = false;
            return;
        }
        if u.lang == Lang::C {
            let pointer = d.ty.as_ref().is_some_and(|t| t.pointers > 0);
            // Memory read through `s` that a write through another pointer may reach.
            if pointer
                && !w.through.is_empty()
                && !(restrict(prog, u, s) && w.through.iter().all(|&q| restrict(prog, u, q)))
            {
                ok = false;
            }
        }
    });
    ok
}

/// The hoisted calls of loop `s`, as the statements to put before it (C: the temporaries'
/// declarations; then `if (first test) { t = f(…) … }`), with the number of calls replaced;
/// `None` when nothing moves.
fn hoist_from_loop(
    prog: &mut Program,
    uid: UnitId,
    s: StmtId,
    callees: &HashMap<String, UnitId>,
) -> Option<(Vec<StmtId>, usize)> {
    let body = match &prog.units[uid].stmts[s].kind {
        StmtKind::Do { body, .. } | StmtKind::CFor { body, .. } => body.clone(),
        _ => return None,
    };
    let mut w = Writes::default();
    loop_writes(prog, &prog.units[uid], &[s], callees, &mut w);
    if w.opaque {
        return None;
    }
    // The calls to move: outermost first, each once.
    let mut found: Vec<(ExprId, UnitId)> = Vec::new();
    {
        let u = &prog.units[uid];
        let mut stack: Vec<ExprId> = Vec::new();
        let mut stmts = body.clone();
        while let Some(t) = stmts.pop() {
            stmt_children(&u.stmts[t].kind, &mut |e| stack.push(e), &mut |c| {
                stmts.push(c)
            });
        }
        while let Some(e) = stack.pop() {
            if let Expr::Call { callee, .. } = &u.exprs[e] {
                let f = match &u.exprs[*callee] {
                    Expr::Name(n) => callees.get(&key(u.lang, &prog.symbols[*n].spelling)),
                    _ => None,
                };
                if let Some(&f) = f {
                    if invariant(prog, u, e, &w) {
                        found.push((e, f));
                        continue;
                    }
                }
            }
            expr_children(&u.exprs[e], &mut |c| stack.push(c));
        }
    }
    if found.is_empty() {
        return None;
    }
    let test = first_test(prog, uid, s)?;
    let mut assigns = Vec::new();
    let mut decls = Vec::new();
    let mut temps: Vec<(ExprId, SymbolId)> = Vec::new();
    let count = found.len();
    for (e, f) in found {
        let same = temps
            .iter()
            .find(|(x, _)| same_expr(&prog.units[uid], *x, e))
            .map(|&(_, t)| t);
        let t = match same {
            Some(t) => t,
            None => {
                let t = temporary(prog, uid, f, &mut decls)?;
                // The call moves to the new assignment; its node becomes the temporary.
                let u = &mut prog.units[uid];
                let value = u.exprs[e].clone();
                let call = u.exprs.alloc(value);
                if let Some(sp) = u.source_map.expr.get(e).copied() {
                    u.source_map.expr.insert(call, sp);
                }
                let span = u.source_map.stmt.get(s).copied();
                assigns.push(u.assign_var(t, call, span));
                temps.push((call, t));
                t
            }
        };
        prog.units[uid].exprs[e] = Expr::Name(t);
    }
    decls.extend(guarded(prog, uid, s, test, assigns));
    Some((decls, count))
}

/// `assigns` under the first test `test` of loop `s` (`if (test) { … }`), or as they are when
/// the test is between integer literals and holds (`do j = 1, 2`).
pub(crate) fn guarded(
    prog: &mut Program,
    uid: UnitId,
    s: StmtId,
    test: ExprId,
    assigns: Vec<StmtId>,
) -> Vec<StmtId> {
    let u = &mut prog.units[uid];
    if let Expr::Binary { op, lhs, rhs } = u.exprs[test].clone() {
        if let (Some(a), Some(b)) = (literal_int(u, lhs), literal_int(u, rhs)) {
            let holds = match op {
                BinOp::Lt(_) => a < b,
                BinOp::Le(_) => a <= b,
                BinOp::Gt(_) => a > b,
                BinOp::Ge(_) => a >= b,
                _ => a != b,
            };
            if holds {
                return assigns;
            }
        }
    }
    let span = u.source_map.stmt.get(s).copied();
    let braces = vec![u.lang == Lang::C];
    let guard = u.new_stmt(
        StmtKind::If {
            arms: vec![(test, assigns)],
            else_block: None,
            logical: false,
            braces,
        },
        span,
    );
    vec![guard]
}

/// A new local of unit `uid` for the result of function `f`, declared with the result's type
/// (C: by a declaration statement pushed on `stmts`).
fn temporary(
    prog: &mut Program,
    uid: UnitId,
    f: UnitId,
    stmts: &mut Vec<StmtId>,
) -> Option<SymbolId> {
    let fu = &prog.units[f];
    let r = fu.result?;
    let ty = prog.symbols[r].ty.clone()?;
    let base = format!("{}_val", prog.symbols[fu.name?].spelling);
    let lang = prog.units[uid].lang;
    let spec = match lang {
        Lang::C => fu.header_type.clone()?,
        Lang::Fortran => {
            let bytes = ty.bytes?;
            let (class, keyword) = match ty.base {
                BaseClass::Real => (BaseClass::Real, "real"),
                BaseClass::Integer => (BaseClass::Integer, "integer"),
                BaseClass::Logical => (BaseClass::Logical, "logical"),
                _ => return None,
            };
            let u = &mut prog.units[uid];
            let k = u.int_literal(bytes as i64);
            TypeSpec {
                class,
                keyword: keyword.into(),
                name: None,
                kind: KindSel::Paren(k),
                char_len: None,
                bytes: Some(bytes),
                qualifiers: Vec::new(),
                inline_def: None,
            }
        }
    };
    let mut spec = spec;
    spec.qualifiers.retain(|q| q != "static" && q != "inline");
    let scope = prog.units[uid].scope;
    let t = prog.add_fresh_variable(scope, &base, Some(ty));
    let u = &mut prog.units[uid];
    let decl = Decl::var(VarDecl {
        spec,
        attrs: Vec::new(),
        entities: vec![Entity {
            sym: t,
            dims: None,
            char_len: None,
            derived: Vec::new(),
            init: None,
        }],
        double_colon: lang == Lang::Fortran,
    });
    if lang == Lang::C {
        stmts.push(u.new_stmt(StmtKind::Decl(decl), None));
        return Some(t);
    }
    let at = u
        .decls
        .iter()
        .rposition(|d| matches!(d, Decl::Var(_)))
        .map_or(u.decls.len(), |i| i + 1);
    u.decls.insert(at, decl);
    Some(t)
}
