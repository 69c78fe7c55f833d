//! Shared partials in adjoint increments (issue 21, item 3; `-nooptim sharepartials` turns
//! it off). Transposing `v = e` carries a seed from the root of the tangent down to each
//! derivative reference; where both operands of a sum hold references, the seed reaching the
//! sum flows into both, and was written out twice: `xb[i] += exp(x[i]-mx)*semxb;
//! mxb -= exp(x[i]-mx)*semxb;` calls `exp` twice, and along a chain of such sums (a chain of
//! divisions) the copies made the adjoint quadratic in the length of the expression. A seed
//! that is not a plain reference is assigned once to a temporary before the increments, as
//! Tapenade's `tempb` (paper Fig. 11), and the temporary flows into both operands.
//!
//! The partials themselves share primal sub-expressions as the tangent does: a quotient
//! `a/b` is a factor of the partial of its denominator, and in a chain `(x+1)/(x+1)/...`
//! every quotient is a factor of every later one's, so written out in full they made the
//! adjoint quadratic again (1,600 divisions: 13 MB of code). Quotients and costly intrinsic
//! calls the tangent uses twice or more are computed once into primal temporaries (`temp`)
//! before the increments.

use crate::*;

impl Adj<'_, '_, '_> {
    /// `seed` as it may be used twice: itself when cheap (a name, a constant, an element
    /// with plain subscripts, a sign change of those), else a new temporary assigned
    /// `seed` before the increments.
    pub(crate) fn shared_seed(&mut self, seed: ExprId, seed_rank: usize) -> ExprId {
        if !self.share_seeds || seed_rank != 0 || self.cheap(seed) {
            return seed;
        }
        // Under `sum(...)` a Fortran seed of rank 0 becomes an array once multiplied by an
        // array factor (`(2*(x - mean))*(varb/size(x))`): no scalar temporary for that.
        if self.pg.f.lang == Lang::Fortran && self.out_rank(seed) > 0 {
            return seed;
        }
        let kind = if self.pg.complex_out(seed) {
            TempKind::Complex {
                bytes: self.zero_kind,
                deriv: true,
            }
        } else {
            TempKind::Real {
                bytes: self.zero_kind,
                deriv: true,
            }
        };
        let tmp = self.pg.temp("tempb", kind);
        let l = self.pg.b().name(tmp);
        let st = assign(&mut self.pg.u, l, seed);
        self.seed_temps.push(st);
        self.pg.b().name(tmp)
    }

    /// How an assignment's tangent shares its quotients and costly intrinsic calls: collected
    /// and defined once ([`Sharing::Collected`]), unless `-nooptim sharepartials`.
    pub(crate) fn sharing(&self) -> Sharing {
        if self.pg.g.opts.share_partials {
            Sharing::Collected
        } else {
            Sharing::Resolved
        }
    }

    fn cheap(&self, e: ExprId) -> bool {
        match &self.pg.u.exprs[e] {
            Expr::Name(_) | Expr::Literal(_) | Expr::Opaque(_) | Expr::Intrinsic(_) => true,
            Expr::Paren(a) | Expr::Unary { arg: a, .. } => self.cheap(*a),
            Expr::Field { base, .. } => self.cheap(*base),
            // An element: its subscripts are integer arithmetic, cheap unless they call.
            Expr::Index { base, subs } => {
                self.cheap(*base)
                    && subs.iter().all(|s| match s {
                        Subscript::Index(i) => self.no_call(*i),
                        _ => false,
                    })
            }
            _ => false,
        }
    }

    fn no_call(&self, e: ExprId) -> bool {
        let mut ok = true;
        let mut stack = vec![e];
        while let Some(x) = stack.pop() {
            ok &= !matches!(self.pg.u.exprs[x], Expr::Call { .. });
            radtap_il::visit::expr_children(&self.pg.u.exprs[x], &mut |k| stack.push(k));
        }
        ok
    }
}
