//! C increments inside statements become statements of their own before differentiation:
//! `*q++ = e;` becomes `*q = e; q++;`, `w[++k] = e;` becomes `++k; w[k] = e;`, `double v =
//! *p++;` becomes `double v = *p; p++;`, `f(a, n++);` becomes `f(a, n); n++;`.
//!
//! Published C walks arrays this way; inside a differentiated statement the increment would
//! be lost or done twice by the derivative statements, so it was refused. The split computes
//! what the original computes when the incremented variable is named nowhere else in the
//! statement (C leaves `a[i] = i++` unsequenced anyway), is a variable of this procedure
//! (a called function cannot read it in the middle of the statement), and the increment is
//! evaluated unconditionally: not under `?:`, the right of `&&`/`||`, a comma expression, a
//! nested assignment or `sizeof`. Everything else is left as written (and refused where it
//! matters, as before). Only assignments, call statements and declarations with
//! initialisers inside statement blocks are split: a `for` header or a condition is not a
//! place for a statement.

use crate::ir::*;
use crate::visit::expr_children;
use std::collections::{HashMap, HashSet};

/// Splits the increments of every C unit (see the module doc).
pub fn split_increments(prog: &mut Program) {
    let units: Vec<UnitId> = prog
        .units
        .iter()
        .filter(|(_, u)| u.lang == Lang::C)
        .map(|(id, _)| id)
        .collect();
    for id in units {
        let owned = scopes_of_unit(prog, prog.units[id].scope);
        split_unit(&mut prog.units[id], |s: SymbolId| {
            owned.contains(&prog.symbols[s].scope)
        });
        split_dependent_declarators(&mut prog.units[id]);
        split_status_initialisers(prog, id);
    }
}

/// `int info = chol(n, a);` becomes `int info; info = chol(n, a);`: an integer status
/// returned by a function of the program is assigned by a statement of its own, which the
/// adjoint handles like a call statement when the function also writes through its
/// arguments (a declaration's initialiser is an expression it would have to re-run). Only
/// one-declarator declarations, not `static`, whose initialiser is the call; a `const` one
/// loses its `const` (GSL's `const int stat_s3 = series_2(x, result);` was refused in
/// adjoint mode: "a reference to the function `series_2` … inside an expression").
fn split_status_initialisers(prog: &mut Program, id: UnitId) {
    let mut splits: HashMap<StmtId, Vec<StmtId>> = HashMap::new();
    for s in block_statements(&prog.units[id]) {
        let u = &prog.units[id];
        let StmtKind::Decl(Decl::Var(v)) = &u.stmts[s].kind else {
            continue;
        };
        let [e] = &v.entities[..] else {
            continue;
        };
        let Some(Init::Expr(init)) = e.init else {
            continue;
        };
        let keyword = |k: &str| {
            v.attrs
                .iter()
                .any(|a| matches!(a, Attr::Keyword(w) if w == k))
        };
        if keyword("static") {
            continue;
        }
        let integer = prog.symbols[e.sym].ty.as_ref().is_some_and(|t| {
            t.pointers == 0 && t.dims.is_empty() && matches!(t.base, BaseClass::Integer)
        });
        let program_call = matches!(&u.exprs[init], Expr::Call { callee, .. }
            if matches!(u.exprs[*callee], Expr::Name(f) if prog.symbols[f].unit.is_some()));
        if !integer || !program_call {
            continue;
        }
        let sym = e.sym;
        let span = u.source_map.stmt.get(s).copied();
        let u = &mut prog.units[id];
        if let StmtKind::Decl(Decl::Var(v)) = &mut u.stmts[s].kind {
            v.entities[0].init = None;
            v.spec.qualifiers.retain(|q| q != "const");
        }
        let set = u.assign_var(sym, init, span);
        prog.symbols[sym].attrs.constant = false;
        splits.insert(s, vec![s, set]);
    }
    if !splits.is_empty() {
        splice_blocks(&mut prog.units[id], &splits);
    }
}

/// `double a = 2.0 * x[0], b = 1.0 - a;` becomes `double a = 2.0 * x[0]; double b = 1.0 -
/// a;`: a declaration is one point of the analyses, whose reads are the values before it, so
/// `b` was taken to depend on `a` before its initialisation (inactive: its derivative was
/// dropped, a silently wrong gradient). Only declarations where a later initialiser names an
/// earlier declarator are split.
fn split_dependent_declarators(u: &mut UnitData) {
    let in_block = block_statements(u);
    let mentions = |u: &UnitData, e: ExprId, syms: &[SymbolId]| {
        let mut stack = vec![e];
        while let Some(x) = stack.pop() {
            if matches!(u.exprs[x], Expr::Name(v) if syms.contains(&v)) {
                return true;
            }
            expr_children(&u.exprs[x], &mut |k| stack.push(k));
        }
        false
    };
    let mut splits: HashMap<StmtId, Vec<StmtId>> = HashMap::new();
    for s in in_block {
        let StmtKind::Decl(Decl::Var(v)) = &u.stmts[s].kind else {
            continue;
        };
        let dependent = v.entities.iter().enumerate().any(|(k, e)| match e.init {
            Some(Init::Expr(x)) => {
                let earlier: Vec<SymbolId> = v.entities[..k].iter().map(|e| e.sym).collect();
                mentions(u, x, &earlier)
            }
            _ => false,
        });
        if !dependent {
            continue;
        }
        let v = (**v).clone();
        let span = u.source_map.stmt.get(s).copied();
        let mut seq = vec![s];
        for e in v.entities.iter().skip(1) {
            let one = VarDecl {
                entities: vec![e.clone()],
                ..v.clone()
            };
            let t = u.stmts.alloc(Stmt::new(StmtKind::Decl(Decl::var(one))));
            if let Some(sp) = span {
                u.source_map.stmt.insert(t, sp);
            }
            seq.push(t);
        }
        if let StmtKind::Decl(Decl::Var(first)) = &mut u.stmts[s].kind {
            first.entities.truncate(1);
        }
        splits.insert(s, seq);
    }
    if splits.is_empty() {
        return;
    }
    splice_blocks(u, &splits);
}

/// The statements that sit in a block of `u` (not a `for` header's init statement).
pub(crate) fn block_statements(u: &UnitData) -> Vec<StmtId> {
    let mut out: Vec<StmtId> = u.body.clone();
    for (_, st) in u.stmts.iter() {
        for b in crate::directives::child_blocks(&st.kind) {
            out.extend(b.iter().copied());
        }
    }
    out
}

/// Replaces each statement of `splits` in every block of `u` by its sequence.
pub(crate) fn splice_blocks(u: &mut UnitData, splits: &HashMap<StmtId, Vec<StmtId>>) {
    let rewrite = |b: &mut Block| {
        if !b.iter().any(|s| splits.contains_key(s)) {
            return;
        }
        let mut out = Vec::with_capacity(b.len() + 2);
        for &s in b.iter() {
            match splits.get(&s) {
                Some(seq) => out.extend(seq.iter().copied()),
                None => out.push(s),
            }
        }
        *b = out;
    };
    rewrite(&mut u.body);
    let ids: Vec<StmtId> = u.stmts.iter().map(|(id, _)| id).collect();
    for id in ids {
        crate::directives::child_blocks_mut(&mut u.stmts[id].kind, &mut |b| rewrite(b));
    }
}

/// The scopes whose symbols belong to the unit with scope `root`: `root` and the block
/// scopes nested in it.
fn scopes_of_unit(prog: &Program, root: ScopeId) -> HashSet<ScopeId> {
    prog.scopes
        .iter()
        .filter(|(_, sd)| {
            let mut p = sd.parent;
            while let Some(q) = p {
                if q == root {
                    return true;
                }
                p = prog.scopes[q].parent;
            }
            false
        })
        .map(|(id, _)| id)
        .chain(std::iter::once(root))
        .collect()
}

/// The statements to insert before and after one statement.
#[derive(Default)]
struct Split {
    pre: Vec<StmtId>,
    post: Vec<StmtId>,
}

fn split_unit(u: &mut UnitData, owned: impl Fn(SymbolId) -> bool) {
    let in_block = block_statements(u);
    let mut splits: HashMap<StmtId, Split> = HashMap::new();
    for s in in_block {
        let roots: Vec<ExprId> = match &u.stmts[s].kind {
            StmtKind::Assign { lhs, rhs, .. } => vec![*lhs, *rhs],
            StmtKind::Call { args, .. } => args.iter().map(|a| a.value).collect(),
            StmtKind::Decl(Decl::Var(v)) => v
                .entities
                .iter()
                .filter_map(|e| match e.init {
                    Some(Init::Expr(x)) => Some(x),
                    _ => None,
                })
                .collect(),
            _ => continue,
        };
        let found = increments(u, &roots, &owned);
        if found.is_empty() {
            continue;
        }
        let span = u.source_map.stmt.get(s).copied();
        let mut split = Split::default();
        for (e, v, inc, prefix) in found {
            let espan = u.source_map.expr.get(e).copied();
            // The reference takes the increment's place; the increment becomes a statement.
            u.exprs[e] = Expr::Name(v);
            let arg = u.exprs.alloc(Expr::Name(v));
            let x = u.exprs.alloc(Expr::IncDec { inc, prefix, arg });
            if let Some(sp) = espan {
                u.source_map.expr.insert(arg, sp);
                u.source_map.expr.insert(x, sp);
            }
            let t = u.stmts.alloc(Stmt::new(StmtKind::Expr(x)));
            if let Some(sp) = span {
                u.source_map.stmt.insert(t, sp);
            }
            if prefix {
                split.pre.push(t);
            } else {
                split.post.push(t);
            }
        }
        // A label and the leading comment go to the first statement of the sequence.
        if let Some(&first) = split.pre.first() {
            let label = u.stmts[s].label.take();
            let comment = u.stmts[s].comment.take();
            u.stmts[first].label = label;
            u.stmts[first].comment = comment;
        }
        splits.insert(s, split);
    }
    if splits.is_empty() {
        return;
    }
    let seqs: HashMap<StmtId, Vec<StmtId>> = splits
        .into_iter()
        .map(|(s, sp)| {
            let mut seq = sp.pre;
            seq.push(s);
            seq.extend(sp.post);
            (s, seq)
        })
        .collect();
    splice_blocks(u, &seqs);
}

/// The increments of the expressions `roots` of one statement that can be split: `(node,
/// variable, ++, prefix)`, in evaluation-independent source order.
fn increments(
    u: &UnitData,
    roots: &[ExprId],
    owned: &impl Fn(SymbolId) -> bool,
) -> Vec<(ExprId, SymbolId, bool, bool)> {
    // How often each variable is named anywhere in the statement.
    let mut uses: HashMap<SymbolId, usize> = HashMap::new();
    let mut stack: Vec<ExprId> = roots.to_vec();
    while let Some(e) = stack.pop() {
        if let Expr::Name(v) = u.exprs[e] {
            *uses.entry(v).or_default() += 1;
        }
        expr_children(&u.exprs[e], &mut |k| stack.push(k));
    }
    let mut found = Vec::new();
    let mut stack: Vec<ExprId> = roots.iter().rev().copied().collect();
    while let Some(e) = stack.pop() {
        let node = &u.exprs[e];
        match node {
            Expr::IncDec { inc, prefix, arg } => {
                if let Expr::Name(v) = u.exprs[*arg] {
                    if uses.get(&v) == Some(&1) && owned(v) {
                        found.push((e, v, *inc, *prefix));
                    }
                }
                continue;
            }
            // Evaluated conditionally, or sequenced inside the statement, or not at all.
            Expr::Cond { cond, .. } => {
                stack.push(*cond);
                continue;
            }
            Expr::Binary {
                op: BinOp::And | BinOp::Or,
                lhs,
                ..
            } => {
                stack.push(*lhs);
                continue;
            }
            Expr::Comma(_)
            | Expr::Assign { .. }
            | Expr::Unary {
                op: UnOp::Sizeof, ..
            } => continue,
            _ => {}
        }
        let mut kids = Vec::new();
        expr_children(node, &mut |k| kids.push(k));
        stack.extend(kids.into_iter().rev());
    }
    found
}
