//! Shapes a callee declares, written in the caller over the call's actuals: the elements an
//! array dummy declares (`Y(3)`, `YDOT(NEQ)`: what to clear of an assumed-size actual's
//! derivative before the call), and the shape of an array-valued function's result
//! (`qsat(ix,il)`, `r(n)`, `r(size(v))`: the temporaries holding a hoisted reference and its
//! derivative, SPEEDY's `get_qsat`).

use super::*;

impl<'a> ProcGen<'_, 'a> {
    /// The element count array dummy `fi` of callee `c` declares, over the actuals `args`
    /// of the call (`Y(3)`: 3; `YDOT(NEQ)`: the actual for `NEQ`); `None` for an assumed
    /// size or shape, or bounds [`Self::callee_expr`] cannot write.
    pub fn dummy_count(&mut self, c: UnitId, fi: usize, args: &[Arg]) -> Option<ExprId> {
        let formal = self.prog().units[c].params[fi];
        let ty = self.prog().symbols[formal].ty.clone()?;
        if !ty.dims.iter().all(|d| self.callee_dim_ok(c, d, args)) {
            return None;
        }
        let mut count: Option<ExprId> = None;
        for d in &ty.dims {
            let DimUpper::Expr(hi) = d.upper else {
                return None;
            };
            let hi = self.callee_expr(c, hi, args)?;
            let extent = match d.lower {
                Some(lo) => {
                    let lo = self.callee_expr(c, lo, args)?;
                    let diff = self.b().bin(BinOp::Sub, hi, lo);
                    let one = self.b().int(1);
                    self.b().bin(BinOp::Add, diff, one)
                }
                None => hi,
            };
            count = Some(match count {
                Some(n) => self.b().bin(BinOp::Mul, n, extent),
                None => extent,
            });
        }
        count
    }

    /// The shape of function `c`'s array result `r`, written over the actuals `args` of a
    /// reference (`None` for a scalar result; `Some(None)` when a bound cannot be written
    /// there: an assumed or deferred shape, or a bound naming a local of `c`).
    pub(crate) fn result_dims(
        &mut self,
        c: UnitId,
        r: SymbolId,
        args: &[Arg],
    ) -> Option<Option<Vec<Dim>>> {
        let ty = self.prog().symbols[r].ty.clone()?;
        if ty.dims.is_empty() {
            return None;
        }
        if !ty.dims.iter().all(|d| self.callee_dim_ok(c, d, args)) {
            return Some(None);
        }
        let mut out = Vec::new();
        for d in &ty.dims {
            let DimUpper::Expr(hi) = d.upper else {
                return Some(None);
            };
            let lower = match d.lower {
                Some(lo) => Some(self.callee_expr(c, lo, args)?),
                None => None,
            };
            let upper = DimUpper::Expr(self.callee_expr(c, hi, args)?);
            out.push(Dim { lower, upper });
        }
        Some(Some(out))
    }

    /// Whether [`Self::callee_expr`] can write both bounds of dimension `d` of `c`.
    pub(crate) fn callee_dim_ok(&self, c: UnitId, d: &Dim, args: &[Arg]) -> bool {
        matches!(d.upper, DimUpper::Expr(hi) if self.callee_expr_ok(c, hi, args))
            && d.lower.is_none_or(|lo| self.callee_expr_ok(c, lo, args))
    }

    /// Whether [`Self::callee_expr`] can write expression `e` of callee `c`.
    fn callee_expr_ok(&self, c: UnitId, e: ExprId, args: &[Arg]) -> bool {
        let prog = self.prog();
        let cu = &prog.units[c];
        if radtap_dataflow::zones::const_int(prog, c, e, 0).is_some() {
            return true;
        }
        match &cu.exprs[e] {
            Expr::Name(sym) => self.actual_of(c, *sym, args).is_some(),
            Expr::Paren(x) => self.callee_expr_ok(c, *x, args),
            Expr::Unary { arg, .. } => self.callee_expr_ok(c, *arg, args),
            Expr::Binary { lhs, rhs, .. } => {
                self.callee_expr_ok(c, *lhs, args) && self.callee_expr_ok(c, *rhs, args)
            }
            Expr::Call { callee, args: a } => {
                matches!(&cu.exprs[*callee], Expr::Name(f)
                    if prog.symbols[*f].kind == SymbolKind::Intrinsic)
                    && a.iter().all(|x| self.callee_expr_ok(c, x.value, args))
            }
            _ => false,
        }
    }

    /// The actual a call passes for `sym`, when it is a dummy of `c`.
    fn actual_of(&self, c: UnitId, sym: SymbolId, args: &[Arg]) -> Option<ExprId> {
        let cu = &self.prog().units[c];
        let i = cu.params.iter().position(|&p| p == sym)?;
        let spelling = &self.prog().symbols[sym].spelling;
        args.iter()
            .find(|a| {
                a.keyword
                    .as_ref()
                    .is_some_and(|k| k.eq_ignore_ascii_case(spelling))
            })
            .or_else(|| args.get(i).filter(|a| a.keyword.is_none()))
            .map(|a| a.value)
    }

    /// Expression `e` of callee `c` written in the unit being built, over the actuals of
    /// the call: integer constants (named ones by their value), the callee's dummies
    /// (replaced by their actuals), operators, parentheses and intrinsic references
    /// (`size(v)`).
    pub(crate) fn callee_expr(&mut self, c: UnitId, e: ExprId, args: &[Arg]) -> Option<ExprId> {
        if let Some(v) = radtap_dataflow::zones::const_int(self.prog(), c, e, 0) {
            return Some(self.b().int(v));
        }
        let cu = &self.prog().units[c];
        match cu.exprs[e].clone() {
            Expr::Name(sym) => {
                let a = self.actual_of(c, sym, args)?;
                let simple = matches!(self.f.src.exprs[a], Expr::Name(_) | Expr::Literal(_));
                let v = self.cp(a);
                Some(if simple {
                    v
                } else {
                    self.b().e(Expr::Paren(v))
                })
            }
            Expr::Paren(x) => self.callee_expr(c, x, args),
            Expr::Unary { op, arg } => {
                let a = self.callee_expr(c, arg, args)?;
                Some(self.b().e(Expr::Unary { op, arg: a }))
            }
            Expr::Binary { op, lhs, rhs } => {
                let l = self.callee_expr(c, lhs, args)?;
                let r = self.callee_expr(c, rhs, args)?;
                let b = self.b().e(Expr::Binary { op, lhs: l, rhs: r });
                Some(self.b().e(Expr::Paren(b)))
            }
            Expr::Call { callee, args: a } => {
                let Expr::Name(f) = cu.exprs[callee] else {
                    return None;
                };
                if self.prog().symbols[f].kind != SymbolKind::Intrinsic {
                    return None;
                }
                let name = self.prog().symbols[f].spelling.clone();
                let mut out = Vec::new();
                for x in a {
                    let v = self.callee_expr(c, x.value, args)?;
                    out.push((x.keyword, v));
                }
                let kw: Vec<(Option<&str>, ExprId)> =
                    out.iter().map(|(k, v)| (k.as_deref(), *v)).collect();
                Some(self.b().call_kw(&name, kw))
            }
            _ => None,
        }
    }
}
