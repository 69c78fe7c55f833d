//! Assignments: `v̇ = Σ ∂e/∂xᵢ·ẋᵢ`, then `v = e` (the derivative of `e` from the generator's
//! `tan`, shared sub-expressions from its `sharing`).

use crate::prelude::*;

impl<'a> Tan<'_, '_, 'a> {
    /// `lhs = rhs` (`lhs op= rhs` in C).
    ///
    /// With `A⁻`/`A⁺` the active zones before/after the point and `U⁺` the useful ones:
    /// `v ∈ A⁺  ⟹  v̇ := Σᵢ ∂rhs/∂xᵢ · ẋᵢ (xᵢ ∈ A⁻);  v = rhs`;
    /// `v ∉ A⁺, v ∈ U⁺, v has a derivative  ⟹  v̇ := 0;  v = rhs`.
    pub(crate) fn assign_rule(
        &mut self,
        s: StmtId,
        lhs: ExprId,
        op: Option<BinOp>,
        rhs: ExprId,
    ) -> Vec<StmtId> {
        let Some(i) = self.pid(s) else {
            return vec![self.copy_stmt(s)];
        };
        self.cur = self.f.act.active_before[i].clone();
        self.hoisted.clear();
        let mut out = Vec::new();
        self.hoist_calls(s, rhs, &mut out);
        let n_hoisted = out.len();
        let src = self.f.src;
        // C pointer assignment: the derivative pointer follows.
        if let Expr::Name(q) = src.exprs[lhs] {
            let is_ptr = self.prog().symbols[q]
                .ty
                .as_ref()
                .is_some_and(|t| t.pointers > 0 && t.dims.is_empty());
            if is_ptr && self.f.lang == Lang::C {
                let primal = self.primal_assign(s, lhs, op, rhs);
                out.push(primal);
                if let Some(&qd) = self.dvar.get(&q) {
                    // `m = get_new_matrix(r, c)`: the shadow block and its members
                    // (`shadow.rs`).
                    let alloc = op.is_none() && self.allocator_of(rhs).is_some();
                    let d = if alloc {
                        self.allocator_block(rhs, Some(q))
                    } else {
                        self.pointer_step(op, rhs)
                    };
                    self.lost_derivative |= d.is_none();
                    if let Some(d) = d {
                        let l = self.b().name(qd);
                        let st = stmt(&mut self.u, StmtKind::Assign { lhs: l, op, rhs: d });
                        out.push(st);
                        if alloc {
                            let members = self.allocator_members(rhs, Some(q), qd);
                            out.extend(members);
                        }
                    }
                }
                self.hoisted.clear();
                return out;
            }
        }
        // C pointer stored in a record (`m.data = malloc(…)`, `m->data = q`): the
        // derivative record's member follows.
        if self.f.lang == Lang::C && op.is_none() && self.field_is_pointer(lhs) {
            let primal = self.primal_assign(s, lhs, op, rhs);
            out.push(primal);
            let twin = self.field_pointer_twin(lhs, rhs);
            out.extend(twin);
            self.hoisted.clear();
            return out;
        }
        // C chained assignment `a = b = e`: each target receives the derivative of `e`,
        // innermost first.
        let mut targets = vec![lhs];
        let mut value = rhs;
        if op.is_none() {
            while let Expr::Assign {
                op: None,
                lhs: l2,
                rhs: r2,
            } = src.exprs[value]
            {
                targets.push(l2);
                value = r2;
            }
        }
        for &t in &targets {
            if self.unreachable_store(t) {
                self.error(s, Code::Unsupported, "a store through an address radtap cannot follow (`*f(y) = …`, `(&y[0])[k] = …`, `k[y] = …`): its derivative would be lost; assign the variable or element by name");
                out.push(self.copy_stmt(s));
                return out;
            }
        }
        if self.active_ref(lhs, &self.f.act.active_after[i]) {
            self.collect_shared(value);
            // Not in an OpenMP atomic update: only the update is atomic.
            if self.f.lang == Lang::C && src.stmts[s].omp.is_none() && self.is_memory_ref(lhs) {
                self.collect_loads(value);
            }
        }
        // `a = b = e`: `ḃ = ė`, then `ȧ = ḃ` (`ȧ = ė` again read the new `ḃ` when `e` reads
        // `b`: `a = b = a * b`).
        let inner = targets[targets.len() - 1];
        for (k, &t) in targets.iter().rev().enumerate() {
            if k > 0 && self.active_ref(t, &self.f.act.active_after[i]) {
                if let (Some(dl), Some(dr)) = (self.dref(t, Dir::Nd), self.dref(inner, Dir::Nd)) {
                    let st = assign(&mut self.u, dl, dr);
                    let v = self.dir(vec![st]);
                    out.extend(v);
                    continue;
                }
            }
            self.assign_derivative(i, t, op, value, &mut out);
        }
        self.pre.clear();
        // Diff-liveness: a primal assignment nothing needs (neither a derivative nor an
        // output of the procedure) is sliced away.
        let dead = self.g.opts.slice_dead && !self.f.act.live[i] && self.f.pi.effects[i].sliceable;
        if !self.deriv_only && !dead {
            let primal = self.primal_assign(s, lhs, op, rhs);
            out.push(primal);
        }
        let defs = self.resolve_shared();
        out.splice(n_hoisted..n_hoisted, defs);
        self.hoisted.clear();
        out
    }

    /// The derivative statement of `lhs (op)= rhs` at point `i`: the tangent when `lhs` is
    /// active after it, an explicit zero when `lhs` has a derivative that is still useful.
    fn assign_derivative(
        &mut self,
        i: usize,
        lhs: ExprId,
        op: Option<BinOp>,
        rhs: ExprId,
        out: &mut Vec<StmtId>,
    ) {
        let after = &self.f.act.active_after[i];
        let val = if self.active_ref(lhs, after) {
            let d = match op {
                None => self.tan(rhs),
                Some(o) => self.tan_binary(o, lhs, rhs, None),
            };
            let k = self.real_kind(lhs);
            match d {
                Some(d) => d,
                None => self.b().zero(k),
            }
        } else if self.has_dvar_ref(lhs) && {
            let mut u = self.f.act.useful_after[i].clone();
            u.intersect_with(&self.f.pi.zones.differentiable);
            self.ref_in(lhs, &u)
        } {
            let k = self.real_kind(lhs);
            self.b().zero(k)
        } else {
            return;
        };
        if let Some(dl) = self.dref(lhs, Dir::Nd) {
            let st = assign(&mut self.u, dl, val);
            let v = self.dir(vec![st]);
            out.extend(v);
        }
    }
}
