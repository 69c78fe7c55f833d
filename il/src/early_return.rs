//! C functions that return a value before their end (`if (v <= 0.0) return 0.0; … return
//! log(v);`), restructured before the adjoint is built: each `return e` becomes `r = e` on a
//! new local `r` of the function's type, the statements after an IF whose arms return move
//! into its arm that does not, and the function ends with one `return r`. The adjoint reverses
//! the structured code (a value returned early was refused).
//!
//! Only returns outside loops and `switch`es, in IF constructs, are rewritten, when what
//! follows each IF goes to one open path (the statements would be copied into two arms
//! otherwise) and every path ends by setting the result; a function with any other early
//! return is left as written (the adjoint refuses it at the return).

use crate::diag::Span;
use crate::ir::*;
use crate::visit::stmt_children;

/// Restructures the early value returns of every C function (see the module doc).
pub fn structure_value_returns(prog: &mut Program) {
    let units: Vec<UnitId> = prog
        .units
        .iter()
        .filter(|(_, u)| u.lang == Lang::C && u.result.is_some())
        .map(|(id, _)| id)
        .collect();
    for id in units {
        rewrite_unit(prog, id);
    }
}

fn rewrite_unit(prog: &mut Program, id: UnitId) {
    let u = &prog.units[id];
    let body = u.body.clone();
    let early = body
        .iter()
        .enumerate()
        .any(|(i, &s)| returns_in(u, s) && !(i + 1 == body.len() && is_return(u, s)));
    if !early {
        return;
    }
    // A dry run first: nothing is changed unless every path of the rewritten body sets the
    // result, with no statement copied.
    if open_ends(u, &body, false) != Some(0) {
        return;
    }
    let Some(header) = u.header_type.clone() else {
        return;
    };
    let derived = u.ret_derived.clone();
    let scope = u.scope;
    let ty = u.result.and_then(|r| prog.symbols[r].ty.clone());
    let mut name = "result".to_string();
    let mut k = 0;
    while prog.lookup_local_chain(scope, &name).is_some() {
        k += 1;
        name = format!("result{k}");
    }
    let data = SymbolData::variable(&name, scope, ty);
    let r = prog.add_symbol(scope, name, data);
    let u = &mut prog.units[id];
    let last_span = body.last().and_then(|s| u.source_map.stmt.get(*s).copied());
    let mut new_body = rewrite(u, &body, &[], r);
    let decl = Decl::var(VarDecl {
        spec: header,
        attrs: Vec::new(),
        entities: vec![Entity {
            sym: r,
            dims: None,
            char_len: None,
            derived,
            init: None,
        }],
        double_colon: false,
    });
    let d = new_stmt(u, StmtKind::Decl(decl), last_span);
    // After the leading declarations, as the function's own are.
    let at = new_body
        .iter()
        .position(|&s| !matches!(u.stmts[s].kind, StmtKind::Decl(_)))
        .unwrap_or(new_body.len());
    new_body.insert(at, d);
    let v = u.exprs.alloc(Expr::Name(r));
    let ret = new_stmt(u, StmtKind::Return(Some(v)), last_span);
    new_body.push(ret);
    u.body = new_body;
}

fn new_stmt(u: &mut UnitData, kind: StmtKind, span: Option<Span>) -> StmtId {
    let s = u.stmts.alloc(Stmt {
        kind,
        label: None,
        construct_name: None,
        directives: Vec::new(),
        comment: None,
    });
    if let Some(sp) = span {
        u.source_map.stmt.insert(s, sp);
    }
    s
}

fn is_return(u: &UnitData, s: StmtId) -> bool {
    matches!(u.stmts[s].kind, StmtKind::Return(_))
}

/// Whether statement `s` is or holds a `return`.
fn returns_in(u: &UnitData, s: StmtId) -> bool {
    if is_return(u, s) {
        return true;
    }
    let mut kids = Vec::new();
    stmt_children(&u.stmts[s].kind, &mut |_| {}, &mut |k| kids.push(k));
    kids.into_iter().any(|k| returns_in(u, k))
}

/// The number of points where block `b`, rewritten, goes on to what follows it (`then`
/// when something does: `more`); `None` when it cannot be rewritten: a return in a loop or a
/// `switch`, or statements that would have to be copied to two such points.
fn open_ends(u: &UnitData, b: &[StmtId], more: bool) -> Option<usize> {
    for (i, &s) in b.iter().enumerate() {
        if !returns_in(u, s) {
            continue;
        }
        let rest = &b[i + 1..];
        let rest_more = !rest.is_empty() || more;
        return match &u.stmts[s].kind {
            StmtKind::Return(Some(_)) => Some(0),
            StmtKind::If {
                arms, else_block, ..
            } => {
                let mut m = 0;
                for (_, blk) in arms {
                    m += open_ends(u, blk, rest_more)?;
                }
                m += match else_block {
                    Some(blk) => open_ends(u, blk, rest_more)?,
                    None => 1,
                };
                match m {
                    0 => Some(0),
                    // What follows moves to the one open point.
                    1 => open_ends(u, rest, more),
                    _ if rest_more => None,
                    _ => Some(m),
                }
            }
            _ => None,
        };
    }
    Some(1)
}

/// Block `b` rewritten (its [`open_ends`] allowed it) and followed by `then`: `return e` as
/// `r = e`, what follows an IF with returns moved to its open point, the statements after a
/// return dropped.
fn rewrite(u: &mut UnitData, b: &[StmtId], then: &[StmtId], r: SymbolId) -> Vec<StmtId> {
    let mut out = Vec::new();
    for (i, &s) in b.iter().enumerate() {
        if !returns_in(u, s) {
            out.push(s);
            continue;
        }
        let mut rest: Vec<StmtId> = b[i + 1..].to_vec();
        rest.extend_from_slice(then);
        match u.stmts[s].kind.clone() {
            StmtKind::Return(Some(e)) => {
                let lhs = u.exprs.alloc(Expr::Name(r));
                let span = u.source_map.stmt.get(s).copied();
                out.push(new_stmt(
                    u,
                    StmtKind::Assign {
                        lhs,
                        op: None,
                        rhs: e,
                    },
                    span,
                ));
            }
            StmtKind::If {
                arms, else_block, ..
            } => {
                let mut new_arms = Vec::new();
                for (c, blk) in &arms {
                    let nb = rewrite(u, blk, &rest, r);
                    new_arms.push((*c, nb));
                }
                let eb = else_block.unwrap_or_default();
                let ne = rewrite(u, &eb, &rest, r);
                let braces = vec![true; new_arms.len() + 1];
                u.stmts[s].kind = StmtKind::If {
                    arms: new_arms,
                    else_block: (!ne.is_empty()).then_some(ne),
                    logical: false,
                    braces,
                };
                out.push(s);
            }
            _ => out.push(s),
        }
        return out;
    }
    let tail = rewrite(u, then, &[], r);
    out.extend(tail);
    out
}
