//! C subscripts written backwards (`1[x]`, `i[a]`: the same as `x[1]`, `a[i]`, since
//! `e1[e2]` is `*(e1 + e2)`) put the right way round before the analyses. Written backwards,
//! the array was taken for the subscript: its element read as a constant (a silently zero
//! derivative), and a store through it lost.

use crate::ir::*;

/// Rewrites every C unit's `k[a]` (an integer `k`, an array or pointer `a`) as `a[k]`.
pub fn commute_reversed_subscripts(prog: &mut Program) {
    let units = prog.units_with_body(Lang::C);
    for id in units {
        let ids: Vec<ExprId> = prog.units[id].exprs.ids().collect();
        for e in ids {
            let u = &prog.units[id];
            let Expr::Index { base, subs } = &u.exprs[e] else {
                continue;
            };
            let [Subscript::Index(k)] = subs[..] else {
                continue;
            };
            let base = *base;
            if integer_value(prog, u, base) && address(prog, u, k) {
                let u = &mut prog.units[id];
                u.exprs[e] = Expr::Index {
                    base: k,
                    subs: vec![Subscript::Index(base)],
                };
            }
        }
    }
}

/// An integer literal or integer scalar variable (in parentheses or not).
fn integer_value(prog: &Program, u: &UnitData, e: ExprId) -> bool {
    match &u.exprs[e] {
        Expr::Paren(a) => integer_value(prog, u, *a),
        Expr::Literal(l) => l.kind == LitKind::Int,
        Expr::Name(s) => prog.symbols[*s]
            .ty
            .as_ref()
            .is_some_and(|t| t.base == BaseClass::Integer && t.pointers == 0 && t.dims.is_empty()),
        _ => false,
    }
}

/// An array or pointer variable (in parentheses or not).
fn address(prog: &Program, u: &UnitData, e: ExprId) -> bool {
    match &u.exprs[e] {
        Expr::Paren(a) => address(prog, u, *a),
        Expr::Name(s) => prog.symbols[*s]
            .ty
            .as_ref()
            .is_some_and(|t| t.pointers > 0 || !t.dims.is_empty()),
        _ => false,
    }
}
