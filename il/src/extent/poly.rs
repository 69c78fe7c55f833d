//! The values the extent inference computes with: [`Poly`], a polynomial with integer
//! coefficients over integer symbols (loop counters, integer parameters, record members),
//! its substitution of a counter by either end of its range ([`over_loops`]), its reading
//! from an integer expression ([`loose_poly`]), and [`Extent`], the largest of a few
//! polynomials, which is what the inference answers. No walk of the code here: the module
//! knows arithmetic, not procedures.

use crate::*;
use std::collections::{BTreeMap, HashMap};

/// A polynomial with integer coefficients over integer symbols (each monomial a sorted list of
/// symbols).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub(super) struct Poly(pub(super) BTreeMap<Vec<SymbolId>, i64>);

impl Poly {
    pub(super) fn lit(v: i64) -> Poly {
        let mut m = BTreeMap::new();
        if v != 0 {
            m.insert(vec![], v);
        }
        Poly(m)
    }
    pub(super) fn var(s: SymbolId) -> Poly {
        Poly(BTreeMap::from([(vec![s], 1)]))
    }
    pub(super) fn add(&self, o: &Poly, sign: i64) -> Option<Poly> {
        let mut m = self.0.clone();
        for (k, v) in &o.0 {
            let e = m.entry(k.clone()).or_insert(0);
            *e = e.checked_add(v.checked_mul(sign)?)?;
            if *e == 0 {
                m.remove(k);
            }
        }
        Some(Poly(m))
    }
    pub(super) fn mul(&self, o: &Poly) -> Option<Poly> {
        let mut r = Poly::default();
        for (a, x) in &self.0 {
            for (b, y) in &o.0 {
                let mut k = a.clone();
                k.extend(b.iter().copied());
                k.sort();
                if k.len() > 6 {
                    return None;
                }
                let t = Poly(BTreeMap::from([(k, x.checked_mul(*y)?)]));
                r = r.add(&t, 1)?;
            }
        }
        Some(r)
    }
    pub(super) fn mentions(&self, s: SymbolId) -> bool {
        self.0.keys().any(|k| k.contains(&s))
    }
    /// `self` with `s` replaced by `by`; `None` unless `s` has degree at most 1.
    pub(super) fn subst(&self, s: SymbolId, by: &Poly) -> Option<Poly> {
        let mut r = Poly::default();
        for (k, v) in &self.0 {
            let n = k.iter().filter(|&&x| x == s).count();
            let rest: Vec<SymbolId> = k.iter().copied().filter(|&x| x != s).collect();
            let t = Poly(BTreeMap::from([(rest, *v)]));
            let t = match n {
                0 => t,
                1 => t.mul(by)?,
                _ => return None,
            };
            r = r.add(&t, 1)?;
        }
        Some(r)
    }
    /// The sign of the coefficient of `s` (linear in `s`), with every other symbol taken as
    /// non-negative: `Some(true)` non-negative, `Some(false)` non-positive, `None` unknown.
    pub(super) fn slope_sign(&self, s: SymbolId) -> Option<bool> {
        let cs: Vec<i64> = self
            .0
            .iter()
            .filter(|(k, _)| k.contains(&s))
            .map(|(_, v)| *v)
            .collect();
        if cs.iter().all(|&c| c >= 0) {
            Some(true)
        } else if cs.iter().all(|&c| c <= 0) {
            Some(false)
        } else {
            None
        }
    }
    pub(super) fn nonneg(&self) -> bool {
        self.0.values().all(|&c| c >= 0)
    }
    pub(super) fn is_const(&self) -> bool {
        self.0.keys().all(|x| x.is_empty())
    }
    /// The elements between a part of `count` elements starting at `lo` and a part starting
    /// at `hi`: `hi - lo - count` (non-negative: the parts are disjoint).
    pub(super) fn gap(hi: &Poly, lo: &Poly, count: &Poly) -> Option<Poly> {
        hi.add(lo, -1)?.add(count, -1)
    }
    pub(super) fn eval(&self, val: &dyn Fn(SymbolId) -> Option<i64>) -> Option<i64> {
        let mut t = 0i64;
        for (k, c) in &self.0 {
            let mut m = *c;
            for &s in k {
                m = m.checked_mul(val(s)?)?;
            }
            t = t.checked_add(m)?;
        }
        Some(t)
    }
    pub(super) fn text(&self, prog: &Program) -> String {
        let mut out = String::new();
        for (i, (k, c)) in self.0.iter().rev().enumerate() {
            let neg = *c < 0;
            let a = c.unsigned_abs();
            if i > 0 {
                out.push_str(if neg { " - " } else { " + " });
            } else if neg {
                out.push('-');
            }
            let names: Vec<&str> = k
                .iter()
                .map(|&s| prog.symbols[s].spelling.as_str())
                .collect();
            match (a, names.is_empty()) {
                (_, true) => out.push_str(&a.to_string()),
                (1, false) => out.push_str(&names.join(" * ")),
                _ => out.push_str(&format!("{a} * {}", names.join(" * "))),
            }
        }
        if out.is_empty() {
            out.push('0');
        }
        out
    }
}
/// The element count of a pointer parameter: the largest of a few polynomials over the
/// procedure's integer parameters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Extent(pub(super) Vec<Poly>);

impl Extent {
    /// Its value, the integer parameters given by `val`.
    pub fn eval(&self, val: &dyn Fn(SymbolId) -> Option<i64>) -> Option<i64> {
        self.0
            .iter()
            .map(|p| p.eval(val))
            .try_fold(0i64, |m, v| Some(m.max(v?)))
    }
    /// The count as one polynomial, when it is one: its monomials (the symbols multiplied,
    /// none for the constant term) with their coefficients, for a caller that substitutes
    /// expressions for the parameters.
    pub fn terms(&self) -> Option<Vec<(Vec<SymbolId>, i64)>> {
        match &self.0[..] {
            [p] => Some(p.0.iter().map(|(k, c)| (k.clone(), *c)).collect()),
            _ => None,
        }
    }
    /// Each of the counts whose largest is the extent, as the monomials of [`Self::terms`].
    pub fn each_terms(&self) -> Vec<Vec<(Vec<SymbolId>, i64)>> {
        self.0
            .iter()
            .map(|p| p.0.iter().map(|(k, c)| (k.clone(), *c)).collect())
            .collect()
    }
    /// The count as an expression over the parameters' names (`m * n`, `n + 1`) when it is one
    /// polynomial.
    pub fn text(&self, prog: &Program) -> Option<String> {
        match &self.0[..] {
            [p] => Some(p.text(prog)),
            _ => None,
        }
    }
}
/// The largest (`max`) or smallest value of `p` over loops `loops` (counter, first and last
/// value, outermost first): each counter, innermost first, replaced by the end its
/// coefficient's sign picks (both when unknown); at most four polynomials.
pub(super) fn over_loops(
    loops: &[(SymbolId, Poly, Poly)],
    p: Poly,
    max: bool,
) -> Option<Vec<Poly>> {
    let mut cur = vec![p];
    for (v, lo, hi) in loops.iter().rev() {
        let mut next = Vec::new();
        for q in cur {
            if !q.mentions(*v) {
                next.push(q);
                continue;
            }
            match q.slope_sign(*v) {
                Some(up) => next.push(q.subst(*v, if up == max { hi } else { lo })?),
                None => {
                    next.push(q.subst(*v, hi)?);
                    next.push(q.subst(*v, lo)?);
                }
            }
        }
        if next.len() > 4 {
            return None;
        }
        cur = next;
    }
    Some(cur)
}
/// An integer expression of `u` over any integer variables (their values at one point of
/// the program), literals and integer macros: for offsets compared at one call.
pub(super) fn loose_poly(
    prog: &Program,
    macros: &HashMap<String, i64>,
    u: &UnitData,
    e: ExprId,
) -> Option<Poly> {
    let me = |x: ExprId| loose_poly(prog, macros, u, x);
    match &u.exprs[e] {
        Expr::Literal(l) if l.kind == LitKind::Int => l.text.parse().ok().map(Poly::lit),
        Expr::Opaque(m) => macros.get(m).copied().map(Poly::lit),
        Expr::Name(s) => prog.symbols[*s]
            .ty
            .as_ref()
            .is_some_and(|t| t.base == BaseClass::Integer && t.pointers == 0 && t.dims.is_empty())
            .then(|| Poly::var(*s)),
        Expr::Paren(a) => me(*a),
        Expr::Unary { op: UnOp::Neg, arg } => Poly::default().add(&me(*arg)?, -1),
        Expr::Binary { op, lhs, rhs } => {
            let (a, b) = (me(*lhs)?, me(*rhs)?);
            match op {
                BinOp::Add => a.add(&b, 1),
                BinOp::Sub => a.add(&b, -1),
                BinOp::Mul => a.mul(&b),
                _ => None,
            }
        }
        _ => None,
    }
}
