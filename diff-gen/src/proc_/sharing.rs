//! Sub-expressions the derivative statement and the primal statement share, computed once:
//! costly intrinsic calls, large operands of products, and in C the loads from memory both
//! statements read (registered while the tangent is built, each decided once it is known
//! how many copies use it: a temporary for two or more, the expression in place for one).

use super::*;

/// Operands of a product, quotient or power larger than this (in nodes) are computed once
/// into a temporary when the partials copy them.
const SHARED_OPERAND_NODES: usize = 40;

impl ProcGen<'_, '_> {
    /// Registers the costly scalar intrinsic calls of `e` (outermost first) for sharing
    /// between the primal statement and the partials.
    pub fn collect_shared(&mut self, e: ExprId) {
        if self.in_masked {
            return;
        }
        let node = &self.f.src.exprs[e];
        if let Expr::Binary {
            op: BinOp::Div,
            rhs,
            ..
        } = node
        {
            // A quotient is reused by its own derivative (when its denominator varies).
            if self.rank_of(e) == 0
                && matches!(self.kind_of(e), 4 | 8)
                && self.const_value(*rhs).is_none()
            {
                self.share(e);
            }
        }
        if let Expr::Binary {
            op: BinOp::Mul | BinOp::Div | BinOp::Pow,
            lhs,
            rhs,
        } = node
        {
            // The partials of a product, quotient or power copy the other operand: a long
            // product chain `x1*x2*...*xn` (or one nested to the right) would write n² factors.
            // A large operand is shared like a costly call (kept inline when used once).
            for o in [*lhs, *rhs] {
                if self.size_of(o) > SHARED_OPERAND_NODES
                    && self.rank_of(o) == 0
                    && matches!(self.kind_of(o), 4 | 8)
                {
                    self.share(o);
                }
            }
        }
        if let Expr::Call { callee, .. } = node {
            let routine = self.src_routine(e, *callee).map(|r| r.routine());
            let costly = !self.hoisted.contains_key(&e)
                && routine.is_some_and(|r| matches!(r.rule(), Some(Rule::Elementwise(_))))
                // A cheap call is recomputed in its partial (`sign(1, x)` for `abs(x)`),
                // unless that copies other calls: `abs(abs(...abs(x)))` n deep would then
                // write n² calls.
                && (self.args_have_call(node)
                    || !routine.is_some_and(|r| r.has(radtap_il::vocab::CHEAP)))
                && self.rank_of(e) == 0
                && matches!(self.kind_of(e), 4 | 8);
            if costly {
                self.share(e);
            }
        }
        // A branch of a conditional is evaluated only when taken: its calls are not hoisted
        // before the statement (`i > 0 ? sin(u[i-1]) : 0` would read `u[-1]`).
        if let Expr::Cond { cond, .. } = node {
            let c = *cond;
            return self.collect_shared(c);
        }
        let mut kids = Vec::new();
        radtap_il::visit::expr_children(node, &mut |k| kids.push(k));
        for k in kids {
            self.collect_shared(k);
        }
    }

    /// Decides each registered call, outermost first: used twice or more, it is computed
    /// once into a temporary (returned definitions, innermost first); used once, its copy
    /// goes back in place.
    pub fn resolve_shared(&mut self) -> Vec<StmtId> {
        let mut defs = Vec::new();
        for i in 0..self.shared.len() {
            let e = self.shared[i].0;
            // Copied as itself (its inner calls still stand for their placeholders).
            self.shared_at.remove(&e);
            let call = match self.reuse.stored {
                Some((c, target)) if c == e => Copier { src: self.f.src }.expr(&mut self.u, target),
                _ => self.cp(e),
            };
            let uses = std::mem::take(&mut self.shared[i].1);
            if uses.len() >= 2 {
                let bytes = self.real_kind(e);
                let kind = if self.complex_src(e) {
                    TempKind::Complex {
                        bytes: self.complex_kind(e),
                        deriv: false,
                    }
                } else {
                    TempKind::Real {
                        bytes,
                        deriv: false,
                    }
                };
                let t = self.temp("temp", kind);
                for u in uses {
                    self.u.exprs[u] = Expr::Name(t);
                }
                let l = self.b().name(t);
                defs.push(assign(&mut self.u, l, call));
            } else {
                let node = self.u.exprs[call].clone();
                for u in uses {
                    self.u.exprs[u] = node.clone();
                }
            }
        }
        self.shared.clear();
        self.shared_at.clear();
        defs.reverse();
        defs
    }

    /// The number of nodes of primal expression `e` (memoised: asked at every level).
    fn size_of(&self, e: ExprId) -> usize {
        if let Some(&n) = self.sizes.borrow().get(&e) {
            return n;
        }
        let mut kids = Vec::new();
        radtap_il::visit::expr_children(&self.f.src.exprs[e], &mut |k| kids.push(k));
        let n = 1 + kids.into_iter().map(|k| self.size_of(k)).sum::<usize>();
        self.sizes.borrow_mut().insert(e, n);
        n
    }

    /// Whether an argument of the call `node` holds a call (searched without recursion, up
    /// to the first one).
    fn args_have_call(&self, node: &Expr) -> bool {
        let mut todo = Vec::new();
        if let Expr::Call { args, .. } = node {
            todo.extend(args.iter().map(|a| a.value));
        }
        while let Some(e) = todo.pop() {
            let x = &self.f.src.exprs[e];
            if matches!(x, Expr::Call { .. }) {
                return true;
            }
            radtap_il::visit::expr_children(x, &mut |k| todo.push(k));
        }
        false
    }

    /// Registers `e` for sharing (see `resolve_shared`).
    fn share(&mut self, e: ExprId) {
        if let std::collections::hash_map::Entry::Vacant(v) = self.shared_at.entry(e) {
            v.insert(self.shared.len());
            self.shared.push((e, Vec::new()));
        }
    }

    /// C: whether `e` designates memory reached through an index, a member or a pointer
    /// (`a[i]`, `m->data[k]`, `*p`), where a store may alias what a later statement reads.
    pub fn is_memory_ref(&self, e: ExprId) -> bool {
        match &self.f.src.exprs[e] {
            Expr::Index { .. } | Expr::Field { .. } => true,
            Expr::Unary {
                op: UnOp::Deref, ..
            } => true,
            Expr::Paren(a) => self.is_memory_ref(*a),
            _ => false,
        }
    }

    /// Registers the real scalar loads from memory (`lhs->data[i + j * n]`) of `e` for
    /// sharing between the derivative statement and the primal statement, as Tapenade does:
    /// both read them, and in C the derivative statement's store into memory may alias them
    /// for the compiler, which then loads each value again for the primal statement (the
    /// hand tracker's `mat_mult_d`: 1.17 times Tapenade's time). Read once into a temporary
    /// before both (used once, a load stays in place). Loads in a branch of a conditional,
    /// behind `&&`/`||` or inside a call are left alone (they may not be evaluated), and so
    /// are loads whose subscripts call, assign or step anything.
    pub fn collect_loads(&mut self, e: ExprId) {
        if self.in_masked {
            return;
        }
        let node = &self.f.src.exprs[e];
        match node {
            Expr::Index { .. }
            | Expr::Field { .. }
            | Expr::Unary {
                op: UnOp::Deref, ..
            } if self.plain_load(e)
                && self.rank_of(e) == 0
                && matches!(self.kind_of(e), 4 | 8)
                && !self.complex_src(e) =>
            {
                // The same load written twice (`x[i] * x[i]`) shares one temporary.
                let src = self.f.src;
                let twin = self
                    .shared
                    .iter()
                    .position(|&(o, _)| o != e && radtap_il::visit::same_expr(src, o, e));
                match twin {
                    Some(k) => {
                        self.shared_at.insert(e, k);
                    }
                    None => self.share(e),
                }
                return;
            }
            Expr::Cond { cond, .. } => return self.collect_loads(*cond),
            Expr::Binary {
                op: BinOp::And | BinOp::Or,
                lhs,
                ..
            } => return self.collect_loads(*lhs),
            Expr::Call { .. } | Expr::Assign { .. } | Expr::IncDec { .. } => return,
            _ => {}
        }
        let mut kids = Vec::new();
        radtap_il::visit::expr_children(node, &mut |k| kids.push(k));
        for k in kids {
            self.collect_loads(k);
        }
    }

    /// Whether `e` only reads: names, literals, indexing, members, dereferences, arithmetic.
    fn plain_load(&self, e: ExprId) -> bool {
        let ok = match &self.f.src.exprs[e] {
            Expr::Name(_) | Expr::Literal(_) | Expr::Index { .. } | Expr::Field { .. } => true,
            Expr::Paren(_) | Expr::Cast { .. } | Expr::Binary { .. } => true,
            Expr::Unary { op, .. } => !matches!(op, UnOp::AddrOf | UnOp::Sizeof),
            _ => false,
        };
        if !ok || self.shared_at.contains_key(&e) {
            return false;
        }
        let mut all = true;
        radtap_il::visit::expr_children(&self.f.src.exprs[e], &mut |k| {
            all &= self.plain_load(k);
        });
        all
    }
}
