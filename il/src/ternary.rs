//! C conditional expressions with real values written as the `if` they are, before the
//! analyses:
//!
//! ```c
//! y = x != 0 ? sin(x) / x : 1.0;          if (x != 0) y = sin(x) / x; else y = 1.0;
//! double l = i > 0 ? u[i - 1] : 0.0;  →   double l; if (i > 0) l = u[i - 1]; else l = 0.0;
//! return s > 0 ? sqrt(s) : 2 * s;         if (s > 0) return sqrt(s); else return 2 * s;
//! ```
//!
//! A derivative of `c ? a : b` is `c ? ȧ : ḃ`, but its partials (the tangent's shared
//! temporaries, the adjoint's increments of what each branch reads) were computed whatever
//! the condition: `0/0` at `x = 0` in the adjoint of a `sinc`, `u[-1]` read and `ub[-1]`
//! written at a boundary, `w[i]` read through a null `w`. As an `if`, each branch's
//! derivative runs under its condition, in both modes and every analysis.
//!
//! Rewritten: an assignment (`=` or `op=`) or a `return` whose whole value is a conditional,
//! and the only declarator of a declaration whose initialiser is one (not `static`). The
//! target is real or a record (an integer `k = c ? i : j` has no derivative and is left as
//! written), and written without effects. A conditional inside a larger value is left as
//! written (a temporary would need the conditional's own type, and must not move across a
//! label or out of a short-circuit operand); its derivatives keep the branches apart
//! themselves (the adjoint's `(c ? x : 0)` contributions and `if (c)` increments in
//! `diff-adjoint/src/transpose.rs`, no shared partial of a branch in the tangent).

use crate::ir::*;
use crate::visit::expr_children;

/// Rewrites the conditional expressions of every C unit (see the module doc).
pub fn lower_conditionals(prog: &mut Program) {
    let units = prog.units_with_body(Lang::C);
    for id in units {
        let body = std::mem::take(&mut prog.units[id].body);
        let body = lower_block(prog, id, body);
        prog.units[id].body = body;
    }
}

fn lower_block(prog: &mut Program, id: UnitId, block: Vec<StmtId>) -> Vec<StmtId> {
    let mut out = Vec::with_capacity(block.len());
    for s in block {
        let mut kind = std::mem::replace(&mut prog.units[id].stmts[s].kind, StmtKind::Empty);
        crate::directives::child_blocks_mut(&mut kind, &mut |b| {
            let inner = std::mem::take(b);
            *b = lower_block(prog, id, inner);
        });
        prog.units[id].stmts[s].kind = kind;
        out.extend(lower_stmt(prog, id, s));
    }
    out
}

/// The statements standing for `s`: `s` itself, rewritten in place or not, and after a
/// declaration whose initialiser became an `if`, that `if`.
fn lower_stmt(prog: &mut Program, id: UnitId, s: StmtId) -> Vec<StmtId> {
    let span = prog.units[id].source_map.stmt.get(s).copied();
    match prog.units[id].stmts[s].kind.clone() {
        StmtKind::Assign { lhs, op, rhs }
            if real_target(prog, id, lhs) && effect_free(prog, id, lhs) =>
        {
            if let Some((c, a, b)) = conditional(&prog.units[id], rhs) {
                let u = &mut prog.units[id];
                let lhs2 = u.deep_copy(lhs);
                let then = u.new_stmt(StmtKind::Assign { lhs, op, rhs: a }, span);
                let else_ = u.new_stmt(
                    StmtKind::Assign {
                        lhs: lhs2,
                        op,
                        rhs: b,
                    },
                    span,
                );
                let then = lower_stmt(prog, id, then);
                let else_ = lower_stmt(prog, id, else_);
                prog.units[id].stmts[s].kind = if_else(c, then, else_);
                return vec![s];
            }
            vec![s]
        }
        StmtKind::Return(Some(e)) => {
            let Some((c, a, b)) = conditional(&prog.units[id], e) else {
                return vec![s];
            };
            let real = prog.units[id]
                .result
                .and_then(|r| prog.symbols[r].ty.as_ref())
                .is_some_and(|t| t.pointers == 0 && matches!(t.base, BaseClass::Real));
            if !real {
                return vec![s];
            }
            let u = &mut prog.units[id];
            let then = u.new_stmt(StmtKind::Return(Some(a)), span);
            let else_ = u.new_stmt(StmtKind::Return(Some(b)), span);
            let then = lower_stmt(prog, id, then);
            let else_ = lower_stmt(prog, id, else_);
            prog.units[id].stmts[s].kind = if_else(c, then, else_);
            vec![s]
        }
        StmtKind::Decl(Decl::Var(mut v)) if v.entities.len() == 1 => {
            let e = &v.entities[0];
            let static_ = v
                .attrs
                .iter()
                .any(|a| matches!(a, Attr::Keyword(k) if k == "static"));
            let Some(Init::Expr(init)) = e.init else {
                return vec![s];
            };
            let sym = e.sym;
            let real = prog.symbols[sym].ty.as_ref().is_some_and(|t| {
                t.pointers == 0 && t.dims.is_empty() && matches!(t.base, BaseClass::Real)
            });
            if static_ || !real {
                return vec![s];
            }
            let Some(_) = conditional(&prog.units[id], init) else {
                return vec![s];
            };
            // `const double t = c ? a : b;`: assigned after its declaration now.
            v.spec.qualifiers.retain(|q| q != "const");
            v.entities[0].init = None;
            prog.units[id].stmts[s].kind = StmtKind::Decl(Decl::Var(v));
            let set = prog.units[id].assign_var(sym, init, span);
            let mut out = vec![s];
            out.extend(lower_stmt(prog, id, set));
            out
        }
        _ => vec![s],
    }
}

/// `if (c) then else else_`.
fn if_else(c: ExprId, then: Vec<StmtId>, else_: Vec<StmtId>) -> StmtKind {
    StmtKind::If {
        arms: vec![(c, then)],
        else_block: Some(else_),
        logical: false,
        braces: vec![true, true],
    }
}

/// `c ? a : b` (in parentheses or not): its parts.
fn conditional(u: &UnitData, mut e: ExprId) -> Option<(ExprId, ExprId, ExprId)> {
    while let Expr::Paren(x) = u.exprs[e] {
        e = x;
    }
    match u.exprs[e] {
        Expr::Cond { cond, then, else_ } => Some((cond, then, else_)),
        _ => None,
    }
}

/// The variable a reference designates (`a[i].f` → `a`, `*p` → `p`).
fn root_symbol(u: &UnitData, mut e: ExprId) -> Option<SymbolId> {
    loop {
        match &u.exprs[e] {
            Expr::Name(s) => return Some(*s),
            Expr::Index { base, .. } | Expr::Field { base, .. } => e = *base,
            Expr::Unary { arg, .. } | Expr::Paren(arg) => e = *arg,
            _ => return None,
        }
    }
}

/// Whether `lhs` designates real data, or a record's (a record field, an element of a real
/// array or pointer).
fn real_target(prog: &Program, id: UnitId, lhs: ExprId) -> bool {
    let u = &prog.units[id];
    let Some(s) = root_symbol(u, lhs) else {
        return false;
    };
    prog.symbols[s]
        .ty
        .as_ref()
        .is_some_and(|t| matches!(t.base, BaseClass::Real | BaseClass::Record(_)))
}

/// Whether `e` has no effect (so evaluating it twice is the same as once): no assignment,
/// increment, comma or call of a procedure of the program (library math functions have none).
fn effect_free(prog: &Program, id: UnitId, e: ExprId) -> bool {
    let u = &prog.units[id];
    let mut todo = vec![e];
    while let Some(x) = todo.pop() {
        match &u.exprs[x] {
            Expr::Assign { .. } | Expr::IncDec { .. } | Expr::Comma(_) => return false,
            Expr::Call { callee, .. } => {
                let Expr::Name(f) = u.exprs[*callee] else {
                    return false;
                };
                let name = &prog.symbols[f].spelling;
                let defined = prog
                    .units
                    .iter()
                    .any(|(_, v)| v.name.is_some_and(|n| prog.symbols[n].spelling == *name));
                if defined {
                    return false;
                }
            }
            _ => {}
        }
        expr_children(&u.exprs[x], &mut |k| todo.push(k));
    }
    true
}
