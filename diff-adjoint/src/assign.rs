//! Assignments: the adjoint of `v = e` from its transposed tangent, hoisted function
//! references, adjoint increments, C expression statements and C pointer moves.

use crate::*;

impl<'a> Adj<'_, '_, 'a> {
    fn t_dref(&mut self, t: Target) -> Option<ExprId> {
        match t {
            Target::Expr(e) => self.pg.dref(e, Dir::Nd),
            Target::Sym(s) => {
                let d = *self.pg.dvar.get(&s)?;
                Some(self.pg.b().name(d))
            }
        }
    }

    fn t_kind(&self, t: Target) -> u32 {
        match t {
            Target::Expr(e) => self.pg.real_kind(e),
            Target::Sym(s) => self.pg.bytes_of_sym(s),
        }
    }

    fn t_rank(&self, t: Target) -> usize {
        match t {
            Target::Expr(e) => self.pg.rank_of(e),
            Target::Sym(_) => 0,
        }
    }

    /// Rank of a primal expression, knowing that whole-array reductions (`sum(x)`,
    /// `dot_product(x, y)`) are scalars; otherwise as `rank_of` (which may overestimate).
    fn src_rank(&self, e: ExprId) -> usize {
        match &self.pg.f.src.exprs[e] {
            Expr::Call { callee, args } => {
                let name = match &self.pg.f.src.exprs[*callee] {
                    Expr::Opaque(n) => n.to_ascii_lowercase(),
                    Expr::Intrinsic(r) => r.spelling.to_string(),
                    Expr::Name(s) => self.pg.prog().symbols[*s].spelling.to_ascii_lowercase(),
                    _ => String::new(),
                };
                let plain = args.iter().all(|a| a.keyword.is_none());
                match name.as_str() {
                    "sum" | "product" | "maxval" | "minval" | "norm2" | "count"
                        if args.len() == 1 && plain =>
                    {
                        0
                    }
                    "dot_product" | "size" if plain => 0,
                    _ => self.pg.rank_of(e),
                }
            }
            Expr::Binary { lhs, rhs, .. } => self.src_rank(*lhs).max(self.src_rank(*rhs)),
            Expr::Unary { arg, .. } | Expr::Paren(arg) => self.src_rank(*arg),
            _ => self.pg.rank_of(e),
        }
    }

    /// `lhs (op)= rhs` at point `part` of `s`: forward sweep (record, primal), backward sweep
    /// (restore, adjoint increments, reset).
    pub(crate) fn adj_assign(
        &mut self,
        s: StmtId,
        lhs: Target,
        op: Option<BinOp>,
        rhs: ExprId,
        part: Part,
    ) -> Rev {
        let Some(i) = self.pg.f.pi.point_id(Point { stmt: s, part }) else {
            return self.fwd_only(s);
        };
        if let Target::Expr(l) = lhs {
            if let Some(msg) = self.reallocating_assignment(l, rhs) {
                return self.unsupported(s, &msg);
            }
            if self.pg.unreachable_store(l) {
                return self.unsupported(s, "a store through an address radtap cannot follow (`*f(y) = …`, `(&y[0])[k] = …`, `k[y] = …`): its derivative would be lost; assign the variable or element by name");
            }
            if op.is_none() {
                if let Some(r) = self.adj_value_call(s, l, rhs) {
                    return r;
                }
            }
            if op.is_none() {
                if let Some(r) = self.adj_member_pointer(s, l, rhs) {
                    return r;
                }
            }
            if let Some(q) = self.pointer_var(l) {
                return self.adj_pointer_move(s, q, PointerMove::Assign { op, rhs });
            }
        }
        self.pg.cur = self.pg.f.act.active_before[i].clone();
        self.pg.hoisted.clear();
        let mut h = Hoisted::default();
        self.adj_hoist(s, rhs, &mut h);
        // C chained assignment `a = b = e`: every target receives the value of `e`, so
        // backwards each target's adjoint flows into `e` in turn. `e` must not read a target
        // (then the targets would not all hold the same function of the inputs).
        let mut targets = vec![lhs];
        let mut value = rhs;
        while let Expr::Assign {
            op: inner_op,
            lhs: l2,
            rhs: r2,
        } = self.pg.f.src.exprs[value]
        {
            if op.is_some() || inner_op.is_some() {
                return self.unsupported(s, "a chained compound C assignment");
            }
            targets.push(Target::Expr(l2));
            value = r2;
        }
        if targets.len() > 1 {
            let bases: Vec<SymbolId> = targets
                .iter()
                .filter_map(|t| match t {
                    Target::Sym(x) => Some(*x),
                    Target::Expr(e) => {
                        radtap_dataflow::zones::base_symbol(self.pg.prog(), self.pg.f.p, *e)
                    }
                })
                .collect();
            let mut reads_target = false;
            let mut stack = vec![value];
            while let Some(x) = stack.pop() {
                reads_target |=
                    matches!(self.pg.f.src.exprs[x], Expr::Name(n) if bases.contains(&n));
                radtap_il::visit::expr_children(&self.pg.f.src.exprs[x], &mut |k| stack.push(k));
            }
            if reads_target || bases.len() != targets.len() {
                return self.unsupported(
                    s,
                    "a chained C assignment whose value reads one of its targets",
                );
            }
        }
        // A statement sliced away takes its hoisted function references with it: only a
        // call without side effects makes a point sliceable, and the backward sweep
        // recomputes a result its adjoint reads.
        let hoisted = std::mem::take(&mut h.fwd);
        let mut nh = if self.is_live(i) || h.split {
            hoisted.len()
        } else {
            0
        };
        let mut r = Rev {
            fwd: if self.is_live(i) || h.split {
                hoisted
            } else {
                Vec::new()
            },
            bwd: Vec::new(),
        };
        let inverse = match targets.len() {
            1 => self.inverse_step(i),
            _ => None,
        };
        let rec = self.to_record(i);
        // What the statement writes besides its targets (`k = get(i, &ph)` writes `ph`
        // through a call with no derivative): recorded whole around it, as a call's
        // snapshot (its old value was lost, and the backward sweep used the last one).
        // A call writing into the target's own array (`c[k] = setc(i, &c[j])`, or through
        // another pointer, or a global) writes more of it than the target: the target's
        // memory is recorded whole when a call with side effects may reach it.
        let written_bases = self.call_written_bases(value);
        let effects = self.calls_with_side_effects(value);
        let mut others = rec.clone();
        for &t in &targets {
            let shared = effects || self.t_base(t).is_some_and(|b| written_bases.contains(&b));
            match self.t_zones(t) {
                Some(z) if !shared => others.subtract(&z),
                Some(_) => {}
                None => others = self.pg.f.pi.zones.empty(),
            }
        }
        let mut effect_restore = Vec::new();
        if !h.effect_results.is_empty() {
            // A function with a side effect writes it in its hoisted `f_fwd` call: what the
            // statements before need is recorded before the hoisted calls and restored after
            // their `f_bwd`, which restore what they read themselves (as split calls do).
            others.intersect_with(&self.pg.f.act.tbr_before[i]);
            if !others.is_empty() {
                let (push, pop) = self.snapshot(s, &others);
                nh += push.len();
                r.fwd.splice(0..0, push);
                effect_restore = pop;
            }
        } else if !others.is_empty() && h.calls.is_empty() {
            let (push, pop) = self.snapshot(s, &others);
            r.fwd.extend(push);
            r.bwd.splice(0..0, pop);
        }
        if let Some(inv) = inverse {
            r.bwd.push(inv);
        } else if !rec.is_empty() {
            for &t in &targets {
                match self.slots_of_target(t, &rec) {
                    Ok(slots) => {
                        for sl in slots {
                            let (a, b) = self.push_pop(&sl);
                            r.fwd.push(a);
                            r.bwd.insert(0, b);
                        }
                    }
                    Err(m) => {
                        let msg = format!("{m} is not supported in adjoint mode yet");
                        self.pg.error(s, Code::Unsupported, &msg);
                    }
                }
            }
        }
        if self.is_live(i) {
            let st = match lhs {
                Target::Expr(l) => self.pg.primal_assign(s, l, op, rhs),
                Target::Sym(sym) => {
                    let l = self.pg.b().name(sym);
                    let rr = self.pg.cp(rhs);
                    assign(&mut self.pg.u, l, rr)
                }
            };
            r.fwd.push(st);
        }
        let mut adj = Vec::new();
        let mut reuse = Reuse {
            stored: self.stored_result(
                s,
                i,
                &targets,
                op,
                value,
                inverse.is_some() || !rec.is_empty(),
            ),
            siblings: Vec::new(),
        };
        self.reuse_function_result(
            s,
            i,
            &targets,
            op,
            value,
            inverse.is_some() || !rec.is_empty(),
            &mut h,
        );
        reuse.siblings = self.sibling_results(s, value);
        for &t in &targets {
            adj.extend(self.adjoint_increments(s, i, t, op, value, &reuse));
        }
        let users: Vec<StmtId> = adj.iter().chain(&h.calls).copied().collect();
        let recompute = if !h.calls.is_empty() && !adj.is_empty() {
            self.prune_recompute(std::mem::take(&mut h.recompute), &users)
        } else {
            Vec::new()
        };
        let (pushes, pops) = self.record_effect_results(&mut h, &users, &recompute);
        r.fwd.splice(nh..nh, pushes);
        r.bwd.extend(pops);
        if !h.calls.is_empty() && !adj.is_empty() {
            r.bwd.extend(recompute);
            r.bwd.extend(std::mem::take(&mut h.zero));
        }
        let any = !adj.is_empty();
        r.bwd.extend(adj);
        if any {
            r.bwd.extend(std::mem::take(&mut h.calls));
        } else if h.split && !r.fwd.is_empty() {
            // No adjoint here, but the forward sweep ran `f_fwd`, which pushed its tape:
            // `f_bwd` with a zero result adjoint pops it (the split adjoint of a Newton
            // loop's residual norm left it on the stack, and the sweeps came apart).
            r.bwd.extend(std::mem::take(&mut h.zero));
            r.bwd.extend(std::mem::take(&mut h.calls));
        }
        r.bwd.extend(effect_restore);
        self.pg.hoisted.clear();
        r
    }

    /// The intrinsic call `value` with the target `lhs` of `lhs = f(…)` when the value the
    /// forward sweep stores there is still there when the adjoint of the statement runs, so
    /// that the adjoint reads it instead of calling `f` again (issue 21: LSTM's
    /// `temp = gates[3 * hsize + i]` for `tanh(…)`, whose partial is `1 - temp * temp`).
    /// Joint sweeps of C procedures with no directive, the statement kept in the forward
    /// sweep and nothing recorded or rebuilt at it; `extent::stored_until_adjoint` proves
    /// that no later statement writes the element, `extent::stored::kept_scalars` the same of
    /// a scalar (`theta = sqrt(sqtheta)`; `-nooptim sharepartials` turns both off with the
    /// other shared intrinsic values).
    fn stored_result(
        &mut self,
        s: StmtId,
        i: usize,
        targets: &[Target],
        op: Option<BinOp>,
        mut value: ExprId,
        restored: bool,
    ) -> Option<(ExprId, ExprId)> {
        let [Target::Expr(lhs)] = targets else {
            return None;
        };
        if !self.may_read_stored(i, op, restored) {
            return None;
        }
        while let Expr::Paren(a) = self.pg.f.src.exprs[value] {
            value = a;
        }
        // The cheap tests first: the rest walks the whole procedure.
        if !matches!(
            self.pg.f.src.exprs[value],
            Expr::Call { .. } | Expr::Binary { op: BinOp::Div, .. }
        ) || self.pg.differentiated_function(s, value).is_some()
        {
            return None;
        }
        self.stored_intact(s, *lhs).then_some((value, *lhs))
    }

    /// References to differentiated functions in `e` (innermost first): `t = f(a)` runs
    /// before the statement, which reads `t`; backwards, `t` is recomputed, its adjoint
    /// `t̄` collects the statement's contributions, and `f_b(a, ā, t̄)` propagates them.
    pub(crate) fn adj_hoist(&mut self, s: StmtId, e: ExprId, h: &mut Hoisted) {
        let node = &self.pg.f.src.exprs[e];
        let mut kids = Vec::new();
        radtap_il::visit::expr_children(node, &mut |k| kids.push(k));
        for k in kids {
            self.adj_hoist(s, k, h);
        }
        let Some((c, r)) = self.pg.differentiated_function(s, e) else {
            return;
        };
        let Expr::Call { args, .. } = &self.pg.f.src.exprs[e] else {
            return;
        };
        if let Some(msg) = self.pg.function_reference_refusal(c, r, args) {
            // A whole sentence already ("… is not differentiated yet; …").
            self.pg.error(s, Code::Unsupported, &msg);
            return;
        }
        // A function with a side effect (a counter, an error flag) runs `f_fwd` forwards and
        // `f_bwd` backwards, and its result is recorded rather than recomputed, so the
        // effect happens once. Without that pair it would be recomputed and its adjoint run
        // with no snapshot of what it overwrote: refused.
        let effect = self.pg.side_effect_of(c);
        let effect_split = effect.as_ref().and_then(|_| self.pg.g.effect_split_call(c));
        if let (Some(v), None) = (&effect, effect_split) {
            let f = unit_name(self.pg.prog(), c);
            let msg = format!("a reference to the function `{f}` in an expression, as `{f}` also writes `{v}` (the backward sweep would run it again),");
            self.unsupported(s, &msg);
            return;
        }
        if self.pg.call_writes_differentiable(s, &[c]) {
            // Backwards the reference is recomputed and its adjoint called with no snapshot
            // of what it overwrote.
            let name = crate::unit_name(self.pg.prog(), c);
            let msg = format!("a reference to the function `{name}`, which writes real data through its arguments or globals, inside an expression");
            self.unsupported(s, &msg);
            return;
        }
        let (t, tb, bytes) = self.pg.result_temps(c, r, args);
        let (mut c1, c2) = (self.pg.cp(e), self.pg.cp(e));
        let split = self
            .pg
            .g
            .split_call(c, &self.pg.f.src.stmts[s].directives)
            .or(effect_split);
        let external = self.pg.prog().units[c].parent.is_none() && c != self.pg.f.p;
        if let Some(&copy) = self.pg.g.primal_copies.get(&c) {
            let targets = if split.is_some() {
                vec![c2]
            } else {
                vec![c1, c2]
            };
            for x in targets {
                let n = self.pg.b().name(copy);
                if let Expr::Call { callee, .. } = &mut self.pg.u.exprs[x] {
                    *callee = n;
                }
            }
            if self.pg.f.lang == Lang::Fortran
                && external
                && !self.pg.extern_funcs.iter().any(|x| x.0 == copy)
            {
                let t = self.pg.result_type(r, bytes);
                self.pg.extern_funcs.push((copy, t));
            }
        }
        if let Some((f, _)) = split {
            h.split = true;
            let fname = self.pg.b().name(f);
            if let Expr::Call { callee, .. } = &mut self.pg.u.exprs[c1] {
                *callee = fname;
            }
            if self.pg.f.lang == Lang::Fortran
                && external
                && !self.pg.extern_funcs.iter().any(|x| x.0 == f)
            {
                let t = self.pg.result_type(r, bytes);
                self.pg.extern_funcs.push((f, t));
            }
            c1 = self.pg.paren_if_compound(c1);
        }
        let (t1, t2) = (self.pg.b().name(t), self.pg.b().name(t));
        h.fwd.push(assign(&mut self.pg.u, t1, c1));
        if effect_split.is_some() {
            h.effect_results.push((t, r));
        } else {
            h.recompute.push(assign(&mut self.pg.u, t2, c2));
        }
        let tbl = self.pg.b().name(tb);
        let z = self.pg.b().zero(bytes);
        h.zero.push(assign(&mut self.pg.u, tbl, z));
        let mut pre = Vec::new();
        let mut post = Vec::new();
        let mut new_args = self.adjoint_args(s, c, args, &mut pre, &mut post);
        let tbn = self.pg.b().name(tb);
        new_args.push(Arg {
            keyword: self.pg.result_keywords(c, r, args).map(|[_, rb, _]| rb),
            value: tbn,
        });
        let callee = {
            let v = split.map_or(self.pg.g.dproc[&c], |x| x.1);
            self.pg.b().name(v)
        };
        let mut calls = pre;
        calls.push(match self.pg.f.lang {
            Lang::Fortran => stmt(
                &mut self.pg.u,
                StmtKind::Call {
                    callee,
                    args: new_args,
                    no_parens: false,
                },
            ),
            Lang::C => {
                let call = self.pg.b().e(Expr::Call {
                    callee,
                    args: new_args,
                });
                let st = stmt(&mut self.pg.u, StmtKind::Expr(call));
                h.result = split.is_none().then_some((e, st, c));
                st
            }
        });
        calls.extend(post);
        // Outermost first backwards.
        calls.append(&mut h.calls);
        h.calls = calls;
        self.pg.hoisted.insert(e, (t, Some(tb)));
    }

    /// The adjoint statements of `lhs (op)= rhs` at point `i`.
    fn adjoint_increments(
        &mut self,
        s: StmtId,
        i: usize,
        lhs: Target,
        op: Option<BinOp>,
        rhs: ExprId,
        reuse: &Reuse,
    ) -> Vec<StmtId> {
        let has = self
            .t_base(lhs)
            .is_some_and(|b| self.pg.dvar.contains_key(&b));
        if !has {
            return Vec::new();
        }
        let after = self.pg.f.act.active_after[i].clone();
        let before = self.pg.f.act.active_before[i].clone();
        let active = self.t_in(lhs, &after);
        let useful = self.t_in(lhs, &self.pg.f.act.useful_after[i].clone());
        if !active && !self.t_in(lhs, &before) && !useful {
            return Vec::new();
        }
        let Some(ld) = self.t_dref(lhs) else {
            return Vec::new();
        };
        let record = match lhs {
            Target::Expr(l) => self.pg.record_of(l),
            Target::Sym(x) => match self.pg.prog().symbols[x].ty.as_ref().map(|t| t.base) {
                Some(BaseClass::Record(td)) => Some(td),
                _ => None,
            },
        };
        if let Some(td) = record {
            return self.record_increments(s, lhs, td, ld, op, rhs, active);
        }
        let k = self.t_kind(lhs);
        let mut out = Vec::new();
        if !active {
            let z = self.pg.b().zero(k);
            out.push(assign(&mut self.pg.u, ld, z));
            return out;
        }
        let of = match (op, lhs) {
            (None, _) => TanOf::Expr(rhs),
            (Some(op), Target::Expr(lhs)) => TanOf::Update { op, lhs, rhs },
            (Some(_), Target::Sym(_)) => TanOf::Passive(rhs),
        };
        let Tangent {
            deriv: t,
            refs: marks,
            shared: shared_defs,
        } = self.pg.tangent(of, self.sharing(), reuse);
        let Some(t) = t else {
            let z = self.pg.b().zero(k);
            out.push(assign(&mut self.pg.u, ld, z));
            return out;
        };
        // The shared quotients and intrinsic calls (primal values) before the increments.
        out.extend(shared_defs);
        // Self reference (`v = v*x`), or another reference to the same variable that may
        // alias the target (`a(i) = a(j)*x`): then the seed is copied first.
        let lbase = self.t_base(lhs);
        let mut self_marks = HashSet::new();
        let mut alias = false;
        let lz = self.t_zones(lhs);
        for &(m, src_ref) in &marks {
            let same_base =
                radtap_dataflow::zones::base_symbol(self.pg.prog(), self.pg.f.p, src_ref) == lbase;
            let overlap = match (
                &lz,
                self.pg
                    .g
                    .info
                    .ref_zones(self.pg.prog(), self.pg.f.p, src_ref),
            ) {
                (Some(a), Some(b)) => a.intersects(&b),
                _ => same_base,
            };
            if !overlap {
                continue;
            }
            let identical = match lhs {
                Target::Expr(l) => self.same_src(l, src_ref),
                Target::Sym(sym) => {
                    matches!(self.pg.f.src.exprs[src_ref], Expr::Name(x) if x == sym)
                }
            };
            if identical {
                self_marks.insert(m);
            } else {
                alias = true;
            }
        }
        let mut rank = self.t_rank(lhs);
        // A scalar right side broadcast over an array target (`y = sum(x)` into `y(1)`,
        // `y(2:2) = dot_product(x, x)`): every element's seed flows into the one value.
        let scalar_rhs = self.pg.f.lang == Lang::Fortran && rank > 0 && self.src_rank(rhs) == 0;
        let seed = if alias {
            if rank > 0 && !scalar_rhs {
                self.pg.error(s, Code::Unsupported, "an array assignment whose right side overlaps its left side is not supported in adjoint mode yet");
                return out;
            }
            let complex = lbase.is_some_and(|b| {
                self.pg.prog().symbols[b]
                    .ty
                    .as_ref()
                    .is_some_and(|t| t.base == BaseClass::Complex)
            });
            let kind = if complex {
                TempKind::Complex {
                    bytes: k,
                    deriv: true,
                }
            } else {
                TempKind::Real {
                    bytes: k,
                    deriv: true,
                }
            };
            let tmp = self.pg.temp("tempb", kind);
            let tn = self.pg.b().name(tmp);
            let mut l2 = self.dup(ld);
            if scalar_rhs {
                l2 = self.pg.b().call("sum", vec![l2]);
            }
            out.push(assign(&mut self.pg.u, tn, l2));
            let l3 = self.dup(ld);
            let z = self.pg.b().zero(k);
            out.push(assign(&mut self.pg.u, l3, z));
            self_marks.clear();
            self.pg.b().name(tmp)
        } else {
            self.dup(ld)
        };
        let seed = if scalar_rhs && !alias {
            self.pg.b().call("sum", vec![seed])
        } else {
            seed
        };
        if scalar_rhs {
            rank = 0;
        }
        // Zeros the transposition builds beside the seed have the target's real kind.
        self.zero_kind = self.t_kind(lhs);
        self.share_seeds = rank == 0
            && self.pg.g.opts.share_partials
            && self.t_base(lhs).is_some_and(|b| {
                self.pg.prog().symbols[b]
                    .ty
                    .as_ref()
                    .is_some_and(|t| t.base == BaseClass::Real)
            });
        let scattered = self.scatter(s, t, seed, rank, &marks, &self_marks);
        self.share_seeds = false;
        let Some((incs, self_group)) = scattered else {
            return out;
        };
        out.extend(incs);
        match self_group {
            Some(cs) => {
                // v̄ = (∂v/∂v)·v̄, skipped when it is the identity (`v += x`).
                let identity = cs.len() == 1 && self.same_out(cs[0], ld);
                if !identity {
                    let mut sum = None;
                    for c in cs {
                        sum = self.pg.b().add_opt(sum, Some(c));
                    }
                    if let Some(v) = sum {
                        let l = self.dup(ld);
                        out.push(assign(&mut self.pg.u, l, v));
                    }
                }
            }
            None if !alias => {
                let z = self.pg.b().zero(k);
                out.push(assign(&mut self.pg.u, ld, z));
            }
            None => {}
        }
        out
    }

    /// `fwd_result = e` on the one local a split forward sweep lowered to basic blocks
    /// returns at its end (`c_return_value`).
    pub(crate) fn set_return_local(&mut self, r: SymbolId, e: ExprId) -> StmtId {
        let t = match self.c_return_local {
            Some(t) => t,
            None => {
                let t = self.pg.temp(
                    "fwd_result",
                    TempKind::Like {
                        sym: r,
                        deriv: false,
                    },
                );
                self.c_return_local = Some(t);
                t
            }
        };
        let v = self.pg.b().name(t);
        self.c_return_value = Some(v);
        let (l, val) = (self.pg.b().name(t), self.pg.cp(e));
        assign(&mut self.pg.u, l, val)
    }

    // ------------------------------------------------------------------ control
}
