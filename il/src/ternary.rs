//! C conditional expressions with real values written as the `if` they are, before the
//! analyses:
//!
//! ```c
//! y = x != 0 ? sin(x) / x : 1.0;          if (x != 0) y = sin(x) / x; else y = 1.0;
//! double l = i > 0 ? u[i - 1] : 0.0;  →   double l; if (i > 0) l = u[i - 1]; else l = 0.0;
//! return s > 0 ? sqrt(s) : 2 * s;         if (s > 0) return sqrt(s); else return 2 * s;
//! e = w * (d > 0 ? d * d : 0.0);          if (d > 0) cond = d * d; else cond = 0.0; e = w * cond;
//! ```
//!
//! A derivative of `c ? a : b` is `c ? ȧ : ḃ`, but its partials (the tangent's shared
//! temporaries, the adjoint's increments of what each branch reads) were computed whatever
//! the condition: `0/0` at `x = 0` in the adjoint of a `sinc`, `u[-1]` read and `ub[-1]`
//! written at a boundary, `w[i]` read through a null `w`. As an `if`, each branch's
//! derivative runs under its condition, in both modes and every analysis.
//!
//! Rewritten: an assignment (`=` or `op=`) or a `return` whose whole value is a conditional,
//! the only declarator of a declaration whose initialiser is one (not `static`), and a
//! conditional inside the value of an assignment to a real variable when nothing else in the
//! statement has an effect (a temporary of the variable's type takes it; not inside a
//! subscript, where it only chooses an element). The target is real or a record (an integer
//! `k = c ? i : j` has no derivative and is left as written), and written without effects.

use crate::ir::*;
use crate::visit::expr_children;

/// Rewrites the conditional expressions of every C unit (see the module doc).
pub fn lower_conditionals(prog: &mut Program) {
    let units: Vec<UnitId> = prog
        .units
        .iter()
        .filter(|(_, u)| u.lang == Lang::C && !u.body.is_empty())
        .map(|(id, _)| id)
        .collect();
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

/// The statements standing for `s` (`s` itself, rewritten in place or not, possibly after a
/// declaration or the `if` that computes a temporary).
fn lower_stmt(prog: &mut Program, id: UnitId, s: StmtId) -> Vec<StmtId> {
    let span = prog.units[id].source_map.stmt.get(s).copied();
    match prog.units[id].stmts[s].kind.clone() {
        StmtKind::Assign { lhs, op, rhs } if real_target(prog, id, lhs) && pure(prog, id, lhs) => {
            if let Some((c, a, b)) = conditional(&prog.units[id], rhs) {
                let u = &mut prog.units[id];
                let lhs2 = dup(u, lhs);
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
            if effect_free(prog, id, rhs) {
                if let Some(slot) = nested_conditional(&prog.units[id], rhs) {
                    return hoist_nested(prog, id, s, lhs, slot, span);
                }
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

/// The first conditional inside `e` (not `e` itself, not in a subscript or a call of a
/// procedure of the program), outermost first.
fn nested_conditional(u: &UnitData, e: ExprId) -> Option<ExprId> {
    let mut todo = vec![e];
    while let Some(x) = todo.pop() {
        match &u.exprs[x] {
            Expr::Cond { .. } if x != e => return Some(x),
            Expr::Index { base, .. } => todo.push(*base),
            _ => expr_children(&u.exprs[x], &mut |k| todo.push(k)),
        }
    }
    None
}

/// `s: lhs = … (c ? a : b) …` → `T t; if (c) t = a; else t = b; lhs = … t …` with `T` the
/// type of `lhs`'s variable.
fn hoist_nested(
    prog: &mut Program,
    id: UnitId,
    s: StmtId,
    lhs: ExprId,
    slot: ExprId,
    span: Option<crate::diag::Span>,
) -> Vec<StmtId> {
    let Some(root) = root_symbol(&prog.units[id], lhs) else {
        return vec![s];
    };
    let Some(ty) = prog.symbols[root].ty.clone() else {
        return vec![s];
    };
    let Some((c, a, b)) = conditional(&prog.units[id], slot) else {
        return vec![s];
    };
    let spec = match ty.bytes {
        Some(4) => "float",
        _ => "double",
    };
    let scope = prog.units[id].scope;
    let t = prog.add_fresh_variable(
        scope,
        "cond",
        Some(Type {
            base: BaseClass::Real,
            bytes: Some(if spec == "float" { 4 } else { 8 }),
            dims: Vec::new(),
            pointers: 0,
        }),
    );
    let u = &mut prog.units[id];
    let mut ts = TypeSpec::int(Lang::C);
    ts.keyword = spec.into();
    ts.class = BaseClass::Real;
    ts.bytes = Some(if spec == "float" { 4 } else { 8 });
    let decl = u.new_stmt(StmtKind::Decl(Decl::one(ts, t, Vec::new())), span);
    let then = u.assign_var(t, a, span);
    let else_ = u.assign_var(t, b, span);
    u.exprs[slot] = Expr::Name(t);
    let then = lower_stmt(prog, id, then);
    let else_ = lower_stmt(prog, id, else_);
    let span2 = span;
    let choose = prog.units[id].new_stmt(if_else(c, then, else_), span2);
    let mut out = vec![decl, choose];
    // The rest of the value may hold another conditional.
    out.extend(lower_stmt(prog, id, s));
    out
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

/// Whether evaluating `e` twice is the same as once: no assignment, increment or call of a
/// procedure of the program in it.
fn pure(prog: &Program, id: UnitId, e: ExprId) -> bool {
    effect_free(prog, id, e)
}

/// Whether `e` has no effect: no assignment, increment, comma or call of a procedure of the
/// program (library math functions have none).
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

/// A deep copy of expression `e` of `u`.
fn dup(u: &mut UnitData, e: ExprId) -> ExprId {
    let mut node = u.exprs[e].clone();
    crate::copy::expr_slots(&mut node, &mut |slot| *slot = dup(u, *slot));
    u.exprs.alloc(node)
}
