//! Slicing the backward sweep (issue 21, item 2; `-nooptim diffliveness` keeps everything):
//! a function reference hoisted out of an expression (`t = f(a)` before the statement) is
//! recomputed backwards only when the statement's adjoint increments, the adjoint calls or
//! another kept recomputation read `t`. `y = y + f(x)` needs no value of `f(x)` backwards:
//! only `f_b(x, xb, yb)`.

use crate::*;

impl Adj<'_, '_, '_> {
    /// The recomputations of `recompute` (innermost first, `t = f(...)` each) that a
    /// statement of `users` or a kept recomputation reads.
    pub(crate) fn prune_recompute(&self, recompute: Vec<StmtId>, users: &[StmtId]) -> Vec<StmtId> {
        if !self.pg.g.opts.slice_dead {
            return recompute;
        }
        let mut read = HashSet::new();
        for &u in users {
            if !self.names_read(u, &mut read) {
                return recompute;
            }
        }
        let mut keep = vec![false; recompute.len()];
        for (k, &r) in recompute.iter().enumerate().rev() {
            let StmtKind::Assign { lhs, rhs, .. } = &self.pg.u.stmts[r].kind else {
                return recompute;
            };
            let Expr::Name(t) = self.pg.u.exprs[*lhs] else {
                return recompute;
            };
            if read.contains(&t) {
                keep[k] = true;
                self.expr_names(*rhs, &mut read);
            }
        }
        recompute
            .into_iter()
            .zip(keep)
            .filter_map(|(r, k)| k.then_some(r))
            .collect()
    }

    /// Adds the names statement `s` (of the output) reads to `out`; `false` for a kind of
    /// statement this does not look into.
    fn names_read(&self, s: StmtId, out: &mut HashSet<SymbolId>) -> bool {
        match &self.pg.u.stmts[s].kind {
            StmtKind::Assign { lhs, rhs, .. } => {
                self.expr_names(*lhs, out);
                self.expr_names(*rhs, out);
            }
            StmtKind::Expr(e) => self.expr_names(*e, out),
            StmtKind::Call { args, .. } => {
                for a in args {
                    self.expr_names(a.value, out);
                }
            }
            _ => return false,
        }
        true
    }

    fn expr_names(&self, e: ExprId, out: &mut HashSet<SymbolId>) {
        let mut stack = vec![e];
        while let Some(x) = stack.pop() {
            if let Expr::Name(n) = self.pg.u.exprs[x] {
                out.insert(n);
            }
            radtap_il::visit::expr_children(&self.pg.u.exprs[x], &mut |k| stack.push(k));
        }
    }

    /// Records the results of the references to functions with a side effect hoisted out
    /// of one statement (`Hoisted::effect_results`; the backward sweep must not call such
    /// a function again) that a statement of `users` or of the kept recomputations `kept`
    /// reads: the pushes, to go after all the statement's hoisted calls (so that each
    /// `f_fwd`'s tape stays below them), and the pops, last first, to go in the backward
    /// sweep before the recomputations.
    pub(crate) fn record_effect_results(
        &mut self,
        h: &mut Hoisted,
        users: &[StmtId],
        kept: &[StmtId],
    ) -> (Vec<StmtId>, Vec<StmtId>) {
        let mut read = HashSet::new();
        let all = !self.pg.g.opts.slice_dead
            || !users
                .iter()
                .chain(kept)
                .all(|&u| self.names_read(u, &mut read));
        let (mut pushes, mut pops) = (Vec::new(), Vec::new());
        for (t, r) in std::mem::take(&mut h.effect_results) {
            let ty = self.pg.prog().symbols[r].ty.clone();
            let Some(suffix) = ty.as_ref().and_then(Self::suffix_of) else {
                continue;
            };
            if !all && !read.contains(&t) {
                continue;
            }
            // The temporary is a symbol of the output (not `push_pop`'s primal locals).
            let (v1, v2) = (self.pg.b().name(t), self.pg.b().name(t));
            let v2 = match self.pg.f.lang {
                Lang::C => self.addr_of(v2),
                Lang::Fortran => v2,
            };
            pushes.push(self.rt(&format!("push{suffix}"), vec![v1]));
            pops.insert(0, self.rt(&format!("pop{suffix}"), vec![v2]));
        }
        (pushes, pops)
    }

    /// A joint sweep's `t = f_fwd(…)` hoisted out of a final `return`, whose value nothing
    /// reads (the joint forward sweep returns no value): the call alone, `f_fwd(…);` (gcc
    /// warned "set but not used").
    pub(crate) fn drop_unread_results(&mut self, fwd: &[StmtId], bwd: &[StmtId]) {
        let mut read = HashSet::new();
        for &u in fwd.iter().chain(bwd) {
            match &self.pg.u.stmts[u].kind {
                StmtKind::Assign { rhs, .. } => self.expr_names(*rhs, &mut read),
                _ => {
                    if !self.names_read(u, &mut read) {
                        return;
                    }
                }
            }
        }
        for &u in fwd {
            let StmtKind::Assign { lhs, rhs, op: None } = self.pg.u.stmts[u].kind else {
                continue;
            };
            let unread = matches!(self.pg.u.exprs[lhs], Expr::Name(t) if !read.contains(&t));
            if unread && matches!(self.pg.u.exprs[rhs], Expr::Call { .. }) {
                self.pg.u.stmts[u].kind = StmtKind::Expr(rhs);
            }
        }
    }
}
