//! C comma expressions evaluated unconditionally become statements of their own before the
//! analyses. f2c writes them for every MAX, MIN and ABS of an expression:
//!
//! ```c
//! d__2 = dmax__, d__3 = (d__1 = x[i__], abs(d__1));     d__2 = dmax__;
//!                                                    →   d__1 = x[i__];
//!                                                        d__3 = abs(d__1);
//! ```
//!
//! A comma statement becomes its operands in order; a comma inside the value of an
//! assignment, a call statement's arguments, a `return`, the initialiser of a declaration of
//! one variable or the first condition of an `if` has its left operands run as statements
//! just before, and its last operand takes its place. Only where the comma is evaluated
//! whenever the statement is: not in a branch of `?:`, the right of `&&`/`||`, `sizeof`, a
//! loop's header or condition (evaluated again at each trip). C leaves the order of the
//! operands of most operators unspecified, so the left operands may run first when nothing
//! else in the statement depends on their effects (as f2c's temporaries `d__1` do not).
//! A comma elsewhere is left as written (and refused where its effects matter), but a `for`
//! whose step is a comma expression (`i++, j--`) becomes a `while` with the step at the end
//! of its body.
//!
//! An assignment inside an expression, evaluated unconditionally in the same places, runs
//! the same way as a statement just before, and its target takes its place (NLopt's
//! `f -= (prod = pow(prod, 0.2));` → `prod = pow(prod, 0.2); f -= prod;`): the value of
//! `(t = e)` is `t` after the store, and C leaves unsequenced another read or write of `t`
//! in the statement undefined. Only when the target has no effect of its own (no call, no
//! increment, no assignment: it is evaluated again where it stands); a chained assignment
//! `a = b = e` is left as written (the generators take it whole).

use crate::copy::dup_expr;
use crate::incdec::{block_statements, splice_blocks};
use crate::ir::*;
use crate::visit::expr_children;
use std::collections::HashMap;

/// Rewrites the comma expressions of every C unit (see the module doc).
pub fn lower_commas(prog: &mut Program) {
    let units = prog.units_with_body(Lang::C);
    for id in units {
        let u = &mut prog.units[id];
        comma_step_loops(u);
        let mut seqs: HashMap<StmtId, Vec<StmtId>> = HashMap::new();
        for s in block_statements(u) {
            let seq = lower_stmt(u, s);
            if seq.len() > 1 {
                seqs.insert(s, seq);
            }
        }
        if !seqs.is_empty() {
            splice_blocks(u, &seqs);
        }
    }
}

/// `for (i = 0, j = n - 1; i < j; i++, j--) body` becomes `i = 0, j = n - 1; while (i < j)
/// { body i++, j--; }` (the comma statements then split like any other): a step that is a
/// comma expression has no reversal of its own, a `while` has. Only when the body has no
/// `continue` of this loop (it would skip the step), the initialisation is an expression
/// (a declaration's scope is the loop's), and there is a condition.
fn comma_step_loops(u: &mut UnitData) {
    let mut seqs: HashMap<StmtId, Vec<StmtId>> = HashMap::new();
    for s in block_statements(u) {
        let StmtKind::CFor {
            init,
            cond: Some(cond),
            step: Some(step),
            body,
            ..
        } = &u.stmts[s].kind
        else {
            continue;
        };
        if !matches!(u.exprs[strip(u, *step)], Expr::Comma(_))
            || init.is_some_and(|i| {
                !matches!(u.stmts[i].kind, StmtKind::Expr(_) | StmtKind::Assign { .. })
            })
            || continues(u, body)
        {
            continue;
        }
        let (init, cond, step, mut body) = (*init, *cond, *step, body.clone());
        let span = u.source_map.stmt.get(s).copied();
        body.push(u.new_stmt(StmtKind::Expr(step), span));
        u.stmts[s].kind = StmtKind::While {
            cond,
            body,
            term_label: None,
        };
        if let Some(i) = init {
            move_head(u, s, i);
            seqs.insert(s, vec![i, s]);
        }
    }
    if !seqs.is_empty() {
        splice_blocks(u, &seqs);
    }
}

/// Whether `block` holds a `continue` of the loop whose body it is (not of a nested loop).
fn continues(u: &UnitData, block: &[StmtId]) -> bool {
    let mut stack: Vec<StmtId> = block.to_vec();
    while let Some(s) = stack.pop() {
        match &u.stmts[s].kind {
            StmtKind::CContinue => return true,
            StmtKind::CFor { .. }
            | StmtKind::While { .. }
            | StmtKind::DoWhile { .. }
            | StmtKind::Loop { .. }
            | StmtKind::Do { .. } => {}
            k => {
                for b in crate::directives::child_blocks(k) {
                    stack.extend(b.iter().copied());
                }
            }
        }
    }
    false
}

/// The statements standing for `s`, in order: the left operands of its commas, then `s`.
fn lower_stmt(u: &mut UnitData, s: StmtId) -> Vec<StmtId> {
    let span = u.source_map.stmt.get(s).copied();
    let roots: Vec<ExprId> = match &u.stmts[s].kind {
        StmtKind::Expr(e) => {
            let e = strip(u, *e);
            if let Expr::Comma(items) = &u.exprs[e] {
                // `a, b, c;`: three statements, the last one `s` itself. Its label and
                // directives go to the first (taken now: lowering `s` below moves them).
                let items = items.clone();
                if items.is_empty() {
                    return vec![s];
                }
                let label = u.stmts[s].label.take();
                let directives = std::mem::take(&mut u.stmts[s].directives);
                let mut seq = Vec::new();
                for (k, &it) in items.iter().enumerate() {
                    let kind = stmt_kind_of(u, it);
                    let t = if k + 1 == items.len() {
                        u.stmts[s].kind = kind;
                        s
                    } else {
                        u.new_stmt(kind, span)
                    };
                    seq.extend(lower_stmt(u, t));
                }
                u.stmts[seq[0]].label = label;
                u.stmts[seq[0]].directives = directives;
                return seq;
            }
            vec![e]
        }
        StmtKind::Assign { lhs, rhs, .. } => vec![*rhs, *lhs],
        StmtKind::Call { args, .. } => args.iter().map(|a| a.value).collect(),
        StmtKind::Return(Some(e)) => vec![*e],
        StmtKind::If { arms, .. } => arms.first().map(|a| a.0).into_iter().collect(),
        StmtKind::Decl(Decl::Var(v)) if v.entities.len() == 1 => match v.entities[0].init {
            // Not when an operand names the variable declared (`double t = (t = 1, t)`).
            Some(Init::Expr(x)) if !names(u, x, v.entities[0].sym) => vec![x],
            _ => Vec::new(),
        },
        _ => Vec::new(),
    };
    // The assignments of a chain `a = b = c = e` (or of an expression statement) are the
    // statement's own: only their last value is looked into.
    let chain = matches!(
        u.stmts[s].kind,
        StmtKind::Expr(_) | StmtKind::Assign { op: None, .. }
    );
    let mut commas = Vec::new();
    for mut r in roots {
        while let (true, Expr::Assign { op: None, rhs, .. }) = (chain, &u.exprs[strip(u, r)]) {
            r = *rhs;
        }
        unconditional_commas(u, r, &mut commas);
    }
    if commas.is_empty() {
        return vec![s];
    }
    let mut seq = Vec::new();
    // Outermost first: `(a, (b, c))` runs a, then b.
    for e in commas {
        if let Expr::Assign { op, lhs, rhs } = u.exprs[e] {
            // `(t = v)`: the assignment runs before, `t` stands in its place.
            let t = u.new_stmt(StmtKind::Assign { lhs, op, rhs }, span);
            seq.extend(lower_stmt(u, t));
            u.exprs[e] = Expr::Paren(dup_expr(u, lhs));
            continue;
        }
        let Expr::Comma(items) = u.exprs[e].clone() else {
            continue;
        };
        let Some((&last, left)) = items.split_last() else {
            continue;
        };
        for &it in left {
            let kind = stmt_kind_of(u, it);
            let t = u.new_stmt(kind, span);
            seq.extend(lower_stmt(u, t));
        }
        let value = u.exprs[last].clone();
        u.exprs[e] = value;
    }
    if let Some(&first) = seq.first() {
        move_head(u, s, first);
    }
    seq.push(s);
    seq
}

/// The comma expressions of `e` evaluated whenever `e` is, outermost first, left to right
/// (not inside the left operands of a comma: those become statements and are lowered then).
fn unconditional_commas(u: &UnitData, e: ExprId, out: &mut Vec<ExprId>) {
    match &u.exprs[e] {
        Expr::Comma(items) => {
            out.push(e);
            if let Some(&last) = items.last() {
                unconditional_commas(u, last, out);
            }
        }
        // Its value is lowered with the statement it becomes.
        Expr::Assign { lhs, .. } if simple_target(u, *lhs) => out.push(e),
        Expr::Cond { cond, .. } => unconditional_commas(u, *cond, out),
        Expr::Binary {
            op: BinOp::And | BinOp::Or,
            lhs,
            ..
        } => unconditional_commas(u, *lhs, out),
        Expr::Unary {
            op: UnOp::Sizeof, ..
        }
        | Expr::SizeofType(_)
        | Expr::IncDec { .. } => {}
        node => {
            let mut kids = Vec::new();
            expr_children(node, &mut |k| kids.push(k));
            for k in kids {
                unconditional_commas(u, k, out);
            }
        }
    }
}

/// The statement an operand of a comma is: an assignment, a call, or an expression.
fn stmt_kind_of(u: &UnitData, e: ExprId) -> StmtKind {
    let e = strip(u, e);
    match &u.exprs[e] {
        Expr::Assign { op, lhs, rhs } => StmtKind::Assign {
            lhs: *lhs,
            op: *op,
            rhs: *rhs,
        },
        Expr::Call { callee, args } => StmtKind::Call {
            callee: *callee,
            args: args.clone(),
            no_parens: false,
        },
        _ => StmtKind::Expr(e),
    }
}

/// A label and the directives of `s` go to the first statement of its sequence.
fn move_head(u: &mut UnitData, s: StmtId, first: StmtId) {
    if first == s {
        return;
    }
    let label = u.stmts[s].label.take();
    let directives = std::mem::take(&mut u.stmts[s].directives);
    u.stmts[first].label = label;
    u.stmts[first].directives = directives;
}

fn strip(u: &UnitData, mut e: ExprId) -> ExprId {
    while let Expr::Paren(a) = u.exprs[e] {
        e = a;
    }
    e
}

fn names(u: &UnitData, e: ExprId, v: SymbolId) -> bool {
    let mut stack = vec![e];
    while let Some(x) = stack.pop() {
        if matches!(u.exprs[x], Expr::Name(s) if s == v) {
            return true;
        }
        expr_children(&u.exprs[x], &mut |k| stack.push(k));
    }
    false
}

/// Whether the target `e` of an assignment inside an expression can be evaluated again in
/// its place: no call, increment or assignment in it.
fn simple_target(u: &UnitData, e: ExprId) -> bool {
    let mut stack = vec![e];
    while let Some(x) = stack.pop() {
        match &u.exprs[x] {
            Expr::Call { .. } | Expr::IncDec { .. } | Expr::Assign { .. } | Expr::Comma(_) => {
                return false
            }
            node => expr_children(node, &mut |k| stack.push(k)),
        }
    }
    true
}
