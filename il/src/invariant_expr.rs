//! Loop-invariant expressions leave their loop, before the analyses (issue 47, after the
//! calls of `il::invariant`):
//!
//! ```c
//! for (i = 0; i < n; i++)                    double inv;
//!     y[i] = x[i] / (a * b) + c * exp(-d);    if (0 < n) { inv = a * b; inv1 = c * exp(-d); }
//!                                          →  for (i = 0; i < n; i++) y[i] = x[i] / inv + inv1;
//! ```
//!
//! The adjoint's backward loop then accumulates the adjoint of `inv` and propagates it to `a`
//! and `b` once after the loop, instead of computing `a * b`, its partials and two increments
//! in every iteration.
//!
//! What moves: the largest sub-expressions sure to be `double` / `real(8)`, worth a
//! temporary (`valexpr::Cx::costly`: a division, a power, a call, a product of two
//! non-literals), of the statements of the loop's body evaluated in every iteration: the
//! values of its top-level assignments and declarations, up to the first statement that may
//! jump (`exit`, `break`, `return`, `goto`, …); not those inside an inner `if` or loop (they
//! may not be evaluated at all). Each must read nothing the loop writes (`valexpr::Cx::
//! unchanged`: in C, memory read through a pointer moves only when every pointer the loop
//! writes through and the one read are `restrict`; a global or an aliased local is never
//! assumed unchanged by a write through a pointer). The loop must be one `il::invariant`
//! understands (a DO or canonical `for`, no call with effects, no pointer assignment), and the
//! temporaries are assigned under its first test, so a loop of no iteration evaluates nothing
//! new. Integer expressions never move (they have no derivative). Turned off by `-nooptim
//! hoistexpressions`.

use crate::invariant::{blocks_mut, first_test, guarded, loop_writes, Writes};
use crate::ir::*;
use crate::valexpr::{declare, double_temp, exposed, move_to, same_value, untouchable, Cx};
use std::collections::{HashMap, HashSet};

/// Moves loop-invariant expressions out of the loops of every unit (`pure`: the functions
/// without effects reading only their arguments, `invariant::pure_callees`); returns how
/// many sub-expressions were replaced.
pub fn hoist_invariant_exprs(prog: &mut Program, pure: &HashMap<String, UnitId>) -> usize {
    let mut moved = 0;
    let units: Vec<UnitId> = prog
        .units
        .iter()
        .filter(|(_, u)| !u.body.is_empty() && !untouchable(u))
        .map(|(id, _)| id)
        .collect();
    for uid in units {
        let taken = exposed(prog, &prog.units[uid]);
        let mut pending = Vec::new();
        let body = std::mem::take(&mut prog.units[uid].body);
        let body = rewrite_block(prog, uid, body, pure, &taken, &mut pending, &mut moved);
        prog.units[uid].body = body;
        declare(prog, uid, pending);
    }
    moved
}

fn rewrite_block(
    prog: &mut Program,
    uid: UnitId,
    block: Block,
    pure: &HashMap<String, UnitId>,
    taken: &HashSet<SymbolId>,
    pending: &mut Vec<StmtId>,
    moved: &mut usize,
) -> Block {
    let mut out = Vec::with_capacity(block.len());
    for s in block {
        let n = blocks_mut(&mut prog.units[uid].stmts[s].kind).len();
        for k in 0..n {
            let inner = std::mem::take(blocks_mut(&mut prog.units[uid].stmts[s].kind)[k]);
            let inner = rewrite_block(prog, uid, inner, pure, taken, pending, moved);
            *blocks_mut(&mut prog.units[uid].stmts[s].kind)[k] = inner;
        }
        if prog.units[uid].stmts[s].label.is_none() {
            if let Some((pre, n)) = hoist_from_loop(prog, uid, s, pure, taken, pending) {
                *moved += n;
                out.extend(pre);
            }
        }
        out.push(s);
    }
    out
}

/// Whether statement `s` (and what it contains) may leave the loop or jump.
fn may_jump(u: &UnitData, s: StmtId) -> bool {
    let k = &u.stmts[s].kind;
    let plain = matches!(
        k,
        StmtKind::Assign { .. }
            | StmtKind::Decl(_)
            | StmtKind::If { .. }
            | StmtKind::Do { .. }
            | StmtKind::CFor { .. }
            | StmtKind::While { .. }
            | StmtKind::DoWhile { .. }
            | StmtKind::Select { .. }
            | StmtKind::Empty
            | StmtKind::Continue
    );
    if !plain || u.stmts[s].label.is_some() {
        return true;
    }
    let mut inner = Vec::new();
    crate::visit::stmt_children(k, &mut |_| {}, &mut |c| inner.push(c));
    inner.into_iter().any(|c| may_jump(u, c))
}

/// The values evaluated in every iteration of a loop whose body is `body`.
pub(crate) fn every_iteration(u: &UnitData, body: &[StmtId]) -> Vec<ExprId> {
    let mut out = Vec::new();
    for &s in body {
        match &u.stmts[s].kind {
            StmtKind::Assign { rhs, .. } => out.push(*rhs),
            StmtKind::Decl(Decl::Var(v)) => {
                out.extend(v.entities.iter().filter_map(|e| match e.init {
                    Some(Init::Expr(x)) => Some(x),
                    _ => None,
                }))
            }
            _ => {}
        }
        if may_jump(u, s) {
            break;
        }
    }
    out
}

fn hoist_from_loop(
    prog: &mut Program,
    uid: UnitId,
    s: StmtId,
    pure: &HashMap<String, UnitId>,
    taken: &HashSet<SymbolId>,
    pending: &mut Vec<StmtId>,
) -> Option<(Vec<StmtId>, usize)> {
    let body = match &prog.units[uid].stmts[s].kind {
        StmtKind::Do { body, .. } | StmtKind::CFor { body, .. } => body.clone(),
        _ => return None,
    };
    let mut found = Vec::new();
    {
        let u = &prog.units[uid];
        let mut w = Writes::default();
        loop_writes(prog, u, &[s], pure, &mut w);
        if w.opaque {
            return None;
        }
        let cx = Cx { prog, u, pure };
        for v in every_iteration(u, &body) {
            cx.candidates(v, &mut found, &|c| cx.unchanged(c, &w, taken));
        }
    }
    if found.is_empty() {
        return None;
    }
    let test = first_test(prog, uid, s)?;
    let span = prog.units[uid].source_map.stmt.get(s).copied();
    let mut assigns = Vec::new();
    let mut temps: Vec<(ExprId, SymbolId)> = Vec::new();
    let count = found.len();
    for e in found {
        let same = temps
            .iter()
            .find(|(x, _)| same_value(&prog.units[uid], *x, e))
            .map(|&(_, t)| t);
        let t = match same {
            Some(t) => t,
            None => {
                let t = double_temp(prog, uid, "inv", pending);
                let a = move_to(&mut prog.units[uid], e, t, span);
                let StmtKind::Assign { rhs, .. } = prog.units[uid].stmts[a].kind else {
                    unreachable!("an assignment")
                };
                assigns.push(a);
                temps.push((rhs, t));
                continue;
            }
        };
        prog.units[uid].exprs[e] = Expr::Name(t);
    }
    Some((guarded(prog, uid, s, test, assigns), count))
}
