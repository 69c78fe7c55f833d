//! The values a C local pointer can hold at a statement inside a loop that moves it along an
//! array (ADBench's LSTM: `xp = x2;` before the loop, `xp = &(s[i]);` last in the body of
//! `for (i = 0; …; i += 2 * b)`, so the call `lstm_model(…, &(s[i]), &(s[i + b]), xp)` reads
//! the layer before, `&(s[i - 2 * b])`, or `x2` in the first iteration).

use super::*;

/// A value a pointer may hold: the expression assigned, and the loop counter with its step
/// when it is the previous iteration's value.
pub(super) type Carried = (ExprId, Option<(SymbolId, Poly)>);

/// A value local pointer `p` may hold at statement `s` of C unit `u`: the expression it was
/// assigned, and, for the assignment at the end of the loop's body, the loop's counter with
/// its step (the value is the expression of the previous iteration: the counter less the
/// step). `None` unless the pattern holds: `p` a local pointer (no parameter, address never
/// taken, no `++`, no assignment inside an expression) assigned only by its initialiser or
/// plain statements `p = e;` before the innermost loop around `s` in the block holding it,
/// and at most one such
/// statement at the top level of that loop's body, after the statement holding `s`; the loop
/// a `for` with a step `i += e`, `i++`, `++i` or `i = i + e` (`e` over parameters the unit
/// never changes), its counter never written in the body, the body with no jump.
pub(super) fn loop_carried(
    prog: &Program,
    u: &UnitData,
    s: StmtId,
    p: SymbolId,
) -> Option<Vec<Carried>> {
    let pt = prog.symbols[p].ty.as_ref()?;
    if u.params.contains(&p) || pt.pointers != 1 || !pt.dims.is_empty() || jumps_in(u, &u.body) {
        // A jump anywhere could skip an assignment.
        return None;
    }
    // No write of `p` but plain assignment statements and its initialiser.
    for (_, e) in u.exprs.iter() {
        match e {
            Expr::Assign { lhs: a, .. }
            | Expr::IncDec { arg: a, .. }
            | Expr::Unary {
                op: UnOp::AddrOf,
                arg: a,
            } if matches!(u.exprs[*a], Expr::Name(n) if n == p) => return None,
            _ => {}
        }
    }
    // The loops around `s`, innermost last, and the statement of each body holding it.
    let mut path = Vec::new();
    if !path_to(u, &u.body, s, &mut path) {
        return None;
    }
    let (li, _) = path
        .iter()
        .enumerate()
        .rev()
        .find(|(_, &t)| matches!(u.stmts[t].kind, StmtKind::CFor { .. }))?;
    let lp = path[li];
    let StmtKind::CFor {
        init: _,
        step: Some(step),
        body,
        ..
    } = &u.stmts[lp].kind
    else {
        return None;
    };
    let (i, by) = counter_step(prog, u, *step)?;
    let fixed = fixed_params(u);
    if !by.0.keys().flatten().all(|v| fixed.contains(v)) || writes_name(u, body, i) {
        return None;
    }
    let holder = path.get(li + 1).copied()?;
    let at = body.iter().position(|&t| t == holder)?;
    let mut out = Vec::new();
    for (t, st) in u.stmts.iter() {
        let value = match &st.kind {
            StmtKind::Assign { lhs, op, rhs } if matches!(u.exprs[*lhs], Expr::Name(n) if n == p) =>
            {
                if op.is_some() {
                    return None;
                }
                *rhs
            }
            StmtKind::Decl(Decl::Var(vd)) => match vd.entities.iter().find(|en| en.sym == p) {
                Some(en) => match &en.init {
                    Some(Init::Expr(e)) => *e,
                    None => continue,
                    Some(_) => return None,
                },
                None => continue,
            },
            _ => continue,
        };
        if within_any(u, body, t) {
            // In the loop: at its body's top level, after the statement holding `s`.
            let pos = body.iter().position(|&b| b == t)?;
            if pos <= at {
                return None;
            }
            out.push((value, Some((i, by.clone()))));
        } else if before(u, &u.body, t, lp) {
            out.push((value, None));
        } else {
            return None;
        }
    }
    (out.iter().filter(|(_, c)| c.is_some()).count() <= 1).then_some(out)
}

/// The counter and step of a C `for` step expression: `i += e`, `i++`, `++i`, `i = i + e`.
fn counter_step(prog: &Program, u: &UnitData, step: ExprId) -> Option<(SymbolId, Poly)> {
    let macros = HashMap::new();
    let name = |e: ExprId| match u.exprs[e] {
        Expr::Name(n) => Some(n),
        _ => None,
    };
    match &u.exprs[step] {
        Expr::IncDec { inc: true, arg, .. } => Some((name(*arg)?, Poly::lit(1))),
        Expr::Assign {
            op: Some(BinOp::Add),
            lhs,
            rhs,
        } => Some((name(*lhs)?, loose_poly(prog, &macros, u, *rhs)?)),
        Expr::Assign { op: None, lhs, rhs } => {
            let i = name(*lhs)?;
            let by = loose_poly(prog, &macros, u, *rhs)?.add(&Poly::var(i), -1)?;
            (!by.mentions(i)).then_some((i, by))
        }
        _ => None,
    }
}

/// Whether a statement of `block` (or nested in it) writes variable `v`.
fn writes_name(u: &UnitData, block: &[StmtId], v: SymbolId) -> bool {
    let named = |e: ExprId| matches!(u.exprs[e], Expr::Name(n) if n == v);
    block.iter().any(|&t| {
        let mut found = false;
        let mut es = Vec::new();
        let mut ss = Vec::new();
        stmt_children(&u.stmts[t].kind, &mut |e| es.push(e), &mut |c| ss.push(c));
        if let StmtKind::Assign { lhs, .. } = &u.stmts[t].kind {
            found |= named(*lhs);
        }
        while let Some(e) = es.pop() {
            match &u.exprs[e] {
                Expr::Assign { lhs: a, .. }
                | Expr::IncDec { arg: a, .. }
                | Expr::Unary {
                    op: UnOp::AddrOf,
                    arg: a,
                } => found |= named(*a),
                _ => {}
            }
            expr_children(&u.exprs[e], &mut |c| es.push(c));
        }
        found || writes_name(u, &ss, v)
    })
}

/// Whether `block` (or a statement nested in it) jumps: `break`, `continue`, `goto`,
/// `return` (the last statement of the unit's body excepted).
fn jumps_in(u: &UnitData, block: &[StmtId]) -> bool {
    block.iter().any(|&t| {
        let kind = &u.stmts[t].kind;
        let own = match kind {
            StmtKind::Break | StmtKind::CContinue | StmtKind::Goto(_) => true,
            StmtKind::Return(_) => u.body.last() != Some(&t),
            _ => false,
        };
        let mut ss = Vec::new();
        stmt_children(kind, &mut |_| {}, &mut |c| ss.push(c));
        own || jumps_in(u, &ss)
    })
}

/// The statements from `block` down to `s` (`s` last); `false` when `s` is not there.
fn path_to(u: &UnitData, block: &[StmtId], s: StmtId, path: &mut Vec<StmtId>) -> bool {
    for &t in block {
        path.push(t);
        if t == s {
            return true;
        }
        let mut ss = Vec::new();
        stmt_children(&u.stmts[t].kind, &mut |_| {}, &mut |c| ss.push(c));
        if path_to(u, &ss, s, path) {
            return true;
        }
        path.pop();
    }
    false
}

/// Whether statement `t` is in `block` or nested in it.
fn within_any(u: &UnitData, block: &[StmtId], t: StmtId) -> bool {
    let mut path = Vec::new();
    path_to(u, block, t, &mut path)
}

/// Whether statement `t` comes before loop `lp` in the block holding `lp` (so it runs
/// before each run of the loop, even inside an outer loop).
fn before(u: &UnitData, body: &[StmtId], t: StmtId, lp: StmtId) -> bool {
    let mut pl = Vec::new();
    if !path_to(u, body, lp, &mut pl) {
        return false;
    }
    let block: Vec<StmtId> = match pl.len() {
        1 => body.to_vec(),
        n => {
            // One body: the arms of an IF or a `switch` are not run one after the other.
            if matches!(
                u.stmts[pl[n - 2]].kind,
                StmtKind::If { .. } | StmtKind::Switch { .. } | StmtKind::Select { .. }
            ) {
                return false;
            }
            let mut ss = Vec::new();
            stmt_children(&u.stmts[pl[n - 2]].kind, &mut |_| {}, &mut |c| ss.push(c));
            ss
        }
    };
    let pa = block.iter().position(|&x| x == t);
    let pb = block.iter().position(|&x| x == lp);
    matches!((pa, pb), (Some(x), Some(y)) if x < y)
}
