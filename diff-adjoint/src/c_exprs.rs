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

    /// The C pointer variable `e` names, if it does.
    pub(crate) fn pointer_var(&self, e: ExprId) -> Option<SymbolId> {
        let Expr::Name(q) = self.pg.f.src.exprs[e] else {
            return None;
        };
        if self.pg.f.lang != Lang::C {
            return None;
        }
        let t = self.pg.prog().symbols[q].ty.as_ref()?;
        (t.pointers > 0 && t.dims.is_empty()).then_some(q)
    }

    /// Whether a call in `e` writes memory outside its callee (`side_effect_of`).
    pub(crate) fn calls_with_side_effects(&self, e: ExprId) -> bool {
        let mut todo = vec![e];
        while let Some(x) = todo.pop() {
            if let Expr::Call { .. } = &self.pg.f.src.exprs[x] {
                if let Some(site) = self.pg.expr_call_site(x) {
                    if let Callee::Defined(list) = &site.callee {
                        if list.iter().any(|&c| self.pg.side_effect_of(c).is_some()) {
                            return true;
                        }
                    }
                }
            }
            radtap_il::visit::expr_children(&self.pg.f.src.exprs[x], &mut |k| todo.push(k));
        }
        false
    }

    /// The base variables of the actual arguments through which the calls in `e` may write.
    pub(crate) fn call_written_bases(&self, e: ExprId) -> Vec<SymbolId> {
        let mut out = Vec::new();
        let mut todo = vec![e];
        while let Some(x) = todo.pop() {
            if let Expr::Call { args, .. } = &self.pg.f.src.exprs[x] {
                if let Some(site) = self.pg.expr_call_site(x) {
                    if let Callee::Defined(list) = &site.callee {
                        for &c in list {
                            out.extend(self.pg.written_arg_bases(c, args));
                        }
                    }
                }
            }
            radtap_il::visit::expr_children(&self.pg.f.src.exprs[x], &mut |k| todo.push(k));
        }
        out
    }

    /// The backward sweep of statement `s` of a rotation `t = x1; x1 = x2; …; xk = t;`
    /// (`radtap_dataflow::rotation`) whose temporary only rotates: the rotation run
    /// backwards, `t = xk; xk = x(k-1)` for the last statement, `xi = x(i-1)` for the middle
    /// ones, `x1 = t` for the second, nothing for the first; on the pointers and on their
    /// derivatives alike. Nothing is recorded. `None` when `s` is no such statement, or when
    /// some of the pointers have a derivative and others do not.
    fn undo_rotation(&mut self, s: StmtId) -> Option<Vec<StmtId>> {
        let rotations = &self.pg.f.pi.zones.rotations;
        let (c, i) = rotations.iter().find_map(|r| r.cycle_of(s))?;
        if !c.temp_only_rotates {
            return None;
        }
        let k = c.chain.len();
        let x = |j: usize| c.chain[j - 1];
        let moves: Vec<(SymbolId, SymbolId)> = match i {
            0 => Vec::new(),
            1 => vec![(x(1), c.temp)],
            _ if i == k => vec![(c.temp, x(k)), (x(k), x(k - 1))],
            _ => vec![(x(i), x(i - 1))],
        };
        let all: Vec<SymbolId> = std::iter::once(c.temp)
            .chain(c.chain.iter().copied())
            .collect();
        let derivs: Vec<Option<SymbolId>> =
            all.iter().map(|v| self.pg.dvar.get(v).copied()).collect();
        let with_derivs = derivs.iter().all(Option::is_some);
        if !with_derivs && derivs.iter().any(Option::is_some) {
            return None;
        }
        let mut out = Vec::new();
        for (l, rr) in moves {
            let mut pairs = vec![(l, rr)];
            if with_derivs {
                pairs.push((self.pg.dvar[&l], self.pg.dvar[&rr]));
            }
            for (l, rr) in pairs {
                let lhs = self.pg.b().name(l);
                let rhs = self.pg.b().name(rr);
                let e = self.pg.b().e(Expr::Assign { op: None, lhs, rhs });
                out.push(stmt(&mut self.pg.u, StmtKind::Expr(e)));
            }
        }
        Some(out)
    }

    /// `p = e`, `p += k`, `p++` on a C pointer: forwards, the pointer and its derivative
    /// are recorded, then both move; backwards, both are restored.
    pub(crate) fn adj_pointer_move(&mut self, s: StmtId, q: SymbolId, mv: PointerMove) -> Rev {
        let mut r = Rev::default();
        let dq = self.pg.dvar.get(&q).copied();
        if dq.is_some() && self.pg.f.sweep != Sweep::Joint && self.pg.f.src.params.contains(&q) {
            // A pointer argument: `f_fwd` has no derivative argument to move or record, and
            // `f_bwd` would start from the caller's: the output referenced undeclared names.
            self.pg.error(s, Code::Unsupported, "moving a pointer argument that has a derivative pointer in a procedure split into f_fwd and f_bwd (-nocheckpoint, or the NOCHECKPOINT directive) is not supported; keep its calls checkpointed");
            return r;
        }
        if let (Some(_), Sweep::Fwd | Sweep::Bwd, PointerMove::Assign { rhs, .. }) =
            (dq, self.pg.f.sweep, mv)
        {
            if !self.is_allocation(rhs) {
                // `row = X + i*m` with `X` an argument with a derivative pointer: `f_fwd` sets
                // `rowb = Xb + i*m` but has no `Xb` (the output did not compile).
                let mut names = std::collections::HashSet::new();
                self.names_in(rhs, &mut names);
                let from_arg = names
                    .into_iter()
                    .filter(|x| self.pg.f.src.params.contains(x) && self.pg.dvar.contains_key(x))
                    .min();
                if let Some(x) = from_arg {
                    let (qn, xn) = (
                        self.pg.name_of(q).to_string(),
                        self.pg.name_of(x).to_string(),
                    );
                    let msg = format!("the local pointer `{qn}` set from the argument `{xn}`, both with derivative pointers, in a procedure split into f_fwd and f_bwd (-nocheckpoint, or the NOCHECKPOINT directive) is not supported; keep its calls checkpointed");
                    self.pg.error(s, Code::Unsupported, &msg);
                    return r;
                }
            }
        }
        let mut ptrs = vec![q];
        ptrs.extend(dq);
        // A declaration's initialiser outside loops gives the pointer its first value:
        // there is nothing to restore.
        let first = (matches!(self.pg.f.src.stmts[s].kind, StmtKind::Decl(_))
            && !self.enclosing_loop(s))
            || (matches!(mv, PointerMove::Assign { op: None, .. })
                && self.first_value_of_local(s, q));
        let undone = self.undo_rotation(s);
        let first = first || undone.is_some();
        r.bwd.extend(undone.unwrap_or_default());
        for &v in ptrs.iter().filter(|_| !first) {
            let name = self.pg.g.out.symbols[v].spelling.clone();
            let a = self.pg.b().opaque(&format!("(void *){name}"));
            r.fwd.push(self.rt("pushPointer8", vec![a]));
            let b = self.pg.b().opaque(&format!("(void **)&{name}"));
            r.bwd.insert(0, self.rt("popPointer8", vec![b]));
        }
        // `q = malloc(…)` of a pointer the procedure frees: the backward sweep frees both
        // blocks where it passes the allocation again (the free itself is left out).
        if let PointerMove::Assign { op: None, rhs } = mv {
            if self.is_allocation(rhs) && self.freed_locals.contains(&q) {
                let mut frees = Vec::new();
                // `delete_matrix(m)` with the frees of the shadow (`records.rs`).
                let dealloc = self.deallocated.get(&q).copied();
                if let Some(d) = dealloc {
                    frees = self.delayed_deallocation(s, d);
                }
                for &v in ptrs.iter().filter(|_| dealloc.is_none()) {
                    let f = self.pg.b().opaque("free");
                    let a = self.pg.b().name(v);
                    frees.push(stmt(
                        &mut self.pg.u,
                        StmtKind::Call {
                            callee: f,
                            args: vec![Arg {
                                keyword: None,
                                value: a,
                            }],
                            no_parens: false,
                        },
                    ));
                }
                frees.append(&mut r.bwd);
                r.bwd = frees;
            }
        }
        let make = |pg: &mut Self, v: SymbolId, deriv: bool| -> Option<ExprId> {
            let n = pg.pg.b().name(v);
            Some(match mv {
                PointerMove::Step { inc, prefix } => pg.pg.b().e(Expr::IncDec {
                    inc,
                    prefix,
                    arg: n,
                }),
                PointerMove::Assign { op, rhs } => {
                    let rhs = if deriv && op.is_none() && pg.pg.allocator_of(rhs).is_some() {
                        // `m = get_new_matrix(r, c)`: the shadow, zeroed (`records.rs`).
                        let d = pg.pg.allocator_block(rhs, Some(q))?;
                        pg.zeroed_allocation(d);
                        d
                    } else if deriv && op.is_none() {
                        let d = pg.pg.dptr(rhs)?;
                        // Adjoints accumulate: the derivative block starts at zero.
                        pg.zeroed_allocation(d);
                        d
                    } else {
                        pg.pg.cp(rhs)
                    };
                    pg.pg.b().e(Expr::Assign { op, lhs: n, rhs })
                }
            })
        };
        if let Some(e) = make(self, q, false) {
            r.fwd.push(stmt(&mut self.pg.u, StmtKind::Expr(e)));
        }
        if let Some(d) = dq {
            match make(self, d, true) {
                Some(e) => {
                    r.fwd.push(stmt(&mut self.pg.u, StmtKind::Expr(e)));
                    if let PointerMove::Assign { op: None, rhs } = mv {
                        let members = self.shadow_members(rhs, q, d);
                        r.fwd.extend(members);
                    }
                }
                None => {
                    self.pg.error(
                        s,
                        Code::Unsupported,
                        "pointing a derivative pointer at this expression is not supported in adjoint mode yet",
                    );
                }
            }
        }
        r
    }
}
