//! Saved arrays split by a constant subscript: which slices carry a value from one call to
//! the next.
//!
//! MINPACK-2's `diarfj` keeps `dt(ntimes, 2)` (saved by its DATA statement): column 1 holds
//! the observation times from DATA and is only read; column 2 is written from column 1 at
//! each call before it is read. Taken whole, `dt` is read before it is written and written,
//! so it looked like state carried between calls, and a checkpointed call of `diarfj` was
//! refused (the adjoint keeps its own copy). Taken by columns, neither carries anything.
//!
//! [`slices_carry_nothing`] answers for one array of one procedure, on the text alone: every
//! reference names the array with a constant integer subscript in one same dimension (so
//! the references fall into slices that never overlap); a slice written anywhere is first
//! touched by a write, in the order the statements are written (the rule the whole-array
//! check uses: `first_touch_reads`); a slice never written is a table. A reference as a
//! call argument, a whole-array reference or a subscript that is not a literal answers no.

use crate::ir::*;

/// One reference to the array: its constant subscripts, and whether it writes.
struct Touch {
    consts: Vec<Option<i64>>,
    write: bool,
}

/// Whether no slice of the array `s` of unit `u` (split by a constant subscript in one
/// dimension) is read on entry to a call and written in it; see [the module doc](self).
pub fn slices_carry_nothing(prog: &Program, p: UnitId, s: SymbolId) -> bool {
    let u = &prog.units[p];
    let mut touches: Vec<Touch> = Vec::new();
    let mut order: Vec<StmtId> = Vec::new();
    let mut stack: Vec<StmtId> = u.body.iter().rev().copied().collect();
    while let Some(st) = stack.pop() {
        order.push(st);
        let mut kids = Vec::new();
        crate::visit::stmt_children(&u.stmts[st].kind, &mut |_| {}, &mut |k| kids.push(k));
        stack.extend(kids.into_iter().rev());
    }
    for st in order {
        let kind = &u.stmts[st].kind;
        // The reads of a statement come before its write.
        let mut exprs: Vec<ExprId> = Vec::new();
        let mut lhs_of: Option<ExprId> = None;
        match kind {
            StmtKind::Assign { lhs, rhs, op } => {
                exprs.push(*rhs);
                if op.is_some() {
                    exprs.push(*lhs);
                }
                match &u.exprs[*lhs] {
                    Expr::Index { base, subs } if is_name(u, *base, s) => {
                        lhs_of = Some(*lhs);
                        for sub in subs {
                            crate::visit::subscript_children(sub, &mut |c| exprs.push(c));
                        }
                    }
                    _ => exprs.push(*lhs),
                }
            }
            _ => {
                crate::visit::stmt_children(kind, &mut |e| exprs.push(e), &mut |_| {});
            }
        }
        for e in exprs {
            if !collect_reads(prog, u, e, s, &mut touches) {
                return false;
            }
        }
        if let Some(l) = lhs_of {
            let Expr::Index { subs, .. } = &u.exprs[l] else {
                return false;
            };
            touches.push(Touch {
                consts: consts_of(u, subs),
                write: true,
            });
        }
    }
    let Some(rank) = touches.first().map(|t| t.consts.len()) else {
        return true;
    };
    if touches.iter().any(|t| t.consts.len() != rank) {
        return false;
    }
    // The first dimension every reference names by a literal.
    let Some(d) = (0..rank).find(|&d| touches.iter().all(|t| t.consts[d].is_some())) else {
        return false;
    };
    let written: Vec<i64> = touches
        .iter()
        .filter(|t| t.write)
        .filter_map(|t| t.consts[d])
        .collect();
    written.iter().all(|&c| {
        touches
            .iter()
            .find(|t| t.consts[d] == Some(c))
            .is_some_and(|t| t.write)
    })
}

fn is_name(u: &UnitData, e: ExprId, s: SymbolId) -> bool {
    matches!(&u.exprs[e], Expr::Name(x) if *x == s)
}

/// The literal integer subscripts of a reference (None where a subscript is anything else).
fn consts_of(u: &UnitData, subs: &[Subscript]) -> Vec<Option<i64>> {
    subs.iter()
        .map(|sub| match sub {
            Subscript::Index(e) => match &u.exprs[*e] {
                Expr::Literal(l) if l.kind == LitKind::Int => l.text.parse().ok(),
                _ => None,
            },
            Subscript::Range(..) => None,
        })
        .collect()
}

/// Records the reads of `s` in expression `e`; false on a reference that is not an element
/// with subscripts (a whole array, an argument of a call that may write it).
fn collect_reads(
    prog: &Program,
    u: &UnitData,
    e: ExprId,
    s: SymbolId,
    out: &mut Vec<Touch>,
) -> bool {
    match &u.exprs[e] {
        Expr::Name(x) => *x != s,
        Expr::Index { base, subs } if is_name(u, *base, s) => {
            out.push(Touch {
                consts: consts_of(u, subs),
                write: false,
            });
            let mut ok = true;
            for sub in subs {
                crate::visit::subscript_children(sub, &mut |c| {
                    ok &= collect_reads(prog, u, c, s, out)
                });
            }
            ok
        }
        Expr::Call { callee, args } => {
            let intrinsic = matches!(&u.exprs[*callee], Expr::Name(x)
                if prog.symbols[*x].kind == SymbolKind::Intrinsic);
            let mut ok = true;
            for a in args {
                // An element passed to a procedure may be written there.
                if !intrinsic && mentions(u, a.value, s) {
                    return false;
                }
                ok &= collect_reads(prog, u, a.value, s, out);
            }
            ok && collect_reads(prog, u, *callee, s, out)
        }
        x => {
            let mut ok = true;
            crate::visit::expr_children(x, &mut |c| ok &= collect_reads(prog, u, c, s, out));
            ok
        }
    }
}

/// Whether `e` names `s` anywhere.
fn mentions(u: &UnitData, e: ExprId, s: SymbolId) -> bool {
    if is_name(u, e, s) {
        return true;
    }
    let mut hit = false;
    crate::visit::expr_children(&u.exprs[e], &mut |c| hit |= mentions(u, c, s));
    hit
}
