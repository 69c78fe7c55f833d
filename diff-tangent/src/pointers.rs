//! Pointer assignments' derivatives: the derivative pointer follows the primal one (`pd = qd`
//! for `p = q`, the same offset for `p += k`).

use crate::prelude::*;

impl<'a> Tan<'_, '_, 'a> {
    /// C expression statements with side effects on active values (`a = b = c`) are not
    /// differentiated: report them.
    /// C pointer arithmetic in an expression statement or a `for` step (`p++`, `p += k`,
    /// `p = p + k`) on a pointer that has a derivative pointer: the same on the derivative.
    pub(crate) fn pointer_mirror(&mut self, e: ExprId) -> Option<ExprId> {
        if self.f.lang != Lang::C {
            return None;
        }
        let src = self.f.src;
        let dptr_of = |pg: &Self, x: ExprId| match src.exprs[x] {
            Expr::Name(p)
                if pg.prog().symbols[p]
                    .ty
                    .as_ref()
                    .is_some_and(|t| t.pointers > 0) =>
            {
                pg.dvar.get(&p).copied()
            }
            _ => None,
        };
        match &src.exprs[e] {
            Expr::IncDec { inc, prefix, arg } => {
                let pd = dptr_of(self, *arg)?;
                let n = self.b().name(pd);
                Some(self.b().e(Expr::IncDec {
                    inc: *inc,
                    prefix: *prefix,
                    arg: n,
                }))
            }
            Expr::Assign { op, lhs, rhs } => {
                let pd = dptr_of(self, *lhs)?;
                let r = self.pointer_step(*op, *rhs)?;
                let n = self.b().name(pd);
                Some(self.b().e(Expr::Assign {
                    op: *op,
                    lhs: n,
                    rhs: r,
                }))
            }
            Expr::Comma(items) => {
                let ms: Vec<ExprId> = items
                    .iter()
                    .filter_map(|&x| self.pointer_mirror(x))
                    .collect();
                (!ms.is_empty()).then(|| self.b().e(Expr::Comma(ms)))
            }
            _ => None,
        }
    }

    /// The right-hand side of the derivative pointer's assignment: the derivative address
    /// for `p = q`, the same offset for `p += k`.
    pub(crate) fn pointer_step(&mut self, op: Option<BinOp>, rhs: ExprId) -> Option<ExprId> {
        match op {
            None => self.dptr(rhs),
            Some(_) => Some(self.cp(rhs)),
        }
    }
}
