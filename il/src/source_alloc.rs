//! Fortran `ALLOCATE` with `SOURCE=` or `MOLD=` written as the allocation and assignment it
//! is, before the analyses:
//!
//! ```fortran
//! allocate(u, source=x**2)    →   allocate(u(lbound(x**2, 1):ubound(x**2, 1)))
//!                                 u = x**2
//! allocate(w, mold=x)         →   allocate(w(lbound(x, 1):ubound(x, 1)))
//! ```
//!
//! The analyses saw neither the value `SOURCE=` gives nor the shape: `u` had no derivative
//! (a silently wrong tangent and adjoint) and `allocate(wd)` for `MOLD=` had no shape. The
//! object takes the bounds of the source (an expression's start at 1), as the standard
//! says. Rewritten when the statement allocates one object; with several, the statement is
//! left as written. A source referencing a function of the program is refused (it would run
//! three times).

use crate::diag::Code;
use crate::ir::*;
use crate::Diagnostic;

/// Rewrites the `SOURCE=`/`MOLD=` allocations of every Fortran unit (see the module doc);
/// errors for sources it cannot copy.
pub fn lower_source_allocations(prog: &mut Program) -> Vec<Diagnostic> {
    let units = prog.units_with_body(Lang::Fortran);
    let mut diags = Vec::new();
    for id in units {
        let body = std::mem::take(&mut prog.units[id].body);
        let body = lower_block(prog, id, body, &mut diags);
        prog.units[id].body = body;
    }
    diags
}

fn lower_block(
    prog: &mut Program,
    id: UnitId,
    block: Vec<StmtId>,
    diags: &mut Vec<Diagnostic>,
) -> Vec<StmtId> {
    let mut out = Vec::with_capacity(block.len());
    for s in block {
        let mut kind = std::mem::replace(&mut prog.units[id].stmts[s].kind, StmtKind::Empty);
        crate::directives::child_blocks_mut(&mut kind, &mut |b| {
            let inner = std::mem::take(b);
            *b = lower_block(prog, id, inner, diags);
        });
        prog.units[id].stmts[s].kind = kind;
        out.push(s);
        if let Some(set) = lower_stmt(prog, id, s, diags) {
            out.push(set);
        }
    }
    out
}

/// Rewrites `s` in place when it is a `SOURCE=`/`MOLD=` allocation of one object; returns the
/// assignment of the source to put after it.
fn lower_stmt(
    prog: &mut Program,
    id: UnitId,
    s: StmtId,
    diags: &mut Vec<Diagnostic>,
) -> Option<StmtId> {
    let StmtKind::Memory {
        op: MemOp::Allocate,
        items,
        options,
    } = &prog.units[id].stmts[s].kind
    else {
        return None;
    };
    let [item] = items[..] else {
        return None;
    };
    let key = |a: &Arg| a.keyword.as_deref().map(str::to_ascii_lowercase);
    let (k, src) = options
        .iter()
        .enumerate()
        .find(|(_, a)| matches!(key(a).as_deref(), Some("source" | "mold")))?;
    let is_source = key(src).as_deref() == Some("source");
    let src = src.value;
    // The source is written three times (both bounds and the value): a reference to a
    // function of the program would run three times (an impure one changes the result).
    let u = &prog.units[id];
    let mut stack = vec![src];
    while let Some(x) = stack.pop() {
        if let Expr::Call { callee, .. } = &u.exprs[x] {
            if matches!(u.exprs[*callee], Expr::Name(f) if prog.symbols[f].unit.is_some()) {
                let span = u.source_map.stmt.get(s).copied().unwrap_or_default();
                diags.push(Diagnostic::error(
                    Code::Unsupported,
                    span,
                    "ALLOCATE with a SOURCE= or MOLD= that references a function of the program is not supported: assign the function's value to a variable and allocate from it",
                ));
                return None;
            }
        }
        crate::visit::expr_children(&u.exprs[x], &mut |k| stack.push(k));
    }
    let mut options = options.clone();
    options.remove(k);
    let u = &mut prog.units[id];
    // The object: `u`, or `u(n)` with its shape given.
    let (var, shaped) = match &u.exprs[item] {
        Expr::Name(v) => (*v, false),
        Expr::Index { base, subs } if !subs.is_empty() => match u.exprs[*base] {
            Expr::Name(v) => (v, true),
            _ => return None,
        },
        Expr::Index { base, .. } => match u.exprs[*base] {
            Expr::Name(v) => (v, false),
            _ => return None,
        },
        _ => return None,
    };
    let rank = prog.symbols[var].ty.as_ref().map_or(0, |t| t.dims.len());
    let span = u.source_map.stmt.get(s).copied();
    let item = if shaped || rank == 0 {
        item
    } else {
        let base = u.exprs.alloc(Expr::Name(var));
        let subs = (1..=rank)
            .map(|d| {
                let [lo, hi] = ["lbound", "ubound"].map(|f| {
                    let a = u.deep_copy(src);
                    let k = u.int_literal(d as i64);
                    u.intrinsic_call(f, vec![a, k])
                });
                Subscript::Range(Some(lo), Some(hi), None)
            })
            .collect();
        u.exprs.alloc(Expr::Index { base, subs })
    };
    u.stmts[s].kind = StmtKind::Memory {
        op: MemOp::Allocate,
        items: vec![item],
        options,
    };
    if !is_source {
        return None;
    }
    Some(u.assign_var(var, src, span))
}
