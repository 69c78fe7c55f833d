//! `il::verify`: checks that every handle points into its arena and every scope chain ends,
//! so that later passes can index without checks. Run by tests after every transformation.

use crate::ir::*;
use crate::visit::{cparam_children, decl_exprs, expr_children, stmt_children};

/// An inconsistency found by [`verify`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifyError(pub String);

/// Checks handles and scopes of the whole program.
pub fn verify(p: &Program) -> Result<(), Vec<VerifyError>> {
    let mut errs = Vec::new();
    for (sid, sc) in p.scopes.iter() {
        let mut cur = sc.parent;
        let mut steps = 0;
        while let Some(c) = cur {
            if !p.scopes.contains(c) {
                errs.push(VerifyError(format!(
                    "scope {sid:?} has a dangling parent {c:?}"
                )));
                break;
            }
            steps += 1;
            if steps > p.scopes.len() {
                errs.push(VerifyError(format!("scope {sid:?} has a parent cycle")));
                break;
            }
            cur = p.scopes[c].parent;
        }
        for &s in &sc.order {
            if !p.symbols.contains(s) {
                errs.push(VerifyError(format!(
                    "scope {sid:?} lists a dangling symbol {s:?}"
                )));
            }
        }
    }
    for (uid, u) in p.units.iter() {
        if !p.scopes.contains(u.scope) {
            errs.push(VerifyError(format!("unit {uid:?} has a dangling scope")));
            continue;
        }
        for &c in &u.contains {
            if !p.units.contains(c) || p.units[c].parent != Some(uid) {
                errs.push(VerifyError(format!(
                    "unit {uid:?} contains {c:?} whose parent is not {uid:?}"
                )));
            }
        }
        let mut seen = vec![false; u.stmts.len()];
        let mut check_stmt = |s: StmtId, errs: &mut Vec<VerifyError>| {
            if !u.stmts.contains(s) {
                errs.push(VerifyError(format!(
                    "unit {uid:?}: dangling statement {s:?}"
                )));
                return false;
            }
            if std::mem::replace(&mut seen[s.index()], true) {
                errs.push(VerifyError(format!(
                    "unit {uid:?}: statement {s:?} appears twice in the tree"
                )));
                return false;
            }
            true
        };
        let mut stack: Vec<StmtId> = u.body.clone();
        let mut exprs: Vec<ExprId> = Vec::new();
        for d in &u.decls {
            decl_exprs(d, &mut |e| exprs.push(e));
        }
        while let Some(s) = stack.pop() {
            if !check_stmt(s, &mut errs) {
                continue;
            }
            stmt_children(&u.stmts[s].kind, &mut |e| exprs.push(e), &mut |c| {
                stack.push(c)
            });
        }
        while let Some(e) = exprs.pop() {
            if !u.exprs.contains(e) {
                errs.push(VerifyError(format!(
                    "unit {uid:?}: dangling expression {e:?}"
                )));
                continue;
            }
            let ex = &u.exprs[e];
            match ex {
                Expr::Name(s) if !p.symbols.contains(*s) => errs.push(VerifyError(format!(
                    "unit {uid:?}: expression {e:?} names a dangling symbol"
                ))),
                Expr::Cast { ty, .. } | Expr::SizeofType(ty) | Expr::CompoundLit { ty, .. } => {
                    cparam_children(ty, &mut |c| exprs.push(c))
                }
                _ => {}
            }
            expr_children(ex, &mut |c| exprs.push(c));
        }
    }
    if errs.is_empty() {
        Ok(())
    } else {
        Err(errs)
    }
}
