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
        let (mut pending, mut zeros) = (Vec::new(), Vec::new());
        let body = std::mem::take(&mut prog.units[uid].body);
        let mut acc = Hoisted {
            pending: &mut pending,
            zeros: &mut zeros,
            moved: &mut moved,
        };
        let body = rewrite_block(prog, uid, body, pure, &taken, &mut acc);
        prog.units[uid].body = body;
        pending.extend(zeros);
        declare(prog, uid, pending);
    }
    moved
}

/// What the rewrite of one unit accumulates: C declarations of the temporaries, their
/// zero assignments for the unit's start, the count of moved sub-expressions.
struct Hoisted<'a> {
    pending: &'a mut Vec<StmtId>,
    zeros: &'a mut Vec<StmtId>,
    moved: &'a mut usize,
}

fn rewrite_block(
    prog: &mut Program,
    uid: UnitId,
    block: Block,
    pure: &HashMap<String, UnitId>,
    taken: &HashSet<SymbolId>,
    acc: &mut Hoisted,
) -> Block {
    let mut out = Vec::with_capacity(block.len());
    for s in block {
        let n = blocks_mut(&mut prog.units[uid].stmts[s].kind).len();
        for k in 0..n {
            let inner = std::mem::take(blocks_mut(&mut prog.units[uid].stmts[s].kind)[k]);
            let inner = rewrite_block(prog, uid, inner, pure, taken, acc);
            *blocks_mut(&mut prog.units[uid].stmts[s].kind)[k] = inner;
        }
        if prog.units[uid].stmts[s].label.is_none() {
            if let Some((pre, n)) =
                hoist_from_loop(prog, uid, s, pure, taken, acc.pending, acc.zeros)
            {
                *acc.moved += n;
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
    zeros: &mut Vec<StmtId>,
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
        let cx = Cx::new(prog, u, pure);
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
    let pre = guarded(prog, uid, s, test, assigns);
    if pre
        .first()
        .is_some_and(|&g| matches!(prog.units[uid].stmts[g].kind, StmtKind::If { .. }))
    {
        // A loop that may run no iteration leaves the temporaries unset, and the adjoint reads
        // them under tests (popped control, an enclosing branch) the compiler cannot match with
        // the forward ones: each gets a value at the unit's start (gcc's -Wmaybe-uninitialized).
        for &(_, t) in &temps {
            let z = zero_assign(&mut prog.units[uid], t, span);
            zeros.push(z);
        }
    }
    Some((pre, count))
}

/// `t = 0.0` (`0.0d0` in Fortran), at `span`.
fn zero_assign(u: &mut UnitData, t: SymbolId, span: Option<crate::Span>) -> StmtId {
    let text = match u.lang {
        Lang::C => "0.0",
        Lang::Fortran => "0.0d0",
    };
    let zero = u.exprs.alloc(Expr::Literal(Literal {
        kind: LitKind::Real,
        text: text.to_string(),
    }));
    u.assign_var(t, zero, span)
}
