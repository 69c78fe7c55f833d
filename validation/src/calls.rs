//! The size of a rank-1 assumed-size (or F66 any-length `X(1)`) dummy of the head, from the
//! calls of the head in the input files: the declared size of each actual array (less the
//! offset of an element passed, `A(K)`), the smallest over the calls. Used by `-context`,
//! where a main program calls the head: the driver then allocates what the caller did.

use crate::ilvalue::eval;
use radtap_il::*;
use std::collections::HashMap;

/// Whether dummy `s` of unit `u` is written with a last extent of 1 (`DOUBLE PRECISION
/// X(1)`, F66's "any length"), which radtap reads as `X(*)`.
pub fn declared_one(p: &Program, u: UnitId, s: SymbolId) -> bool {
    let ud = &p.units[u];
    let one = |dims: &[Dim]| {
        dims.last().is_some_and(|d| {
            matches!(d.upper, DimUpper::Expr(e)
                if matches!(&ud.exprs[e], Expr::Literal(l) if l.text == "1"))
        })
    };
    ud.decls.iter().any(|d| match d {
        Decl::Var(v) => v.entities.iter().any(|en| {
            en.sym == s
                && match &en.dims {
                    Some(dims) => one(dims),
                    None => v
                        .attrs
                        .iter()
                        .any(|a| matches!(a, Attr::Dimension(d) if one(d))),
                }
        }),
        _ => false,
    })
}

/// `-size name=count` settings for the head's rank-1 assumed-size dummies, from the calls
/// of the head in the program (none when no call shows a size).
pub fn extents_from_calls(p: &Program, head: UnitId) -> Vec<(String, String)> {
    let hu = &p.units[head];
    let Some(hname) = hu.name.map(|s| p.symbols[s].spelling.to_ascii_lowercase()) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (k, &s) in hu.params.iter().enumerate() {
        let assumed = p.symbols[s].ty.as_ref().is_some_and(|t| {
            t.dims.len() == 1 && t.dims[0].upper == DimUpper::Assumed && t.pointers == 0
        });
        if !assumed {
            continue;
        }
        let mut least: Option<i64> = None;
        for (uid, ud) in p.units.iter() {
            if uid == head {
                continue;
            }
            let mut actuals: Vec<ExprId> = Vec::new();
            let named = |callee: ExprId| {
                matches!(ud.exprs[callee], Expr::Name(c)
                    if p.symbols[c].spelling.eq_ignore_ascii_case(&hname))
            };
            for (_, st) in ud.stmts.iter() {
                if let StmtKind::Call { callee, args, .. } = &st.kind {
                    if named(*callee) && args.iter().all(|a| a.keyword.is_none()) {
                        actuals.extend(args.get(k).map(|a| a.value));
                    }
                }
            }
            for (_, e) in ud.exprs.iter() {
                if let Expr::Call { callee, args } = e {
                    if named(*callee) && args.iter().all(|a| a.keyword.is_none()) {
                        actuals.extend(args.get(k).map(|a| a.value));
                    }
                }
            }
            for a in actuals {
                if let Some(n) = room(p, uid, a) {
                    least = Some(least.map_or(n, |l| l.min(n)));
                }
            }
        }
        if let Some(n) = least.filter(|&n| n > 0) {
            out.push((p.symbols[s].spelling.to_ascii_lowercase(), n.to_string()));
        }
    }
    out
}

/// The elements from actual argument `e` of unit `u` to the end of its array: a whole
/// array of constant extents, or an element `A(K)` of a rank-1 one with a constant `K`.
fn room(p: &Program, u: UnitId, e: ExprId) -> Option<i64> {
    let ud = &p.units[u];
    let env = HashMap::new();
    let size = |s: SymbolId| -> Option<(i64, i64)> {
        let t = p.symbols[s].ty.as_ref()?;
        if t.base != BaseClass::Real || t.dims.is_empty() {
            return None;
        }
        let mut n = 1i64;
        let mut lo1 = 1;
        for (j, d) in t.dims.iter().enumerate() {
            let lo = match d.lower {
                Some(l) => eval(p, u, l, &env)?,
                None => 1,
            };
            let DimUpper::Expr(h) = d.upper else {
                return None;
            };
            let hi = eval(p, u, h, &env)?;
            if j == 0 {
                lo1 = lo;
            }
            n = n.checked_mul(hi - lo + 1)?;
        }
        Some((n, lo1))
    };
    match &ud.exprs[e] {
        Expr::Name(s) => size(*s).map(|x| x.0),
        Expr::Index { base, subs } => {
            let Expr::Name(s) = ud.exprs[*base] else {
                return None;
            };
            let rank1 = p.symbols[s].ty.as_ref().is_some_and(|t| t.dims.len() == 1);
            let [Subscript::Index(i)] = &subs[..] else {
                return None;
            };
            let (n, lo) = size(s)?;
            let at = eval(p, u, *i, &env)?;
            (rank1 && at >= lo && at - lo < n).then_some(n - (at - lo))
        }
        _ => None,
    }
}
