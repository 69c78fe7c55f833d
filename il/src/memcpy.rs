//! C `memcpy` of real arrays written as the loop it is, before the analyses:
//!
//! ```c
//! memcpy(a, u0, n * sizeof(double));        for (icopy = 0; icopy < n; icopy++)
//!                                     →         a[icopy] = u0[icopy];
//! ```
//!
//! so that both modes and every analysis see the copy element by element, as if the user had
//! written the loop (the derivatives of what it copies were refused: a library call moves the
//! bytes, not the derivatives). Rewritten only when all of it is known: a call statement (its
//! value unused) of `memcpy` (not `memmove`, whose ranges may overlap) whose destination and
//! source are `p`, `&p[e]` or `p + e` with `p` a local, parameter or global pointer or
//! one-dimensional array of the same real type, and whose size is `n * sizeof(T)`,
//! `sizeof(T) * n` or `sizeof(T)` with `T` that type (`double`, `*p`, `p[0]`). Anything else is
//! left as written (and refused where its data is active).

use crate::ir::*;
use crate::visit::stmt_children;

/// Rewrites the `memcpy` calls of every C unit (see the module doc).
pub fn lower_real_copies(prog: &mut Program) {
    let units: Vec<UnitId> = prog
        .units
        .iter()
        .filter(|(_, u)| u.lang == Lang::C)
        .map(|(id, _)| id)
        .collect();
    for id in units {
        lower_unit(prog, id);
    }
}

/// A copy found: its statement, destination and source (variable, offset), element count
/// (`None`: one).
struct Copy {
    stmt: StmtId,
    dst: (SymbolId, Option<ExprId>),
    src: (SymbolId, Option<ExprId>),
    count: Option<ExprId>,
}

fn lower_unit(prog: &mut Program, id: UnitId) {
    let copies: Vec<Copy> = {
        let u = &prog.units[id];
        let mut all = Vec::new();
        let mut todo: Vec<StmtId> = u.body.clone();
        while let Some(s) = todo.pop() {
            stmt_children(&u.stmts[s].kind, &mut |_| {}, &mut |c| todo.push(c));
            if let Some(c) = copy_of(prog, u, s) {
                all.push(c);
            }
        }
        all
    };
    if copies.is_empty() {
        return;
    }
    let scope = prog.units[id].scope;
    let i = prog.add_fresh_variable(scope, "icopy", Some(Type::int()));
    let u = &mut prog.units[id];
    for c in copies {
        let span = u.source_map.stmt.get(c.stmt).copied();
        let zero = u.int_literal(0);
        let iv = u.exprs.alloc(Expr::Name(i));
        let init = u.new_stmt(
            StmtKind::Assign {
                lhs: iv,
                op: None,
                rhs: zero,
            },
            span,
        );
        let iv = u.exprs.alloc(Expr::Name(i));
        let count = match c.count {
            Some(n) => n,
            None => u.int_literal(1),
        };
        let cond = u.exprs.alloc(Expr::Binary {
            op: BinOp::Lt(RelSpell::Symbol),
            lhs: iv,
            rhs: count,
        });
        let iv = u.exprs.alloc(Expr::Name(i));
        let step = u.exprs.alloc(Expr::IncDec {
            inc: true,
            prefix: false,
            arg: iv,
        });
        let lhs = element(u, c.dst, i);
        let rhs = element(u, c.src, i);
        let copy = u.new_stmt(StmtKind::Assign { lhs, op: None, rhs }, span);
        u.stmts[c.stmt].kind = StmtKind::CFor {
            init: Some(init),
            cond: Some(cond),
            step: Some(step),
            body: vec![copy],
            braced: false,
        };
    }
    // The counter's declaration, after the leading declarations.
    let decl = Decl::one(TypeSpec::int(Lang::C), i, Vec::new());
    let span = u
        .body
        .first()
        .and_then(|s| u.source_map.stmt.get(*s).copied());
    let d = u.new_stmt(StmtKind::Decl(decl), span);
    let at = u
        .body
        .iter()
        .position(|&s| !matches!(u.stmts[s].kind, StmtKind::Decl(_)))
        .unwrap_or(u.body.len());
    u.body.insert(at, d);
}

/// `p[e + i]` (or `p[i]`) for the base `p`, offset `e` and counter `i`.
fn element(u: &mut UnitData, (p, off): (SymbolId, Option<ExprId>), i: SymbolId) -> ExprId {
    let base = u.exprs.alloc(Expr::Name(p));
    let iv = u.exprs.alloc(Expr::Name(i));
    let sub = match off {
        // The call's own offset expression, used once: the call is replaced.
        Some(e) => u.exprs.alloc(Expr::Binary {
            op: BinOp::Add,
            lhs: e,
            rhs: iv,
        }),
        None => iv,
    };
    u.exprs.alloc(Expr::Index {
        base,
        subs: vec![Subscript::Index(sub)],
    })
}

/// The copy statement `s` is, when it is one this pass rewrites.
fn copy_of(prog: &Program, u: &UnitData, s: StmtId) -> Option<Copy> {
    let StmtKind::Call { callee, args, .. } = &u.stmts[s].kind else {
        return None;
    };
    let Expr::Name(f) = u.exprs[*callee] else {
        return None;
    };
    if prog.symbols[f].spelling != "memcpy" || args.len() != 3 || prog.symbols[f].unit.is_some() {
        return None;
    }
    let dst = array_ref(prog, u, args[0].value)?;
    let src = array_ref(prog, u, args[1].value)?;
    let (td, ts) = (elem_type(prog, dst.0)?, elem_type(prog, src.0)?);
    if td != ts {
        return None;
    }
    let count = element_count(u, args[2].value, td, &[dst.0, src.0])?;
    Some(Copy {
        stmt: s,
        dst,
        src,
        count,
    })
}

/// `p`, `&p[e]`, `p + e` (parenthesised or not): the variable and the offset.
fn array_ref(prog: &Program, u: &UnitData, e: ExprId) -> Option<(SymbolId, Option<ExprId>)> {
    let e = unparen(u, e);
    let r = match &u.exprs[e] {
        Expr::Name(p) => (*p, None),
        Expr::Unary {
            op: UnOp::AddrOf,
            arg,
        } => match &u.exprs[unparen(u, *arg)] {
            Expr::Index { base, subs } => match (&u.exprs[unparen(u, *base)], &subs[..]) {
                (Expr::Name(p), [Subscript::Index(k)]) => (*p, Some(*k)),
                _ => return None,
            },
            _ => return None,
        },
        Expr::Binary {
            op: BinOp::Add,
            lhs,
            rhs,
        } => match &u.exprs[unparen(u, *lhs)] {
            Expr::Name(p) => (*p, Some(*rhs)),
            _ => return None,
        },
        _ => return None,
    };
    elem_type(prog, r.0).map(|_| r)
}

/// The real element type (bytes) of a pointer or one-dimensional array variable.
fn elem_type(prog: &Program, p: SymbolId) -> Option<u32> {
    let t = prog.symbols[p].ty.as_ref()?;
    let shape = (t.pointers == 1 && t.dims.is_empty()) || (t.pointers == 0 && t.dims.len() == 1);
    (shape && t.base == BaseClass::Real).then_some(t.bytes?)
}

/// The element count of a byte size `n * sizeof(T)`, `sizeof(T) * n`, `sizeof(T)` (`None`
/// for one element), `T` of `bytes` bytes: a real type, or `*p`, `p[0]` of one of `vars`.
fn element_count(u: &UnitData, e: ExprId, bytes: u32, vars: &[SymbolId]) -> Option<Option<ExprId>> {
    let e = unparen(u, e);
    if is_sizeof(u, e, bytes, vars) {
        return Some(None);
    }
    let Expr::Binary {
        op: BinOp::Mul,
        lhs,
        rhs,
    } = &u.exprs[e]
    else {
        return None;
    };
    if is_sizeof(u, *rhs, bytes, vars) {
        Some(Some(*lhs))
    } else if is_sizeof(u, *lhs, bytes, vars) {
        Some(Some(*rhs))
    } else {
        None
    }
}

fn is_sizeof(u: &UnitData, e: ExprId, bytes: u32, vars: &[SymbolId]) -> bool {
    let elem_of = |x: ExprId| matches!(&u.exprs[unparen(u, x)], Expr::Name(p) if vars.contains(p));
    match &u.exprs[unparen(u, e)] {
        Expr::SizeofType(p) => {
            p.derived.is_empty()
                && p.dims.is_empty()
                && p.spec.class == BaseClass::Real
                && p.spec.bytes == Some(bytes)
        }
        Expr::Unary {
            op: UnOp::Sizeof,
            arg,
        } => match &u.exprs[unparen(u, *arg)] {
            Expr::Unary {
                op: UnOp::Deref,
                arg,
            } => elem_of(*arg),
            Expr::Index { base, subs } => subs.len() == 1 && elem_of(*base),
            _ => false,
        },
        _ => false,
    }
}

fn unparen(u: &UnitData, mut e: ExprId) -> ExprId {
    while let Expr::Paren(a) = u.exprs[e] {
        e = a;
    }
    e
}
