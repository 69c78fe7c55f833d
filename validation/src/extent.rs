//! The element count of a C pointer argument, inferred from how the head indexes it:
//! `x[i + 1]` inside `for (i = 0; i < n - 1; i++)` with `n` an integer input reaches
//! `x[n - 1]`, so `x` needs `n` elements. Subscripts are bounded by interval arithmetic over
//! the loop variables' ranges (exact for affine subscripts, larger otherwise: a larger
//! array is safe). Any use the inference does not understand (the pointer passed to a call,
//! copied, moved, its address taken, a subscript over a variable that is neither a loop
//! counter nor an integer input) makes it give up, and `-size` is then required.

use radtap_il::visit::{expr_children, stmt_children};
use radtap_il::*;
use std::collections::HashMap;

/// Interval of a loop counter or subscript.
type Range = (i64, i64);

struct Walk<'a> {
    p: &'a Program,
    u: &'a UnitData,
    ptr: SymbolId,
    env: &'a HashMap<String, i64>,
    /// Ranges of the loop counters around the current statement.
    loops: Vec<(SymbolId, Range)>,
    /// Smallest and largest subscript seen.
    seen: Option<Range>,
    /// A use the inference does not understand.
    lost: bool,
}

impl Walk<'_> {
    fn int_literal(&self, e: ExprId) -> Option<i64> {
        match &self.u.exprs[e] {
            Expr::Literal(l) if l.kind == LitKind::Int => l.text.parse().ok(),
            _ => None,
        }
    }

    /// The interval of an integer expression over loop counters and integer inputs.
    fn range(&self, e: ExprId) -> Option<Range> {
        match &self.u.exprs[e] {
            Expr::Literal(_) => self.int_literal(e).map(|v| (v, v)),
            Expr::Name(s) => {
                if let Some((_, r)) = self.loops.iter().rev().find(|(l, _)| l == s) {
                    return Some(*r);
                }
                let sd = &self.p.symbols[*s];
                if !self.u.params.contains(s) {
                    return None;
                }
                let v = *self.env.get(&sd.spelling.to_ascii_lowercase())?;
                Some((v, v))
            }
            Expr::Paren(a) => self.range(*a),
            Expr::Unary { op: UnOp::Neg, arg } => self.range(*arg).map(|(a, b)| (-b, -a)),
            Expr::Unary {
                op: UnOp::Plus,
                arg,
            } => self.range(*arg),
            Expr::Binary { op, lhs, rhs } => {
                let (a, b) = (self.range(*lhs)?, self.range(*rhs)?);
                match op {
                    BinOp::Add => Some((a.0.checked_add(b.0)?, a.1.checked_add(b.1)?)),
                    BinOp::Sub => Some((a.0.checked_sub(b.1)?, a.1.checked_sub(b.0)?)),
                    BinOp::Mul => {
                        let c = [
                            a.0.checked_mul(b.0)?,
                            a.0.checked_mul(b.1)?,
                            a.1.checked_mul(b.0)?,
                            a.1.checked_mul(b.1)?,
                        ];
                        Some((*c.iter().min()?, *c.iter().max()?))
                    }
                    BinOp::Div if b.0 == b.1 && b.0 > 0 => {
                        Some((a.0.div_euclid(b.0), a.1.div_euclid(b.0)))
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }

    fn record(&mut self, r: Option<Range>) {
        match r {
            Some((lo, hi)) if lo <= hi => {
                self.seen = Some(match self.seen {
                    Some((a, b)) => (a.min(lo), b.max(hi)),
                    None => (lo, hi),
                })
            }
            _ => self.lost = true,
        }
    }

    fn is_ptr(&self, e: ExprId) -> bool {
        match &self.u.exprs[e] {
            Expr::Name(s) => *s == self.ptr,
            Expr::Paren(a) => self.is_ptr(*a),
            _ => false,
        }
    }

    /// `ptr + k` / `k + ptr`: the subscript `k`.
    fn offset(&self, e: ExprId) -> Option<ExprId> {
        match &self.u.exprs[e] {
            Expr::Paren(a) => self.offset(*a),
            Expr::Binary {
                op: BinOp::Add,
                lhs,
                rhs,
            } => {
                if self.is_ptr(*lhs) {
                    Some(*rhs)
                } else if self.is_ptr(*rhs) {
                    Some(*lhs)
                } else {
                    None
                }
            }
            _ => None,
        }
    }

    fn expr(&mut self, e: ExprId) {
        if self.lost {
            return;
        }
        match &self.u.exprs[e] {
            Expr::Name(s) if *s == self.ptr => {
                // Any other use of the pointer itself: passed, copied, compared, moved.
                self.lost = true;
            }
            Expr::Index { base, subs } if self.is_ptr(*base) => match subs.as_slice() {
                [Subscript::Index(i)] => {
                    let r = self.range(*i);
                    self.record(r);
                    self.expr(*i);
                }
                _ => self.lost = true,
            },
            Expr::Unary {
                op: UnOp::Deref,
                arg,
            } if self.is_ptr(*arg) => self.record(Some((0, 0))),
            Expr::Unary {
                op: UnOp::Deref,
                arg,
            } if self.offset(*arg).is_some() => {
                let k = self.offset(*arg).unwrap_or(*arg);
                let r = self.range(k);
                self.record(r);
                self.expr(k);
            }
            Expr::Unary {
                op: UnOp::AddrOf,
                arg,
            } => {
                // `&x[i]` lets the element's address escape.
                let mut inner = Walk {
                    p: self.p,
                    u: self.u,
                    ptr: self.ptr,
                    env: self.env,
                    loops: Vec::new(),
                    seen: None,
                    lost: false,
                };
                inner.expr(*arg);
                if inner.seen.is_some() || inner.lost {
                    self.lost = true;
                }
            }
            other => expr_children(other, &mut |c| self.expr(c)),
        }
    }

    /// The counter and range of `for (i = a; i < b; i++)` (also `<=`, and the descending
    /// `for (i = a; i >= b; i--)`), or `None`.
    fn for_range(
        &self,
        init: Option<StmtId>,
        cond: Option<ExprId>,
        step: Option<ExprId>,
    ) -> Option<(SymbolId, Range)> {
        let (var, start) = match &self.u.stmts[init?].kind {
            StmtKind::Assign { lhs, op: None, rhs } => match &self.u.exprs[*lhs] {
                Expr::Name(s) => (*s, *rhs),
                _ => return None,
            },
            StmtKind::Expr(e) => match &self.u.exprs[*e] {
                Expr::Assign { op: None, lhs, rhs } => match &self.u.exprs[*lhs] {
                    Expr::Name(s) => (*s, *rhs),
                    _ => return None,
                },
                _ => return None,
            },
            StmtKind::Decl(Decl::Var(v)) if v.entities.len() == 1 => match v.entities[0].init {
                Some(Init::Expr(x)) => (v.entities[0].sym, x),
                _ => return None,
            },
            _ => return None,
        };
        let up = match &self.u.exprs[step?] {
            Expr::IncDec { inc, arg, .. } if self.names(*arg, var) => *inc,
            Expr::Assign {
                op: Some(op),
                lhs,
                rhs,
            } if self.names(*lhs, var) && self.int_literal(*rhs) == Some(1) => match op {
                BinOp::Add => true,
                BinOp::Sub => false,
                _ => return None,
            },
            _ => return None,
        };
        let Expr::Binary { op, lhs, rhs } = &self.u.exprs[cond?] else {
            return None;
        };
        if !self.names(*lhs, var) {
            return None;
        }
        let a = self.range(start)?;
        let b = self.range(*rhs)?;
        match (up, op) {
            (true, BinOp::Lt(_)) => Some((var, (a.0, b.1 - 1))),
            (true, BinOp::Le(_)) => Some((var, (a.0, b.1))),
            (false, BinOp::Gt(_)) => Some((var, (b.0 + 1, a.1))),
            (false, BinOp::Ge(_)) => Some((var, (b.0, a.1))),
            _ => None,
        }
    }

    fn names(&self, e: ExprId, s: SymbolId) -> bool {
        matches!(&self.u.exprs[e], Expr::Name(x) if *x == s)
    }

    fn stmt(&mut self, s: StmtId) {
        if self.lost {
            return;
        }
        match &self.u.stmts[s].kind {
            StmtKind::CFor {
                init,
                cond,
                step,
                body,
                ..
            } => {
                if let Some(i) = init {
                    self.stmt(*i);
                }
                for e in cond.iter().chain(step.iter()) {
                    self.expr(*e);
                }
                let counter = self.for_range(*init, *cond, *step);
                // A loop whose range is not understood: its counter has no range, so any
                // subscript over it gives up.
                let n = self.loops.len();
                if let Some((v, r)) = counter.filter(|(_, r)| r.0 <= r.1) {
                    self.loops.push((v, r));
                } else if counter.is_some() {
                    // An empty loop: its body never runs.
                    return;
                }
                for &b in body {
                    self.stmt(b);
                }
                self.loops.truncate(n);
            }
            StmtKind::Decl(d) => radtap_il::visit::decl_exprs(d, &mut |e| self.expr(e)),
            k => {
                let mut subs = Vec::new();
                stmt_children(k, &mut |e| self.expr(e), &mut |c| subs.push(c));
                for c in subs {
                    self.stmt(c);
                }
            }
        }
    }
}

/// The element count pointer parameter `ptr` of unit `u` needs, from its subscripts
/// (`None` when the code does not tell, or indexes below 0).
pub fn infer(p: &Program, u: UnitId, ptr: SymbolId, env: &HashMap<String, i64>) -> Option<i64> {
    let unit = &p.units[u];
    let mut w = Walk {
        p,
        u: unit,
        ptr,
        env,
        loops: Vec::new(),
        seen: None,
        lost: false,
    };
    for &s in &unit.body {
        w.stmt(s);
    }
    match (w.lost, w.seen) {
        (false, Some((lo, hi))) if lo >= 0 => Some(hi + 1),
        _ => None,
    }
}
