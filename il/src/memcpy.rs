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
//! `sizeof(T) * n` or `sizeof(T)` with `T` that type (`double`, `*p`, `p[0]`), or `sizeof a`
//! for a destination `a` that is an array of the function with a constant extent. A
//! `memset(p, 0, size)` with the same destination and size forms becomes `p[i] = 0.0` (the
//! derivatives of what it clears were kept). Anything else is left as written (and refused
//! where its data is active).
//!
//! `memmove` takes the same forms, and its ranges may overlap: within one array the copy
//! runs backwards when the destination's offset is past the source's (`memmove(&a[1], a,
//! (n - 1) * sizeof(double))` shifting a history up), forwards otherwise, decided here when
//! both offsets are constants and by an `if` on them otherwise; the derivatives move as the
//! values do, and the adjoint transposes the loop it sees. Between two different pointers
//! it is a copy between disjoint blocks, as the analyses take two pointers to be.
//! Destinations and sources may be cast (`(void *)&a[1]`).

use crate::diag::Span;
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

/// A copy found: its statement, destination and source (variable, offset; `None`: the zero
/// of `memset`), element count.
struct Copy {
    stmt: StmtId,
    dst: (SymbolId, Option<ExprId>),
    src: Option<(SymbolId, Option<ExprId>)>,
    count: Count,
    order: Order,
}

/// The order the elements are copied in.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Order {
    /// First to last (`memcpy`, `memset`, a `memmove` to a lower offset or between two
    /// different pointers).
    Forward,
    /// Last to first (a `memmove` to a higher offset of the same array).
    Backward,
    /// Decided by comparing the offsets at run time (`memmove` of one array, offsets not
    /// both constants).
    ByOffsets,
}

/// An element count: one, an expression of the call, or the constant extent of an array
/// named by `sizeof a`.
enum Count {
    One,
    Expr(ExprId),
    Const(i64),
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
        let count = match c.count {
            Count::Expr(n) => n,
            Count::One => u.int_literal(1),
            Count::Const(k) => u.int_literal(k),
        };
        let kind = match c.order {
            Order::Forward | Order::Backward => {
                copy_loop(u, &c, count, i, c.order == Order::Backward, span)
            }
            Order::ByOffsets => {
                // `if (od > os) <backward> else <forward>`, each with its own copy of the
                // call's expressions.
                let offset = |u: &mut UnitData, o: Option<ExprId>| match o {
                    Some(e) => crate::copy::dup_expr(u, e),
                    None => u.int_literal(0),
                };
                let od = offset(u, c.dst.1);
                let os = offset(u, c.src.and_then(|x| x.1));
                let cond = u.exprs.alloc(Expr::Binary {
                    op: BinOp::Gt(RelSpell::Symbol),
                    lhs: od,
                    rhs: os,
                });
                let fwd = Copy {
                    stmt: c.stmt,
                    dst: (c.dst.0, c.dst.1.map(|e| crate::copy::dup_expr(u, e))),
                    src: c
                        .src
                        .map(|(p, o)| (p, o.map(|e| crate::copy::dup_expr(u, e)))),
                    count: Count::One,
                    order: Order::Forward,
                };
                let n2 = crate::copy::dup_expr(u, count);
                let back = copy_loop(u, &c, count, i, true, span);
                let back = u.new_stmt(back, span);
                let fore = copy_loop(u, &fwd, n2, i, false, span);
                let fore = u.new_stmt(fore, span);
                StmtKind::If {
                    arms: vec![(cond, vec![back])],
                    else_block: Some(vec![fore]),
                    logical: false,
                    braces: vec![true, true],
                }
            }
        };
        u.stmts[c.stmt].kind = kind;
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

/// The loop copying (or clearing) `count` elements of copy `c` with counter `i`:
/// `for (i = 0; i < count; i++)` or, backwards, `for (i = count - 1; i >= 0; i--)`, whose
/// body is `dst[od + i] = src[os + i]` (or `= 0.0`). Uses the expressions of `c` once.
fn copy_loop(
    u: &mut UnitData,
    c: &Copy,
    count: ExprId,
    i: SymbolId,
    backward: bool,
    span: Option<Span>,
) -> StmtKind {
    let (from, cond, inc) = if backward {
        let one = u.int_literal(1);
        let last = u.exprs.alloc(Expr::Binary {
            op: BinOp::Sub,
            lhs: count,
            rhs: one,
        });
        let iv = u.exprs.alloc(Expr::Name(i));
        let zero = u.int_literal(0);
        let cond = u.exprs.alloc(Expr::Binary {
            op: BinOp::Ge(RelSpell::Symbol),
            lhs: iv,
            rhs: zero,
        });
        (last, cond, false)
    } else {
        let iv = u.exprs.alloc(Expr::Name(i));
        let cond = u.exprs.alloc(Expr::Binary {
            op: BinOp::Lt(RelSpell::Symbol),
            lhs: iv,
            rhs: count,
        });
        (u.int_literal(0), cond, true)
    };
    let init = u.assign_var(i, from, span);
    let iv = u.exprs.alloc(Expr::Name(i));
    let step = u.exprs.alloc(Expr::IncDec {
        inc,
        prefix: false,
        arg: iv,
    });
    let lhs = element(u, c.dst, i);
    let rhs = match c.src {
        Some(src) => element(u, src, i),
        None => u.exprs.alloc(Expr::Literal(Literal {
            kind: LitKind::Real,
            text: "0.0".into(),
        })),
    };
    let copy = u.new_stmt(StmtKind::Assign { lhs, op: None, rhs }, span);
    StmtKind::CFor {
        init: Some(init),
        cond: Some(cond),
        step: Some(step),
        body: vec![copy],
        braced: false,
    }
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
    let name = prog.symbols[f].spelling.as_str();
    if !matches!(name, "memcpy" | "memmove" | "memset")
        || args.len() != 3
        || prog.symbols[f].unit.is_some()
    {
        return None;
    }
    let dst = array_ref(prog, u, args[0].value)?;
    let td = elem_type(prog, dst.0)?;
    let src = if name != "memset" {
        let src = array_ref(prog, u, args[1].value)?;
        if elem_type(prog, src.0)? != td {
            return None;
        }
        Some(src)
    } else {
        // `memset(p, 0, …)`: all bytes zero is the real zero; any other byte is not a
        // value a loop of the element type writes.
        match &u.exprs[unparen(u, args[1].value)] {
            Expr::Literal(l) if l.kind == LitKind::Int && l.text == "0" => None,
            _ => return None,
        }
    };
    let mut vars = vec![dst.0];
    vars.extend(src.map(|s| s.0));
    let count = element_count(prog, u, args[2].value, td, &vars)?;
    if matches!(count, Count::Const(_)) && dst.1.is_some() {
        // `sizeof a` from an offset would run past the end.
        return None;
    }
    // `memmove` within one array: backwards when the destination starts past the source.
    let order = match src {
        Some(src) if name == "memmove" && src.0 == dst.0 => {
            let at = |o: Option<ExprId>| match o {
                None => Some(0),
                Some(e) => match &u.exprs[unparen(u, e)] {
                    Expr::Literal(l) if l.kind == LitKind::Int => l.text.parse::<i64>().ok(),
                    _ => None,
                },
            };
            match (at(dst.1), at(src.1)) {
                (Some(d), Some(s)) if d > s => Order::Backward,
                (Some(_), Some(_)) => Order::Forward,
                _ => Order::ByOffsets,
            }
        }
        _ => Order::Forward,
    };
    Some(Copy {
        stmt: s,
        dst,
        src,
        count,
        order,
    })
}

/// `Count::Const(k)` for a one-dimensional array of this unit declared `T a[k]`.
fn array_extent(prog: &Program, u: &UnitData, a: SymbolId) -> Option<Count> {
    let t = prog.symbols[a].ty.as_ref()?;
    if t.pointers != 0 || t.dims.len() != 1 || t.dims[0].lower.is_some() {
        return None;
    }
    let declared_here = u.stmts.iter().any(|(_, st)| match &st.kind {
        StmtKind::Decl(Decl::Var(v)) => v.entities.iter().any(|e| e.sym == a),
        _ => false,
    });
    let DimUpper::Expr(x) = t.dims[0].upper else {
        return None;
    };
    if !declared_here {
        return None;
    }
    match &u.exprs[unparen(u, x)] {
        Expr::Literal(l) if l.kind == LitKind::Int => l.text.parse().ok().map(Count::Const),
        _ => None,
    }
}

/// `p`, `&p[e]`, `p + e` (parenthesised or not): the variable and the offset.
fn array_ref(prog: &Program, u: &UnitData, e: ExprId) -> Option<(SymbolId, Option<ExprId>)> {
    let mut e = unparen(u, e);
    while let Expr::Cast { arg, .. } = &u.exprs[e] {
        e = unparen(u, *arg);
    }
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

/// The element count of a byte size `n * sizeof(T)`, `sizeof(T) * n`, `sizeof(T)` (one
/// element), `T` of `bytes` bytes: a real type, or `*p`, `p[0]` of one of `vars`; or
/// `sizeof a` of the first of `vars`, an array of this unit of constant extent.
fn element_count(
    prog: &Program,
    u: &UnitData,
    e: ExprId,
    bytes: u32,
    vars: &[SymbolId],
) -> Option<Count> {
    let e = unparen(u, e);
    if is_sizeof(u, e, bytes, vars) {
        return Some(Count::One);
    }
    if let Expr::Unary {
        op: UnOp::Sizeof,
        arg,
    } = &u.exprs[e]
    {
        if matches!(&u.exprs[unparen(u, *arg)], Expr::Name(a) if *a == vars[0]) {
            return array_extent(prog, u, vars[0]);
        }
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
        Some(Count::Expr(*lhs))
    } else if is_sizeof(u, *lhs, bytes, vars) {
        Some(Count::Expr(*rhs))
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
                && p.spec.c_keywords_only()
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
