//! Which bounds and element counts of allocations are fixed where the adjoint needs them
//! again (so the backward sweep recomputes them instead of recording them), and C
//! initialisers that fill arrays.

use crate::*;

impl<'a> Adj<'_, '_, 'a> {
    /// Built expression `x` (a VLA bound copied into the output unit) with each local of the
    /// bound replaced by its initialiser ([`Self::bound_is_fixed`]): the hoisted declaration
    /// is evaluated before the locals are set.
    pub(crate) fn fixed_bound(&mut self, x: ExprId) {
        let mut todo = vec![x];
        let mut steps = 0;
        while let Some(y) = todo.pop() {
            steps += 1;
            if steps > 10_000 {
                return;
            }
            if let Expr::Name(n) = self.pg.u.exprs[y] {
                if !self.pg.f.src.params.contains(&n) {
                    if let Some(i) = self.local_init(n) {
                        let c = Copier { src: self.pg.f.src }.expr(&mut self.pg.u, i);
                        self.pg.u.exprs[y] = Expr::Paren(c);
                        todo.push(c);
                    }
                }
                continue;
            }
            radtap_il::visit::expr_children(&self.pg.u.exprs[y], &mut |k| todo.push(k));
        }
    }

    /// [`Self::fixed_bound`] on every dimension of the entities of built declaration `d`.
    pub(crate) fn fixed_bounds_of(&mut self, d: &Decl) {
        let Decl::Var(v) = d else { return };
        let mut dims = Vec::new();
        for e in &v.entities {
            for dd in e.dims.iter().flatten() {
                if let DimUpper::Expr(x) = dd.upper {
                    dims.push(x);
                }
            }
            for op in &e.derived {
                if let DeclOp::Array(Some(x)) = op {
                    dims.push(*x);
                }
            }
        }
        for x in dims {
            self.fixed_bound(x);
        }
    }

    /// A C declaration: moved to the top of the function (its block may be left and
    /// re-entered by the backward sweep), its initialisers becoming assignments.
    /// Every leaf of brace initialiser `e` is a constant.
    pub(crate) fn constant_braces(&self, e: ExprId) -> bool {
        match &self.pg.f.src.exprs[e] {
            Expr::ArrayCtor { items, .. } => items.iter().all(|&i| self.constant_braces(i)),
            Expr::Designated { value, .. } => self.constant_braces(*value),
            _ => self.pg.const_value(e).is_some(),
        }
    }

    /// Whether initialiser `x` of entity `e` is a string literal filling a `char` array.
    pub(crate) fn string_into_array(&self, x: ExprId, e: &Entity) -> bool {
        matches!(&self.pg.f.src.exprs[x], Expr::Literal(l) if l.kind == LitKind::Str)
            && e.derived.iter().any(|op| matches!(op, DeclOp::Array(_)))
    }
}
