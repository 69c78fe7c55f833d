//! Adjoints of FORALL and WHERE (paper Fig. 14).
//!
//! A FORALL whose assignments read their own target only at the element they write is a
//! nest of DO loops: both sweeps run it as one, the forward sweep recording the mask per
//! index like an IF, the backward sweep running the indices in reverse. The index
//! variables keep their value around both loops, as a FORALL leaves them.
//!
//! A WHERE construct keeps its form: its masks are evaluated into logical temporaries and
//! recorded, the values its assignments overwrite are recorded before it, and the backward
//! sweep is a WHERE over the same masks holding the adjoint assignments in reverse order.
//! That needs each assignment to see the values from before the construct: no assignment
//! reads what an earlier one of its arm wrote, and no mask reads what an earlier arm wrote.

use crate::*;

impl<'a> Adj<'_, '_, 'a> {
    pub(crate) fn adj_forall(
        &mut self,
        s: StmtId,
        specs: &'a [ForallSpec],
        mask: Option<ExprId>,
        body: &'a [StmtId],
    ) -> Rev {
        let src = self.pg.f.src;
        for &b in body {
            let StmtKind::Assign { lhs, .. } = &src.stmts[b].kind else {
                return self.unsupported(s, "a FORALL holding other statements than assignments");
            };
            if !self.reads_target_only_at_itself(b, *lhs) {
                return self.unsupported(
                    s,
                    "a FORALL assignment reading its target at other elements than the one it writes",
                );
            }
        }
        if specs.iter().any(|sp| {
            sp.stride
                .is_some_and(|x| self.pg.const_value(x) != Some(1.0))
        }) {
            return self.unsupported(s, "a FORALL with a stride");
        }
        let mut var_zones = self.pg.f.pi.zones.empty();
        for sp in specs {
            if let Some(z) = self
                .pg
                .g
                .info
                .ref_zones(self.pg.prog(), self.pg.f.p, sp.var)
            {
                var_zones.union_with(&z);
            }
        }
        if !self.static_bounds(s, Part::LoopHead, &var_zones) {
            return self.unsupported(s, "a FORALL whose bounds the procedure changes");
        }
        let r = self.rev_block(body);
        if r.fwd.is_empty() && r.bwd.is_empty() {
            return Rev::default();
        }
        let any_bwd = !r.bwd.is_empty();
        let (mut fwd_in, mut bwd_in) = (r.fwd, r.bwd);
        if let Some(m) = mask {
            let c = self.pg.cp(m);
            let (mut then, mut else_b) = (fwd_in, Vec::new());
            if any_bwd {
                then.push(self.push_control(1, 1));
                else_b.push(self.push_control(1, 0));
            }
            fwd_in = vec![stmt(
                &mut self.pg.u,
                StmtKind::If {
                    arms: vec![(c, then)],
                    else_block: (!else_b.is_empty()).then_some(else_b),
                    logical: false,
                    braces: Vec::new(),
                },
            )];
            if any_bwd {
                let branch = self.branch_var();
                let pop = self.pop_control(1, branch);
                let c = self.eq_test(branch, 1);
                let iff = stmt(
                    &mut self.pg.u,
                    StmtKind::If {
                        arms: vec![(c, bwd_in)],
                        else_block: None,
                        logical: false,
                        braces: Vec::new(),
                    },
                );
                bwd_in = vec![pop, iff];
            }
        }
        let fwd = self.index_nest(s, specs, fwd_in, false);
        let bwd = if any_bwd {
            self.index_nest(s, specs, bwd_in, true)
        } else {
            Vec::new()
        };
        Rev { fwd, bwd }
    }

    /// DO loops over the FORALL indices around `body` (backwards: from the upper bounds),
    /// the indices saved before and restored after (not when the FORALL `s` comes before
    /// any other use of a variable of that name: it has no value to keep).
    fn index_nest(
        &mut self,
        s: StmtId,
        specs: &[ForallSpec],
        body: Block,
        reverse: bool,
    ) -> Vec<StmtId> {
        let mut saves = Vec::new();
        let mut restores = Vec::new();
        for sp in specs {
            if let Expr::Name(v) = self.pg.f.src.exprs[sp.var] {
                if self.first_value_of_local(s, v) {
                    continue;
                }
            }
            let t = self.int_temp("ad_index");
            let (tl, v) = (self.pg.b().name(t), self.pg.cp(sp.var));
            saves.push(assign(&mut self.pg.u, tl, v));
            let (v, tr) = (self.pg.cp(sp.var), self.pg.b().name(t));
            restores.push(assign(&mut self.pg.u, v, tr));
        }
        let mut inner = body;
        for sp in specs.iter().rev() {
            let v = self.pg.cp(sp.var);
            let (lo, hi) = (self.pg.cp(sp.lo), self.pg.cp(sp.hi));
            let (start, end, step) = if reverse {
                let one = self.pg.b().int(1);
                (hi, lo, Some(self.pg.b().neg(one)))
            } else {
                (lo, hi, None)
            };
            inner = vec![stmt(
                &mut self.pg.u,
                StmtKind::Do {
                    var: v,
                    start,
                    end,
                    step,
                    body: inner,
                    term_label: None,
                },
            )];
        }
        saves.extend(inner);
        saves.extend(restores);
        saves
    }

    /// Whether the right-hand side of assignment `s` reads the variable of `lhs` only
    /// through the very reference `lhs`.
    fn reads_target_only_at_itself(&self, s: StmtId, lhs: ExprId) -> bool {
        let src = self.pg.f.src;
        let StmtKind::Assign { rhs, .. } = &src.stmts[s].kind else {
            return false;
        };
        let Some(base) = self.base_sym(lhs) else {
            return false;
        };
        let mut ok = true;
        let mut stack = vec![*rhs];
        while let Some(x) = stack.pop() {
            if self.same_src(x, lhs) {
                continue;
            }
            if matches!(src.exprs[x], Expr::Name(v) if v == base) {
                ok = false;
            }
            radtap_il::visit::expr_children(&src.exprs[x], &mut |k| stack.push(k));
        }
        ok
    }

    fn base_sym(&self, e: ExprId) -> Option<SymbolId> {
        match &self.pg.f.src.exprs[e] {
            Expr::Name(v) => Some(*v),
            Expr::Index { base, .. } | Expr::Field { base, .. } => self.base_sym(*base),
            _ => None,
        }
    }

    /// Whether every reference in `e` to a variable of `written` is a whole-array name read
    /// element by element: under operators and elemental intrinsics only (not in a section,
    /// an element, a component, a reduction or a call of the program).
    fn elementwise_in(&self, e: ExprId, written: &HashSet<SymbolId>, elemental: bool) -> bool {
        let mut ok = true;
        match &self.pg.f.src.exprs[e] {
            Expr::Name(v) => return elemental || !written.contains(v),
            Expr::Unary { .. } | Expr::Binary { .. } | Expr::Paren(_) => {
                radtap_il::visit::expr_children(&self.pg.f.src.exprs[e], &mut |k| {
                    ok &= self.elementwise_in(k, written, elemental)
                });
            }
            Expr::Call { callee, args } => {
                let intrinsic_elemental = self
                    .pg
                    .src_routine(e, *callee)
                    .is_some_and(|r| r.routine().elemental());
                for a in args {
                    ok &= self.elementwise_in(a.value, written, elemental && intrinsic_elemental);
                }
            }
            other => {
                radtap_il::visit::expr_children(other, &mut |k| {
                    ok &= self.elementwise_in(k, written, false)
                });
            }
        }
        ok
    }

    /// The array a mask expression is shaped like: its first whole-array reference.
    fn mask_shape(&self, e: ExprId) -> Option<SymbolId> {
        let mut stack = vec![e];
        while let Some(x) = stack.pop() {
            match &self.pg.f.src.exprs[x] {
                Expr::Name(v) => {
                    let t = self.pg.prog().symbols[*v].ty.as_ref()?;
                    if !t.dims.is_empty() {
                        // Fixed extents, or (Fortran) deferred ones: the temporary is then
                        // allocatable, allocated by the mask's assignment (`mask_push_pop`).
                        let fixed = t.dims.iter().all(|d| matches!(d.upper, DimUpper::Expr(_)))
                            || (self.pg.f.lang == Lang::Fortran
                                && t.dims.iter().all(|d| d.upper == DimUpper::Deferred));
                        return fixed.then_some(*v);
                    }
                }
                Expr::Call { args, .. } => {
                    for a in args.iter().rev() {
                        stack.push(a.value);
                    }
                }
                Expr::Index { .. } => {}
                other => radtap_il::visit::expr_children(other, &mut |k| stack.push(k)),
            }
        }
        None
    }

    pub(crate) fn adj_where(
        &mut self,
        s: StmtId,
        arms: &'a [(ExprId, Block)],
        else_block: Option<&'a Block>,
    ) -> Rev {
        let src = self.pg.f.src;
        // The conditions under which every adjoint assignment may read the values from
        // before the construct.
        let mut written_before: HashSet<SymbolId> = HashSet::new();
        let all_arms: Vec<(Option<ExprId>, &'a Block)> = arms
            .iter()
            .map(|(m, b)| (Some(*m), b))
            .chain(else_block.map(|b| (None, b)))
            .collect();
        for (m, b) in &all_arms {
            if let Some(m) = m {
                let mut r = HashSet::new();
                self.names_in(*m, &mut r);
                // Read element by element, what an earlier arm wrote is seen only where that
                // arm's mask held, and there this mask does not apply (the pending mask):
                // evaluating it before the construct gives the same control mask.
                if r.iter().any(|v| written_before.contains(v))
                    && !self.elementwise_in(*m, &written_before, true)
                {
                    return self.unsupported(
                        s,
                        "an ELSEWHERE mask reading what an earlier arm wrote other than element by element",
                    );
                }
            }
            let mut in_arm: HashSet<SymbolId> = HashSet::new();
            for &x in b.iter() {
                let StmtKind::Assign { lhs, rhs, .. } = &src.stmts[x].kind else {
                    if matches!(src.stmts[x].kind, StmtKind::Comment(_)) {
                        continue;
                    }
                    return self.unsupported(x, "this statement inside WHERE");
                };
                let mut r = HashSet::new();
                self.names_in(*rhs, &mut r);
                let Some(t) = self.base_sym(*lhs) else {
                    return self.unsupported(x, "this assignment inside WHERE");
                };
                if r.iter().any(|v| in_arm.contains(v)) || in_arm.contains(&t) {
                    return self.unsupported(
                        x,
                        "a WHERE assignment reading or writing what an earlier one wrote",
                    );
                }
                in_arm.insert(t);
            }
            written_before.extend(in_arm);
        }
        // The arms' sweeps: records and restores outside, assignments inside.
        let mut records = Vec::new();
        let mut restores = Vec::new();
        let mut reductions: HashSet<StmtId> = HashSet::new();
        let mut fwd_arms = Vec::new();
        let mut bwd_arms = Vec::new();
        let errors = self.pg.g.diags.len();
        for (_, b) in &all_arms {
            let mut f_in = Vec::new();
            let mut b_parts = Vec::new();
            for &x in b.iter() {
                let r = self.rev_stmt(x);
                for f in r.fwd {
                    match self.pg.u.stmts[f].kind {
                        StmtKind::Assign { .. } => f_in.push(f),
                        _ => records.push(f),
                    }
                }
                let mut part = Vec::new();
                for bs in r.bwd {
                    match &self.pg.u.stmts[bs].kind {
                        StmtKind::Assign { lhs, rhs, .. } => {
                            // `sb = sb + sum(e)`, the adjoint of a scalar read by an array
                            // assignment: moved out of the WHERE with the mask given to each
                            // SUM, in a WHERE of one arm.
                            let (lhs, rhs) = (*lhs, *rhs);
                            let reduction = self.out_rank(lhs) == 0;
                            if (reduction
                                && !(arms.len() == 1
                                    && else_block.is_none()
                                    && self.maskable_sums(rhs)))
                                || (!reduction && self.calls_sum(rhs))
                            {
                                return self.unsupported(
                                    x,
                                    "an adjoint inside WHERE that reduces an array into a scalar",
                                );
                            }
                            if reduction {
                                reductions.insert(bs);
                            }
                            part.push(bs)
                        }
                        _ => restores.push(bs),
                    }
                }
                b_parts.push(part);
            }
            fwd_arms.push(f_in);
            bwd_arms.push(b_parts.into_iter().rev().flatten().collect::<Vec<_>>());
        }
        if self.pg.g.diags.len() > errors {
            return Rev::default();
        }
        let any_bwd = bwd_arms.iter().any(|b| !b.is_empty());
        let mut out = records;
        // The masks, when the backward sweep needs them, into recorded temporaries.
        let mut mask_syms = Vec::new();
        // The statements restoring the masks, at the front of `restores`.
        let mut n_masks = 0;
        if any_bwd {
            for (m, _) in arms {
                let Some(shape) = self.mask_shape(*m) else {
                    return self.unsupported(
                        s,
                        "a WHERE mask whose shape is not that of an array of fixed extents",
                    );
                };
                let t = self.pg.temp("ad_mask", TempKind::Mask { sym: shape });
                if self.deferred_mask(*m) {
                    // Allocated before the assignment: its reallocation check read the
                    // bounds of a never-allocated array (gfortran -Wall: "used
                    // uninitialized").
                    let g = self.mask_alloc_guard(t, *m);
                    out.push(g);
                }
                let (tl, mc) = (self.pg.b().name(t), self.pg.cp(*m));
                out.push(assign(&mut self.pg.u, tl, mc));
                mask_syms.push(t);
            }
            for (k, &t) in mask_syms.iter().enumerate() {
                let (a, b) = self.mask_push_pop(t);
                out.push(a);
                restores.insert(0, b);
                n_masks += 1;
                if self.deferred_mask(arms[k].0) {
                    // An allocatable temporary: a split backward sweep (another call of the
                    // procedure) pops into it before anything allocated it there.
                    let guard = self.mask_alloc_guard(t, arms[k].0);
                    restores.insert(0, guard);
                    n_masks += 1;
                }
            }
        }
        let build = |pg: &mut Self, mut blocks: Vec<Block>, recorded: bool| -> StmtId {
            let else_b = if else_block.is_some() {
                blocks.pop()
            } else {
                None
            };
            let arms2: Vec<(ExprId, Block)> = blocks
                .into_iter()
                .enumerate()
                .map(|(k, b)| {
                    let c = if recorded {
                        pg.pg.b().name(mask_syms[k])
                    } else {
                        pg.pg.cp(arms[k].0)
                    };
                    (c, b)
                })
                .collect();
            stmt(
                &mut pg.pg.u,
                StmtKind::Where {
                    arms: arms2,
                    else_block: else_b,
                    single: false,
                },
            )
        };
        if fwd_arms.iter().any(|b| !b.is_empty()) {
            let w = build(self, fwd_arms, any_bwd);
            out.push(w);
        }
        // Backwards: the masks (pushed last), the recorded values in reverse order, then the
        // adjoint WHERE.
        let mut bwd: Vec<StmtId> = restores[..n_masks].to_vec();
        bwd.extend(restores[n_masks..].iter().rev());
        if any_bwd && !reductions.is_empty() {
            // One arm: runs of array statements in `where (mask)`, the reductions between
            // them with `mask=` on their SUMs, in the order of the backward sweep.
            let arm = bwd_arms.pop().unwrap_or_default();
            let mut run = Vec::new();
            for bs in arm {
                if reductions.contains(&bs) {
                    if !run.is_empty() {
                        let w = build(self, vec![std::mem::take(&mut run)], true);
                        bwd.push(w);
                    }
                    self.mask_sums(bs, mask_syms[0]);
                    bwd.push(bs);
                } else {
                    run.push(bs);
                }
            }
            if !run.is_empty() {
                let w = build(self, vec![run], true);
                bwd.push(w);
            }
        } else if any_bwd {
            let w = build(self, bwd_arms, true);
            bwd.push(w);
        }
        Rev { fwd: out, bwd }
    }

    /// Whether the mask `m` takes its shape from an array of deferred shape (its recorded
    /// temporary is allocatable).
    fn deferred_mask(&self, m: ExprId) -> bool {
        self.mask_shape(m).is_some_and(|v| {
            self.pg.prog().symbols[v]
                .ty
                .as_ref()
                .is_some_and(|t| t.dims.iter().any(|d| d.upper == DimUpper::Deferred))
        })
    }

    /// `if (.not. allocated(t)) allocate(t, mold=m)` for the allocatable temporary `t` of
    /// mask `m`.
    fn mask_alloc_guard(&mut self, t: SymbolId, m: ExprId) -> StmtId {
        let (n1, n2) = (self.pg.b().name(t), self.pg.b().name(t));
        let allocated = self.pg.b().call("allocated", vec![n1]);
        let cond = self.pg.b().e(Expr::Unary {
            op: UnOp::Not,
            arg: allocated,
        });
        let like = self.pg.cp(m);
        let alloc = stmt(
            &mut self.pg.u,
            StmtKind::Memory {
                op: MemOp::Allocate,
                items: vec![n2],
                options: vec![Arg {
                    keyword: Some("mold".into()),
                    value: like,
                }],
            },
        );
        stmt(
            &mut self.pg.u,
            StmtKind::If {
                arms: vec![(cond, vec![alloc])],
                else_block: None,
                logical: true,
                braces: Vec::new(),
            },
        )
    }

    fn mask_push_pop(&mut self, t: SymbolId) -> (StmtId, StmtId) {
        let (a, b) = (self.pg.b().name(t), self.pg.b().name(t));
        let (n1, n2) = (self.pg.b().name(t), self.pg.b().name(t));
        let (s1, s2) = (
            self.pg.b().call("size", vec![n1]),
            self.pg.b().call("size", vec![n2]),
        );
        (
            self.rt("pushBooleanArray", vec![a, s1]),
            self.rt("popBooleanArray", vec![b, s2]),
        )
    }

    /// Whether the scalar `e` reads arrays only through one-argument SUMs (and no
    /// DOT_PRODUCT or PRODUCT), so that giving each SUM a mask restricts it to the elements
    /// a WHERE arm assigns.
    fn maskable_sums(&self, e: ExprId) -> bool {
        match &self.pg.u.exprs[e] {
            Expr::Call { callee, args } => {
                let id = self.pg.callee_routine(*callee);
                if id.is_some_and(|r| r.is_one_of(&["sum"])) {
                    return args.len() == 1 && args[0].keyword.is_none();
                }
                if self.out_rank(e) > 0
                    || id.is_some_and(|r| r.is_one_of(&["dot_product", "product"]))
                {
                    return false;
                }
                args.iter().all(|a| self.maskable_sums(a.value))
            }
            _ => {
                if self.out_rank(e) > 0 {
                    return false;
                }
                let mut ok = true;
                radtap_il::visit::expr_children(&self.pg.u.exprs[e], &mut |k| {
                    ok &= self.maskable_sums(k)
                });
                ok
            }
        }
    }

    /// Gives every SUM of the right-hand side of assignment `s` the argument `mask=m`.
    fn mask_sums(&mut self, s: StmtId, m: SymbolId) {
        let StmtKind::Assign { rhs, .. } = self.pg.u.stmts[s].kind else {
            return;
        };
        let mut stack = vec![rhs];
        let mut sums = Vec::new();
        while let Some(x) = stack.pop() {
            if let Expr::Call { callee, args } = &self.pg.u.exprs[x] {
                let is_sum = self
                    .pg
                    .callee_routine(*callee)
                    .is_some_and(|r| r.is_one_of(&["sum"]));
                if is_sum && args.len() == 1 {
                    sums.push(x);
                    continue;
                }
            }
            radtap_il::visit::expr_children(&self.pg.u.exprs[x], &mut |k| stack.push(k));
        }
        for x in sums {
            let value = self.pg.b().name(m);
            if let Expr::Call { args, .. } = &mut self.pg.u.exprs[x] {
                args.push(Arg {
                    keyword: Some("mask".into()),
                    value,
                });
            }
        }
    }

    fn calls_sum(&self, e: ExprId) -> bool {
        let mut stack = vec![e];
        while let Some(x) = stack.pop() {
            if let Expr::Call { callee, .. } = &self.pg.u.exprs[x] {
                if self
                    .pg
                    .callee_routine(*callee)
                    .is_some_and(|r| r.is_one_of(&["sum", "dot_product", "product"]))
                {
                    return true;
                }
            }
            radtap_il::visit::expr_children(&self.pg.u.exprs[x], &mut |k| stack.push(k));
        }
        false
    }
}
