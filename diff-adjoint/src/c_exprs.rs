//! C expression statements in the adjoint: `return e`, expressions with side effects
//! (`++`, compound assignments, calls inside expressions), and pointer moves.

use crate::*;

impl<'a> Adj<'_, '_, 'a> {
    /// C `return e` (at the end of a function, or before it in a body lowered to basic
    /// blocks): the adjoint of `f = e` with the result adjoint as seed.
    pub(crate) fn adj_c_return(&mut self, s: StmtId, e: ExprId) -> Rev {
        // A split forward sweep whose body is lowered to basic blocks (returns before the
        // end, `goto`s) returns one local at its end, after its records: each return sets it.
        let via_local = self.pg.f.sweep == Sweep::Fwd && self.body_has_jumps();
        if self.pg.f.sweep == Sweep::Fwd {
            self.c_return_value = Some(self.pg.cp(e));
        }
        let Some(r) = self.pg.f.src.result else {
            return Rev::default();
        };
        // A passive result (a C status code) returned from a call that writes active data
        // (GSL's `return expint_E1_impl(x, result, 0);`) still has the call's adjoint: the
        // reference is hoisted as for an active result, with no seed (the adjoint left
        // out the call: silently zero).
        let passive = !self.pg.dvar.contains_key(&r);
        if passive && !self.has_active_user_call(e) {
            let fwd = match via_local {
                true => vec![self.set_return_local(r, e)],
                false => Vec::new(),
            };
            return Rev {
                fwd,
                bwd: Vec::new(),
            };
        }
        let Some(i) = self.pg.pid(s) else {
            return Rev::default();
        };
        self.pg.cur = self.pg.f.act.active_before[i].clone();
        self.pg.hoisted.clear();
        let mut h = Hoisted::default();
        self.adj_hoist(s, e, &mut h);
        // What a function with a side effect writes in its hoisted `f_fwd` call and the
        // statements before need: recorded before the call, restored after its `f_bwd`.
        let (mut fwd, effect_restore) = match h.effect_results.is_empty() {
            true => (Vec::new(), Vec::new()),
            false => {
                let mut rec = self.to_record(i);
                rec.intersect_with(&self.pg.f.act.tbr_before[i]);
                if rec.is_empty() {
                    (Vec::new(), Vec::new())
                } else {
                    self.snapshot(s, &rec)
                }
            }
        };
        if self.pg.f.sweep == Sweep::Fwd {
            // Split mode: `t = g_fwd(a); return k * t;` (the return ran the primal `g`, and
            // `g_bwd` popped what nothing pushed).
            fwd.append(&mut h.fwd);
            if via_local {
                let set = self.set_return_local(r, e);
                fwd.push(set);
            } else {
                self.c_return_value = Some(self.pg.cp(e));
            }
        } else if h.split {
            // A joint procedure returning a split callee's value (`return g(x);`): `g_fwd`
            // runs in the forward sweep, which otherwise computes no result (`g_bwd`
            // popped what nothing pushed).
            fwd.append(&mut h.fwd);
        }
        let of = if passive {
            TanOf::Passive(e)
        } else {
            TanOf::Expr(e)
        };
        let Tangent {
            deriv: t,
            refs: marks,
            shared: shared_defs,
        } = self.pg.tangent(of, self.sharing(), &Reuse::default());
        let mut bwd = Vec::new();
        if let Some(t) = t {
            let seed = {
                let d = self.pg.dvar[&r];
                self.pg.b().name(d)
            };
            self.share_seeds = self.pg.g.opts.share_partials
                && self.pg.prog().symbols[r]
                    .ty
                    .as_ref()
                    .is_some_and(|t| t.base == BaseClass::Real);
            self.zero_kind = self.pg.bytes_of_sym(r);
            let scattered = self.scatter(s, t, seed, 0, &marks, &HashSet::new());
            self.share_seeds = false;
            if let Some((incs, _)) = scattered {
                bwd = shared_defs;
                bwd.extend(incs);
            }
        }
        self.pg.hoisted.clear();
        let users: Vec<StmtId> = bwd.iter().chain(&h.calls).copied().collect();
        let recompute = self.prune_recompute(std::mem::take(&mut h.recompute), &users);
        let (pushes, mut all) = self.record_effect_results(&mut h, &users, &recompute);
        if self.pg.f.sweep == Sweep::Fwd || h.split {
            fwd.extend(pushes);
        }
        all.extend(recompute);
        all.extend(h.zero);
        all.extend(bwd);
        all.extend(h.calls);
        all.extend(effect_restore);
        if self.pg.f.sweep == Sweep::Joint {
            self.drop_unread_results(&fwd, &all);
        }
        Rev { fwd, bwd: all }
    }

    /// Records (push forwards, pop backwards, into `r`) the value the C effect expression `e`
    /// (`i++`, `k = ...`) of statement `s` overwrites at point `i`, when TBR says so; `what`
    /// names the construct in the refusal when it cannot be recorded.
    pub(crate) fn record_effect_target(
        &mut self,
        s: StmtId,
        e: ExprId,
        i: usize,
        what: &str,
        r: &mut Rev,
    ) {
        if let Some(inv) = self.inverse_step(i) {
            r.bwd.push(inv);
            return;
        }
        if self.to_record(i).is_empty() {
            return;
        }
        let target = match &self.pg.f.src.exprs[e] {
            Expr::IncDec { arg, .. } => Some(*arg),
            Expr::Assign { lhs, .. } => Some(*lhs),
            _ => None,
        };
        match target.map(|t| self.slot_of_target(Target::Expr(t))) {
            Some(Ok(sl)) => {
                let (a, b) = self.push_pop(&sl);
                r.fwd.push(a);
                r.bwd.push(b);
            }
            _ => {
                let msg = format!("recording the value this {what} overwrites is not supported in adjoint mode yet");
                self.pg.error(s, Code::Unsupported, &msg);
            }
        }
    }

    /// A C expression statement (`i++;`, `f(x);` without a result).
    pub(crate) fn adj_expr_stmt(&mut self, s: StmtId, e: ExprId) -> Rev {
        self.pg.check_side_effects(s);
        if let Some(r) = self.adj_c_effects(s, e, Part::Whole) {
            return r;
        }
        let Some(i) = self.pg.pid(s) else {
            return self.fwd_only(s);
        };
        if self.pg.f.act.has_derivative[i] {
            return self.unsupported(s, "an expression statement with an active side effect");
        }
        let mut r = Rev::default();
        self.record_effect_target(s, e, i, "expression", &mut r);
        if self.is_live(i) {
            r.fwd.push(self.pg.copy_stmt(s));
        }
        r
    }

    /// C side effects on pointers, alone or in a comma expression (`p++`, `q += 2`,
    /// `p = x, q = y`): each pointer move is run on the pointer and its derivative, both
    /// recorded before. `None` when `e` moves no pointer.
    pub(crate) fn adj_c_effects(&mut self, s: StmtId, e: ExprId, part: Part) -> Option<Rev> {
        if self.pg.f.lang != Lang::C {
            return None;
        }
        let parts: Vec<ExprId> = match &self.pg.f.src.exprs[e] {
            Expr::Comma(v) => v.clone(),
            _ => vec![e],
        };
        let moves: Vec<Option<(SymbolId, PointerMove)>> = parts
            .iter()
            .map(|&x| match self.pg.f.src.exprs[x] {
                Expr::IncDec { inc, prefix, arg } => self
                    .pointer_var(arg)
                    .map(|q| (q, PointerMove::Step { inc, prefix })),
                Expr::Assign { op, lhs, rhs } => self
                    .pointer_var(lhs)
                    .map(|q| (q, PointerMove::Assign { op, rhs })),
                _ => None,
            })
            .collect();
        if moves.iter().all(|m| m.is_none()) {
            return None;
        }
        let rec = match self.pg.f.pi.point_id(Point { stmt: s, part }) {
            Some(i) => self.to_record(i),
            None => self.pg.f.pi.zones.empty(),
        };
        let mut r = Rev::default();
        for (x, m) in parts.into_iter().zip(moves) {
            let mut p = Rev::default();
            match m {
                Some((q, mv)) => p = self.adj_pointer_move(s, q, mv),
                None => {
                    // An integer it overwrites is recorded like any other; a real value
                    // would need its adjoint, which a comma expression does not get.
                    let target = match self.pg.f.src.exprs[x] {
                        Expr::IncDec { arg, .. } | Expr::Assign { lhs: arg, .. } => Some(arg),
                        _ => None,
                    };
                    if let Some(t) = target {
                        let ty = self.leaf_type(t).or_else(|| self.c_elem_type(t));
                        if !ty.is_some_and(|t| t.base == BaseClass::Integer) {
                            return Some(self.unsupported(
                                s,
                                "a comma expression that moves pointers and overwrites values",
                            ));
                        }
                        if self.t_in(Target::Expr(t), &rec) {
                            match self.slot_of_target(Target::Expr(t)) {
                                Ok(sl) => {
                                    let (a, b) = self.push_pop(&sl);
                                    p.fwd.push(a);
                                    p.bwd.push(b);
                                }
                                Err(m) => {
                                    let msg = format!("{m} is not supported in adjoint mode yet");
                                    return Some(self.unsupported(s, &msg));
                                }
                            }
                        }
                    }
                    let c = self.pg.cp(x);
                    p.fwd.push(stmt(&mut self.pg.u, StmtKind::Expr(c)));
                }
            }
            r.fwd.extend(p.fwd);
            let mut b = p.bwd;
            b.append(&mut r.bwd);
            r.bwd = b;
        }
        Some(r)
    }
}
