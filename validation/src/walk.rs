//! The element count of a C pointer parameter the head walks through a copy (Benchmarks
//! Game n-body's `energy`: `for (i = 0, a = bodies; i < nbodies; a++, i++) … a->v[k]`),
//! which the subscript inference ([`crate::extent`]) gives up on: the copy is moved, not
//! indexed.
//!
//! The pattern, checked whole or no count at all: every use of the parameter is the value
//! of a plain assignment (or initialiser) `a = p` of a local pointer; each such local is
//! written only by these and by `a++` / `++a` / `a += 1` stepping a loop (the step of a
//! `for`, or the last statements of the `while` body the `for` is lowered to) whose
//! initialisation (the `for`'s, or the statements just before the `while`) resets it to
//! `p`; it is used only as `a->m`, `*a` or `a[0]`; the loop runs while `i < E` / `i <= E` /
//! `i != E`, `i` set in the same initialisation and stepped by one with `a`, never written
//! in the body, or while `a < p + E` / `a != p + E`. The count is the largest trip count
//! `E - L` (`+ 1` for `<=`) at the integer inputs: a `break` only makes it larger than
//! needed, which is safe for the driver.

use radtap_il::*;
use std::collections::HashMap;

/// What holds an expression.
#[derive(Clone, Copy, PartialEq)]
enum Parent {
    Expr(ExprId),
    Stmt(StmtId),
}

/// The statements and expressions reachable from the unit's body, each expression with
/// its parent (the arena also holds expressions lowering left behind).
struct Reach {
    stmts: Vec<StmtId>,
    exprs: Vec<(ExprId, Parent)>,
}

fn reach(ud: &UnitData) -> Reach {
    let mut r = Reach {
        stmts: Vec::new(),
        exprs: Vec::new(),
    };
    let mut todo: Vec<StmtId> = ud.body.clone();
    let mut ex: Vec<(ExprId, Parent)> = Vec::new();
    while let Some(s) = todo.pop() {
        r.stmts.push(s);
        visit::stmt_children(
            &ud.stmts[s].kind,
            &mut |e| ex.push((e, Parent::Stmt(s))),
            &mut |t| todo.push(t),
        );
    }
    while let Some((e, parent)) = ex.pop() {
        r.exprs.push((e, parent));
        visit::expr_children(&ud.exprs[e], &mut |c| ex.push((c, Parent::Expr(e))));
    }
    r
}

fn strip(ud: &UnitData, mut e: ExprId) -> ExprId {
    while let Expr::Paren(a) = ud.exprs[e] {
        e = a;
    }
    e
}

fn is(ud: &UnitData, e: ExprId, s: SymbolId) -> bool {
    matches!(ud.exprs[strip(ud, e)], Expr::Name(x) if x == s)
}

fn one(ud: &UnitData, e: ExprId) -> bool {
    matches!(&ud.exprs[strip(ud, e)], Expr::Literal(l) if l.text == "1")
}

/// The expressions of `e` separated by commas.
fn items(ud: &UnitData, e: ExprId) -> Vec<ExprId> {
    match &ud.exprs[e] {
        Expr::Comma(v) => v.iter().flat_map(|&x| items(ud, x)).collect(),
        _ => vec![e],
    }
}

/// The variable expression `e` adds one to: `v++`, `++v`, `v += 1`.
fn step_expr(ud: &UnitData, e: ExprId) -> Option<SymbolId> {
    let var = |x: ExprId| match ud.exprs[strip(ud, x)] {
        Expr::Name(n) => Some(n),
        _ => None,
    };
    match &ud.exprs[e] {
        Expr::IncDec { inc: true, arg, .. } => var(*arg),
        Expr::Assign {
            op: Some(BinOp::Add),
            lhs,
            rhs,
        } if one(ud, *rhs) => var(*lhs),
        _ => None,
    }
}

/// The variables statement `s` steps by one (`v++;`, `i++, a++;`, `v += 1;`).
fn step_stmt(ud: &UnitData, s: StmtId) -> Option<Vec<SymbolId>> {
    match &ud.stmts[s].kind {
        StmtKind::Expr(e) => items(ud, *e).iter().map(|&x| step_expr(ud, x)).collect(),
        StmtKind::Assign {
            lhs,
            op: Some(BinOp::Add),
            rhs,
        } if one(ud, *rhs) => match ud.exprs[strip(ud, *lhs)] {
            Expr::Name(n) => Some(vec![n]),
            _ => None,
        },
        _ => None,
    }
}

/// The plain assignments `v = e` statement `s` makes: assignment statements, expression
/// statements (comma lists) and declarations with initialisers.
fn sets(ud: &UnitData, s: StmtId) -> Vec<(SymbolId, ExprId)> {
    let mut out = Vec::new();
    match &ud.stmts[s].kind {
        StmtKind::Assign { lhs, op: None, rhs } => {
            if let Expr::Name(v) = ud.exprs[strip(ud, *lhs)] {
                out.push((v, *rhs));
            }
        }
        StmtKind::Expr(e) => {
            for x in items(ud, *e) {
                if let Expr::Assign { op: None, lhs, rhs } = &ud.exprs[x] {
                    if let Expr::Name(v) = ud.exprs[strip(ud, *lhs)] {
                        out.push((v, *rhs));
                    }
                }
            }
        }
        StmtKind::Decl(Decl::Var(d)) => {
            for en in &d.entities {
                if let Some(Init::Expr(x)) = en.init {
                    out.push((en.sym, x));
                }
            }
        }
        _ => {}
    }
    out
}

/// A loop of the unit: its condition, the assignments before its first iteration, the
/// variables its step moves by one, its body.
struct Loop<'u> {
    cond: ExprId,
    inits: Vec<(SymbolId, ExprId)>,
    steps: Vec<SymbolId>,
    body: &'u Block,
}

/// The `for` loops, and the `while` loops with the statements before them as their
/// initialisation and the statements stepping variables at the end of their body as their
/// step (the lowered `for`).
fn loops<'u>(ud: &'u UnitData, r: &Reach) -> Vec<Loop<'u>> {
    let mut out = Vec::new();
    let blocks = std::iter::once(&ud.body).chain(
        r.stmts
            .iter()
            .flat_map(|&s| directives::child_blocks(&ud.stmts[s].kind)),
    );
    {
        for b in blocks {
            for (j, &t) in b.iter().enumerate() {
                let before: Vec<(SymbolId, ExprId)> = b[..j]
                    .iter()
                    .rev()
                    .map_while(|&x| {
                        let v = sets(ud, x);
                        (!v.is_empty()).then_some(v)
                    })
                    .flatten()
                    .collect();
                match &ud.stmts[t].kind {
                    StmtKind::CFor {
                        init,
                        cond: Some(cond),
                        step,
                        body,
                        ..
                    } => {
                        let mut inits = init.map(|i| sets(ud, i)).unwrap_or_default();
                        inits.extend(before);
                        let steps = step
                            .map(|x| {
                                items(ud, x)
                                    .iter()
                                    .filter_map(|&y| step_expr(ud, y))
                                    .collect()
                            })
                            .unwrap_or_default();
                        out.push(Loop {
                            cond: *cond,
                            inits,
                            steps,
                            body,
                        });
                    }
                    StmtKind::While { cond, body, .. } => {
                        let steps = body
                            .iter()
                            .rev()
                            .map_while(|&x| step_stmt(ud, x))
                            .flatten()
                            .collect();
                        out.push(Loop {
                            cond: *cond,
                            inits: before,
                            steps,
                            body,
                        });
                    }
                    _ => {}
                }
            }
        }
    }
    out
}

/// The element count, or `None` when the code does not follow the pattern.
pub fn walked_extent(
    p: &Program,
    u: UnitId,
    ptr: SymbolId,
    env: &dyn Fn(ExprId) -> Option<i64>,
) -> Option<i64> {
    let ud = &p.units[u];
    if ud.body.is_empty() {
        return None;
    }
    let r = reach(ud);
    // Every use of `ptr` is the value of a plain assignment or initialiser of a local.
    let mut copies: Vec<SymbolId> = Vec::new();
    for &(e, parent) in &r.exprs {
        if !matches!(ud.exprs[e], Expr::Name(x) if x == ptr) {
            continue;
        }
        let target = match parent {
            Parent::Expr(q) => match &ud.exprs[q] {
                Expr::Assign { op: None, lhs, rhs } if *rhs == e => match ud.exprs[*lhs] {
                    Expr::Name(a) => Some(a),
                    _ => None,
                },
                _ => None,
            },
            Parent::Stmt(s) => sets(ud, s).iter().find(|x| x.1 == e).map(|x| x.0),
        }?;
        if !copies.contains(&target) {
            copies.push(target);
        }
    }
    let all = loops(ud, &r);
    let mut count = 0i64;
    for &a in &copies {
        let at = p.symbols[a].ty.as_ref()?;
        if ud.params.contains(&a) || at.pointers != 1 || !at.dims.is_empty() {
            return None;
        }
        count = count.max(walks_of(ud, &r, &all, ptr, a, env)?);
    }
    (count > 0).then_some(count)
}

/// The largest trip count of the loops walking local `a` (a copy of `ptr`), or `None`.
fn walks_of(
    ud: &UnitData,
    r: &Reach,
    all: &[Loop<'_>],
    ptr: SymbolId,
    a: SymbolId,
    env: &dyn Fn(ExprId) -> Option<i64>,
) -> Option<i64> {
    // Each occurrence of `a`: a read of the one element it points to, a copy of `ptr`
    // into it, or a step.
    let mut steps = 0;
    for &(e, parent) in &r.exprs {
        if !matches!(ud.exprs[e], Expr::Name(x) if x == a) {
            continue;
        }
        let q = match parent {
            Parent::Expr(q) => q,
            Parent::Stmt(s) => {
                if sets(ud, s).iter().any(|x| x.0 == a && is(ud, x.1, ptr)) {
                    continue;
                }
                if step_stmt(ud, s).is_some_and(|v| v.contains(&a)) {
                    steps += 1;
                    continue;
                }
                return None;
            }
        };
        let q = match ud.exprs[q] {
            Expr::Paren(_) => r.exprs.iter().find(|x| x.0 == q).and_then(|x| match x.1 {
                Parent::Expr(g) => Some(g),
                Parent::Stmt(_) => None,
            })?,
            _ => q,
        };
        match &ud.exprs[q] {
            Expr::Field { arrow: true, .. } => {}
            Expr::Unary {
                op: UnOp::Deref, ..
            } => {}
            Expr::Index { base, subs } if is(ud, *base, a) => {
                if !matches!(&subs[..], [Subscript::Index(i)]
                    if matches!(&ud.exprs[*i], Expr::Literal(l) if l.text == "0"))
                {
                    return None;
                }
            }
            Expr::Assign { op: None, lhs, rhs } if is(ud, *lhs, a) && is(ud, *rhs, ptr) => {}
            _ if step_expr(ud, q) == Some(a) => steps += 1,
            _ => return None,
        }
    }
    let mut count = None::<i64>;
    let mut stepped = 0;
    for l in all.iter().filter(|l| l.steps.contains(&a)) {
        stepped += l.steps.iter().filter(|&&v| v == a).count();
        if !l.inits.iter().any(|x| x.0 == a && is(ud, x.1, ptr)) {
            return None;
        }
        let n = trips(ud, l, ptr, a, env)?;
        count = Some(count.map_or(n, |c: i64| c.max(n)));
    }
    (stepped == steps).then_some(count?)
}

/// The trip count of loop `l` at the integer inputs.
fn trips(
    ud: &UnitData,
    l: &Loop<'_>,
    ptr: SymbolId,
    a: SymbolId,
    env: &dyn Fn(ExprId) -> Option<i64>,
) -> Option<i64> {
    let Expr::Binary { op, lhs, rhs } = &ud.exprs[strip(ud, l.cond)] else {
        return None;
    };
    let (op, var, bound) = match op {
        BinOp::Lt(_) | BinOp::Le(_) | BinOp::Ne(_) => (*op, *lhs, *rhs),
        BinOp::Gt(_) => (BinOp::Lt(RelSpell::Symbol), *rhs, *lhs),
        BinOp::Ge(_) => (BinOp::Le(RelSpell::Symbol), *rhs, *lhs),
        _ => return None,
    };
    let plus = i64::from(matches!(op, BinOp::Le(_)));
    // `a < p + E`.
    if is(ud, var, a) {
        let Expr::Binary {
            op: BinOp::Add,
            lhs: x,
            rhs: y,
        } = &ud.exprs[strip(ud, bound)]
        else {
            return None;
        };
        let e = if is(ud, *x, ptr) {
            *y
        } else if is(ud, *y, ptr) {
            *x
        } else {
            return None;
        };
        return Some(env(e)? + plus);
    }
    // `i < E` with `i = L` in the initialisation and `i++` in the step.
    let Expr::Name(i) = ud.exprs[strip(ud, var)] else {
        return None;
    };
    if !l.steps.contains(&i) || writes(ud, l.body, i, &l.steps) {
        return None;
    }
    let lo = l.inits.iter().find(|x| x.0 == i)?.1;
    Some(env(bound)? - env(lo)? + plus)
}

/// Whether a statement of `block` (at any depth) writes `v` or takes its address, other
/// than the loop's own step (`steps`, the body's last statements of a lowered `for`).
fn writes(ud: &UnitData, block: &Block, v: SymbolId, steps: &[SymbolId]) -> bool {
    let mut exprs = Vec::new();
    // The trailing step statements of a lowered `for` are its step, not writes.
    let tail = block
        .iter()
        .rev()
        .take_while(|&&x| step_stmt(ud, x).is_some())
        .count();
    let tail = if steps.is_empty() { 0 } else { tail };
    let mut stmts: Vec<StmtId> = block[..block.len() - tail].to_vec();
    while let Some(s) = stmts.pop() {
        match &ud.stmts[s].kind {
            StmtKind::Assign { lhs, .. } if is(ud, *lhs, v) => return true,
            _ => {}
        }
        visit::stmt_children(&ud.stmts[s].kind, &mut |e| exprs.push(e), &mut |t| {
            stmts.push(t)
        });
    }
    while let Some(e) = exprs.pop() {
        let hit = match &ud.exprs[e] {
            Expr::IncDec { arg, .. } => is(ud, *arg, v),
            Expr::Assign { lhs, .. } => is(ud, *lhs, v),
            Expr::Unary {
                op: UnOp::AddrOf,
                arg,
            } => is(ud, *arg, v),
            _ => false,
        };
        if hit {
            return true;
        }
        visit::expr_children(&ud.exprs[e], &mut |c| exprs.push(c));
    }
    false
}

/// The integer value of an IL expression at the integer inputs (by lower-case name).
pub fn int_env<'a>(
    p: &'a Program,
    u: UnitId,
    env: &'a HashMap<String, i64>,
) -> impl Fn(ExprId) -> Option<i64> + 'a {
    move |e| crate::ilvalue::eval(p, u, e, env)
}
