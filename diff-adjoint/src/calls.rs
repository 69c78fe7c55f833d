//! Calls: checkpointed calls (snapshot, `g_b`) and split-mode calls, and the adjoint
//! arguments of a call.

use crate::*;

impl<'a> Adj<'_, '_, 'a> {
    /// A call: checkpointed (joint mode) when it carries derivatives, else primal with the
    /// values it overwrites recorded when the adjoint needs them.
    pub(crate) fn adj_call(&mut self, s: StmtId, callee: ExprId, args: &'a [Arg]) -> Rev {
        let site = self.pg.stmt_call_site(s);
        self.adj_call_at(s, callee, args, site)
    }

    /// `v = f(…)` where `f` writes through its arguments or globals and returns a value with
    /// no derivative (LAPACK's `info = chol(n, a)`): the call of a statement, with `v`
    /// assigned where the forward sweep runs it (a snapshot, then `f`; backwards the
    /// snapshot restored and `f_b`). As a reference inside a larger expression it would run
    /// again in the backward sweep with no snapshot: refused there (`adj_hoist`).
    pub(crate) fn adj_value_call(&mut self, s: StmtId, lhs: ExprId, rhs: ExprId) -> Option<Rev> {
        let src: &'a UnitData = self.pg.f.src;
        let mut v = rhs;
        while let Expr::Paren(a) = src.exprs[v] {
            v = a;
        }
        let Expr::Call { callee, args } = &src.exprs[v] else {
            return None;
        };
        let site = self.pg.expr_call_site(v)?;
        let c = match &site.callee {
            Callee::Defined(l) if l.len() == 1 && self.pg.g.active.contains(&l[0]) => l[0],
            _ => return None,
        };
        let r = self.pg.prog().units[c].result?;
        let result_real = self.pg.prog().symbols[r]
            .ty
            .as_ref()
            .is_none_or(|t| matches!(t.base, BaseClass::Real | BaseClass::Complex));
        if result_real || self.pg.dvar.contains_key(&r) || self.pg.dref(lhs, Dir::Nd).is_some() {
            return None;
        }
        self.pg.side_effect_of(c)?;
        // Split mode: `f_bwd` would run with what the target holds after the call (`k =
        // step(k, x)`): left to the refusal of a reference in an expression.
        if self.pg.g.split_call(c, &src.stmts[s].directives).is_some() {
            return None;
        }
        Some(self.adj_call_at(s, *callee, args, Some(site)))
    }

    fn adj_call_at(
        &mut self,
        s: StmtId,
        callee: ExprId,
        args: &'a [Arg],
        site: Option<&'a radtap_flowgraph::CallSite>,
    ) -> Rev {
        if let Some(r) = self.adj_deallocation(s) {
            return r;
        }
        if let Some(r) = self.adj_alloc_pair(s) {
            return r;
        }
        // Any other deallocation of a block with a shadow would free memory the backward
        // sweep still reads.
        if let (Some(_), [a, ..]) = (self.pg.deallocator_of(callee), args) {
            if self.pg.dptr(a.value).is_some() {
                return self.unsupported(
                    s,
                    "a call freeing memory with a derivative that is not a local pointer's allocated in this procedure, at its top level (the backward sweep still needs it)",
                );
            }
        }
        let Some(i) = self.pg.pid(s) else {
            return self.fwd_only(s);
        };
        self.pg.cur = self.pg.f.act.active_before[i].clone();
        self.pg.hoisted.clear();
        for a in args {
            if self.has_active_user_call(a.value) {
                return self
                    .unsupported(s, "a reference to a differentiated function in an argument");
            }
        }
        // A call setting the members of a record with a shadow (`resize(m, 1, 1)` on a
        // fresh matrix before anything active is in it) is always the split derivative:
        // the twin member follows the primal one (as in the tangent rules).
        let setter_call = matches!(site.map(|x| &x.callee),
            Some(Callee::Defined(l)) if l.len() == 1 && self.pg.g.split_setters.contains(&l[0]))
            && args.iter().any(|a| self.pg.has_shadow(a.value));
        let active_point = self.pg.f.act.has_derivative[i] || setter_call;
        let dirs = &self.pg.f.src.stmts[s].directives;
        let split = site.and_then(|x| match &x.callee {
            Callee::Defined(l) if l.len() == 1 && active_point => self.pg.g.split_call(l[0], dirs),
            _ => None,
        });
        let mut rec = self.to_record(i);
        self.drop_unset_locals(s, &mut rec);
        if let Some(v) = self.recomputed.get(&s) {
            rec.subtract(v);
        }
        let one_callee = match site.map(|x| &x.callee) {
            Some(Callee::Defined(l)) if l.len() == 1 => Some(l[0]),
            _ => None,
        };
        // `g_bwd` is given the by-value arguments again as the caller holds them then: one
        // the call itself changes (`sq(z, &z)`, `upd(x[0], x)`) would be the new value.
        if split.is_some() && self.pg.by_value_changed_by_call(s, args, false) {
            let msg = "in split mode (-nocheckpoint), passing by value what the call changes (`sq(z, &z)`) is not supported: the backward sweep would pass the new value; pass a copy (`t = z; sq(t, &z);`)";
            self.pg.error(s, Code::Unsupported, msg);
            return Rev::default();
        }
        // The subscripts of the actuals (`k` in `x(k)`) that a split call changes: the
        // backward call addresses its actuals with their values before the call, so they
        // are recorded last before it and restored first.
        let mut index_zones = self.pg.f.pi.zones.empty();
        if split.is_some() {
            // g_bwd restores what it reads itself: only the values the statements before
            // need are recorded, and not those g_bwd puts back anyway.
            rec.intersect_with(&self.pg.f.act.tbr_before[i].clone());
            if let Some(c) = one_callee {
                let back = self.restored_by_callee(i, c);
                rec.subtract(&back);
            }
            index_zones = self.actual_subscript_zones(args);
            index_zones.intersect_with(&self.pg.f.pi.effects[i].writes);
            rec.subtract(&index_zones);
        }
        // A checkpointed call re-run backwards reads on entry only what the call reads (the
        // callee's upward-exposed reads mapped through the call, and the actuals): the rest
        // of the snapshot is recorded first and not restored before the re-run
        // (`reread_needs`); the pop after the adjoint call restores it for what comes before.
        let rerun = split.is_none()
            && active_point
            && matches!(site.map(|x| &x.callee),
                Some(Callee::Defined(l)) if l.iter().any(|c| self.pg.g.active.contains(c)));
        // What the callee overwrites before reading it through one pointer argument
        // (`killed_on_entry`): not restored before the re-run, and not recorded at all when
        // nothing before the call needs its value either: an array of this procedure, or a
        // block it allocates and frees (no caller sees them), that is not to be recorded
        // before the call, or that no other statement's adjoint reads (then TBR holds it
        // only because of this call's own read on entry, which the callee's first loop
        // overwrites).
        let killed = match one_callee {
            Some(c) if rerun && self.pg.g.opts.snapshot_needs => {
                self.killed_on_entry(c, args, &rec)
            }
            _ => self.pg.f.pi.zones.empty(),
        };
        for (key, o) in self.pg.f.pi.zones.objects.iter() {
            let set = self.pg.f.pi.zones.obj_set(o);
            let private = match key {
                ObjKey::Sym(_) => true,
                ObjKey::Heap(..) => self.freed_locals.iter().any(|p| {
                    self.pg
                        .f
                        .pi
                        .zones
                        .pts
                        .get(p)
                        .is_some_and(|ks| ks[..] == [*key])
                }),
                ObjKey::Pointee(_) => false,
            };
            if !set.intersects(&killed) || !private {
                continue;
            }
            let uses = &self.pg.f.act.deriv_uses;
            // A split caller's backward sweep reads it too (TBR on entry).
            let elsewhere = (0..uses.len()).any(|j| j != i && uses[j].intersects(&set))
                || self.pg.f.act.tbr_in.intersects(&set);
            if !elsewhere || !set.intersects(&self.pg.f.act.tbr_before[i]) {
                rec.subtract(&set);
            }
        }
        let (mut unread, mut needed) = if rerun && self.pg.g.opts.snapshot_needs {
            self.reread_needs(i, &rec)
        } else {
            (self.pg.f.pi.zones.empty(), rec)
        };
        let moved = needed.and(&killed);
        needed.subtract(&moved);
        unread.union_with(&moved);
        // Element arguments recorded as elements, not whole arrays (`slices.rs`).
        let (mut uepush, mut uepop) = self.slice_element_args(i, one_callee, args, &mut unread);
        let (mut epush, mut epop) = self.slice_element_args(i, one_callee, args, &mut needed);
        // Module arrays the callee writes at one element (`slices.rs`).
        let (gpush, gpop) = self.slice_global_elements(i, one_callee, args, &mut unread);
        uepush.extend(gpush);
        uepop.splice(0..0, gpop);
        let (gpush, gpop) = self.slice_global_elements(i, one_callee, args, &mut needed);
        epush.extend(gpush);
        epop.splice(0..0, gpop);
        let (mut push, mut pop) = self.snapshot(s, &needed);
        let (upush, upop) = if unread.is_empty() {
            (Vec::new(), Vec::new())
        } else {
            self.snapshot(s, &unread)
        };
        push.splice(0..0, epush);
        push.splice(0..0, upush);
        push.splice(0..0, uepush);
        pop.extend(epop);
        let reread_len = pop.len();
        pop.extend(upop);
        pop.extend(uepop);
        let mut guards = Vec::new();
        let callee = match site.map(|x| &x.callee) {
            Some(Callee::Defined(list))
                if active_point && list.iter().any(|c| self.pg.g.active.contains(c)) =>
            {
                if list.len() != 1 {
                    let what = self.pg.several_procedures(callee);
                    return self.unsupported(s, &what);
                }
                if let Some(m) = self.pg.aliased_call(s, list[0], args) {
                    return self.unsupported(s, &m);
                }
                guards = self.alias_guards(s, list[0], args);
                Some(list[0])
            }
            Some(Callee::External(name)) if active_point => {
                let msg = radtap_diff_gen::no_body_message(self.pg.g.prog, name);
                self.pg.error(s, Code::NoDerivative, &msg);
                None
            }
            Some(Callee::Defined(list))
                if list.len() == 1
                    && radtap_diff_gen::mpi::completes_requests(self.pg.g.prog, list[0])
                    && self.pg.g.dproc.contains_key(&list[0]) =>
            {
                Some(list[0])
            }
            Some(Callee::Defined(list)) if list.len() == 1 => {
                // A passive point-to-point MPI message of real data (`radtap_diff_gen::mpi`).
                let (prog, src) = (self.pg.g.prog, self.pg.f.src);
                if let Some(msg) = radtap_diff_gen::mpi::passive_message(prog, src, list[0], args) {
                    self.pg.error(s, Code::Unsupported, &msg);
                }
                None
            }
            _ => None,
        };
        let mut r = Rev {
            fwd: push,
            bwd: Vec::new(),
        };
        r.fwd.extend(guards);
        let (ipush, ipop) = if index_zones.is_empty() {
            (Vec::new(), Vec::new())
        } else {
            self.snapshot(s, &index_zones)
        };
        r.fwd.extend(ipush);
        let primal = self.pg.copy_stmt(s);
        if let Some((f, _)) = split {
            let fname = self.pg.b().name(f);
            match &mut self.pg.u.stmts[primal].kind {
                StmtKind::Call { callee, .. } => *callee = fname,
                // `v = f(…)` (`adj_value_call`): `v = f_fwd(…)`.
                StmtKind::Assign { rhs, .. } => {
                    let mut v = *rhs;
                    while let Expr::Paren(a) = self.pg.u.exprs[v] {
                        v = a;
                    }
                    if let Expr::Call { callee, .. } = &mut self.pg.u.exprs[v] {
                        *callee = fname;
                    }
                }
                _ => {}
            }
        }
        let mut fwd_post = Vec::new();
        // A procedure setting record members with twins takes the derivative arguments
        // forwards too (`diff-tangent`'s `decls.rs`): the twins are set beside the primal
        // members. What `adjoint_args` would propagate after the call is the backward
        // sweep's.
        if let (Some((f, _)), Some(c)) = (split, callee) {
            if self.pg.g.split_setters.contains(&c) {
                let mut pre = Vec::new();
                let mut post = Vec::new();
                let new_args = self.adjoint_args(s, c, args, &mut pre, &mut post);
                r.fwd.extend(pre);
                fwd_post = post;
                let fname = self.pg.b().name(f);
                self.pg.u.stmts[primal].kind = StmtKind::Call {
                    callee: fname,
                    args: new_args,
                    no_parens: false,
                };
            }
        }
        r.fwd.push(primal);
        // The zero records' blocks built for `_fwd` (`adjoint_args`), freed after it.
        r.fwd.extend(fwd_post);
        let Some(c) = callee else {
            r.bwd = pop;
            return r;
        };
        if let Some((_, b)) = split {
            let mut pre = Vec::new();
            let mut post = Vec::new();
            let new_args = self.adjoint_args(s, c, args, &mut pre, &mut post);
            r.bwd.extend(ipop);
            r.bwd.extend(pre);
            let callee = self.pg.b().name(b);
            let call = stmt(
                &mut self.pg.u,
                StmtKind::Call {
                    callee,
                    args: new_args,
                    no_parens: false,
                },
            );
            r.bwd.push(call);
            r.bwd.extend(post);
            r.bwd.extend(pop);
            return r;
        }
        // Backward: restore the snapshot for the re-run, call g_b, restore it again.
        if reread_len > 0 {
            let reread = self.reread_snapshot(&pop[..reread_len]);
            r.bwd.extend(reread);
        }
        let mut pre = Vec::new();
        let mut post = Vec::new();
        let new_args = self.adjoint_args(s, c, args, &mut pre, &mut post);
        r.bwd.extend(pre);
        let callee = {
            let v = self.pg.g.dproc[&c];
            self.pg.b().name(v)
        };
        let st = &self.pg.f.src.stmts[s];
        let call = self.pg.new_like(
            st,
            StmtKind::Call {
                callee,
                args: new_args,
                no_parens: false,
            },
        );
        self.pg.u.stmts[call].label = None;
        r.bwd.push(call);
        r.bwd.extend(post);
        r.bwd.extend(pop);
        if radtap_diff_gen::mpi::recorded_forward(self.pg.g.prog, c) {
            self.forward_recording(s, c, args, primal, &mut r);
        }
        r
    }

    /// MPI's non-blocking routines and their completions (`radtap_diff_gen::mpi`): the
    /// forward sweep calls `NAME_fwd` with the arguments of `NAME_b` (the adjoint buffers
    /// among them), which records what the backward sweep reverses.
    fn forward_recording(
        &mut self,
        s: StmtId,
        c: UnitId,
        args: &'a [Arg],
        primal: StmtId,
        r: &mut Rev,
    ) {
        if self.pg.f.sweep != Sweep::Joint {
            // `_fwd` has no adjoint buffers to record, and its requests are not `_bwd`'s.
            self.pg.error(
                s,
                Code::Unsupported,
                "a non-blocking MPI call (or its wait) in a procedure differentiated in split mode (NOCHECKPOINT) is not supported: keep the calls to this procedure checkpointed",
            );
            return;
        }
        let mut pre = Vec::new();
        let mut post = Vec::new();
        let new_args = self.adjoint_args(s, c, args, &mut pre, &mut post);
        if !pre.is_empty() || !post.is_empty() {
            self.pg.error(
                s,
                Code::Unsupported,
                "an expression as an argument of a non-blocking MPI call in adjoint mode (its adjoint buffer must be a variable, element or section)",
            );
            return;
        }
        let name = format!(
            "{}_fwd",
            radtap_diff_gen::generator::unit_name(self.pg.g.prog, c)
        );
        let callee = self.pg.b().opaque(&name);
        let st = &self.pg.f.src.stmts[s];
        let call = self.pg.new_like(
            st,
            StmtKind::Call {
                callee,
                args: new_args,
                no_parens: false,
            },
        );
        for f in r.fwd.iter_mut() {
            if *f == primal {
                *f = call;
            }
        }
    }

    /// The zones of the variables the subscripts of the actual arguments read (`k` in
    /// `x(k)`, `a(i, j + 1)`).
    fn actual_subscript_zones(&self, args: &[Arg]) -> ZoneSet {
        let src = self.pg.f.src;
        let mut out = self.pg.f.pi.zones.empty();
        for a in args {
            let mut at = a.value;
            let mut subs: Vec<ExprId> = Vec::new();
            loop {
                match &src.exprs[at] {
                    Expr::Index { base, subs: ss } => {
                        for x in ss {
                            radtap_il::visit::subscript_children(x, &mut |e| subs.push(e));
                        }
                        at = *base;
                    }
                    Expr::Field { base, .. } | Expr::Paren(base) => at = *base,
                    _ => break,
                }
            }
            while let Some(e) = subs.pop() {
                if let Expr::Name(v) = &src.exprs[e] {
                    if let Some(z) = self.pg.f.pi.zones.sym_zones(*v) {
                        out.union_with(&z);
                    }
                }
                radtap_il::visit::expr_children(&src.exprs[e], &mut |c| subs.push(c));
            }
        }
        out
    }

    /// The caller's zones a split call `c` at point `i` writes that `c_bwd` restores itself
    /// to their values before the call: when every write of `c` outside its own locals and
    /// blocks is a plain assignment, those of its zones that every assignment writing them
    /// records first (its `to_record` holds it; `-nooptim tbr` records every write), mapped
    /// through the call.
    /// The caller then need not record them for the statements before (LSTM's
    /// `lstm_model_fwd` pushes each `hc[i]` it overwrites; the caller pushed the whole slice
    /// `&s[j*2*b]` again; SICOPOLIS's `calc_temp1_fwd(…, i, j)` records the column of
    /// `temp_c_new` it rewrites, where the caller pushed the whole 3-D array per column). What
    /// the caller's backward sweep reads is in the callee's TBR on entry
    /// (`radtap_dataflow::split_contexts`). Procedures with no directive only (regions and
    /// special loops record otherwise), in the caller's language.
    fn restored_by_callee(&self, i: usize, c: UnitId) -> ZoneSet {
        let mut out = self.pg.f.pi.zones.empty();
        let prog = self.pg.prog();
        let cu = &prog.units[c];
        let Some(cpi) = self.pg.g.info.procs.get(&c) else {
            return out;
        };
        let Some(cact) = &cpi.activity else {
            return out;
        };
        if cu.lang != self.pg.f.lang || cu.stmts.iter().any(|(_, st)| !st.directives.is_empty()) {
            return out;
        }
        // The callee's own zones (its locals, and blocks it allocates that only its locals
        // point to) are not the caller's business; every other zone it writes must be
        // written by plain assignments only, each recording it first, or nothing is
        // counted restored (a write by a call or a loop header, or one not recorded, may
        // reach any of the caller's zones through an alias).
        let local = |x: SymbolId| {
            !cu.params.contains(&x)
                && radtap_dataflow::zones::unit_of_scope(prog, prog.symbols[x].scope) == Some(c)
        };
        let mut own = cpi.zones.empty();
        for (k, o) in &cpi.zones.objects {
            let mine = match k {
                ObjKey::Sym(x) => local(*x),
                ObjKey::Heap(u, _) => {
                    *u == c
                        && !cpi
                            .zones
                            .pts
                            .iter()
                            .any(|(n, ks)| ks.contains(k) && !local(*n))
                }
                ObjKey::Pointee(_) => false,
            };
            if mine {
                own.union_with(&cpi.zones.obj_set(o));
            }
        }
        let mut written = cpi.zones.empty();
        let mut unrecorded = cpi.zones.empty();
        for (p, e) in cpi.effects.iter().enumerate() {
            let mut ext = e.writes.clone();
            ext.subtract(&own);
            if ext.is_empty() {
                continue;
            }
            let pt = cpi.point[p];
            // A Fortran call statement records what it overwrites like an assignment: the
            // snapshot of a checkpointed call, or what a split callee does not restore.
            let plain = pt.part == Part::Whole
                && match cu.stmts[pt.stmt].kind {
                    StmtKind::Assign { .. } => !e.calls,
                    StmtKind::Call { .. } => cu.lang == Lang::Fortran,
                    _ => false,
                };
            if !plain {
                return out;
            }
            if self.pg.g.opts.tbr {
                let mut rec = cact.tbr_before[p].clone();
                rec.union_with(&cact.deriv_uses[p]);
                let mut miss = ext.clone();
                miss.subtract(&rec);
                unrecorded.union_with(&miss);
            }
            written.union_with(&ext);
        }
        // A plain assignment writes the zones its target names, no others: a zone some
        // assignment overwrites without recording it (`errormsg = '…'` before an error
        // call) is not restored, the others still are.
        written.subtract(&unrecorded);
        for m in &self.pg.f.pi.effects[i].call_maps {
            if m.callee != c || m.in_expr {
                continue;
            }
            for z in written.iter() {
                if let Some(Some(t)) = m.tgt.get(z.index()) {
                    for &y in t {
                        out.insert(y);
                    }
                }
            }
        }
        out
    }

    /// The argument list of a call to `c`'s adjoint: each actual followed by its adjoint
    /// when the formal has one. An active expression actual gets a temporary adjoint that is
    /// propagated into its references after the call (`post`); an inactive one a zero
    /// temporary.
    pub(crate) fn adjoint_args(
        &mut self,
        s: StmtId,
        c: UnitId,
        args: &'a [Arg],
        pre: &mut Vec<StmtId>,
        post: &mut Vec<StmtId>,
    ) -> Vec<Arg> {
        let cu = &self.pg.prog().units[c];
        let flags = self.pg.g.dparams[&c].clone();
        let mut out = Vec::new();
        for (k, a) in args.iter().enumerate() {
            let fi = match &a.keyword {
                Some(kw) => cu
                    .params
                    .iter()
                    .position(|&p| self.pg.prog().symbols[p].spelling.eq_ignore_ascii_case(kw))
                    .unwrap_or(k),
                None => k,
            };
            let v = self.pg.cp(a.value);
            out.push(Arg {
                keyword: a.keyword.clone(),
                value: v,
            });
            if !flags.get(fi).copied().unwrap_or(false) {
                continue;
            }
            let formal = cu.params[fi];
            let formal_ty = self.pg.prog().symbols[formal].ty.clone();
            let formal_array = formal_ty.as_ref().is_some_and(|t| !t.dims.is_empty());
            let c_by_value = self.pg.f.lang == Lang::C
                && formal_ty
                    .as_ref()
                    .is_some_and(|t| t.pointers == 0 && t.dims.is_empty());
            let kw = a.keyword.as_ref().map(|k| {
                self.pg
                    .g
                    .dummy_name(&pattern(&self.pg.g.opts.var_pattern, k))
            });
            let d = if self.pg.f.lang == Lang::C && !c_by_value {
                // An address: the adjoint address, or a zero temporary like the variable.
                match self.pg.dptr(a.value) {
                    Some(d) => d,
                    None => {
                        let base = radtap_dataflow::zones::base_symbol(
                            self.pg.prog(),
                            self.pg.f.p,
                            a.value,
                        );
                        let Some(like) = base else {
                            self.pg.error(s, Code::Unsupported, "this pointer argument designates no variable but the callee's adjoint needs one; pass a variable");
                            continue;
                        };
                        // A record whose members point to blocks: a zero record with
                        // blocks of zeros as large as the callee reads, which its adjoint
                        // accumulates into and which are freed after the call.
                        if let Some(z) =
                            self.pg
                                .zero_record_shadow(a.value, like, (c, fi, args), pre)
                        {
                            post.append(&mut self.pg.post_call);
                            out.push(Arg {
                                keyword: kw,
                                value: z,
                            });
                            continue;
                        }
                        if self.pg.refuse_passive_pointer_actual(s, like) {
                            continue;
                        }
                        let t = self.pg.temp(
                            "dummyzerob",
                            TempKind::Like {
                                sym: like,
                                deriv: true,
                            },
                        );
                        let tn = self.pg.b().name(t);
                        let scalar = self.pg.prog().symbols[like]
                            .ty
                            .as_ref()
                            .is_some_and(|t| t.dims.is_empty() && t.pointers == 0);
                        if scalar {
                            self.addr_of(tn)
                        } else {
                            tn
                        }
                    }
                }
            } else {
                let is_ref = self
                    .pg
                    .g
                    .info
                    .ref_zones(self.pg.prog(), self.pg.f.p, a.value)
                    .is_some();
                let has = self.pg.has_dvar_ref(a.value);
                // A C real parameter of another precision than the actual (`float t` given
                // a double): its adjoint goes through a temporary of the parameter's type
                // (`&xb[0]`, a `double *`, was written through as a `float *`).
                let formal_bytes = formal_ty
                    .as_ref()
                    .filter(|t| c_by_value && t.base == BaseClass::Real)
                    .and_then(|t| t.bytes);
                let other_kind = formal_bytes.is_some_and(|fb| fb != self.pg.real_kind(a.value));
                let dr = if is_ref && has && !other_kind {
                    self.pg.dref(a.value, Dir::Nd)
                } else {
                    None
                };
                match dr {
                    Some(d) => d,
                    None => {
                        let kd = formal_bytes.unwrap_or_else(|| self.pg.real_kind(a.value));
                        let of = if formal_array {
                            TanOf::Passive(a.value)
                        } else {
                            TanOf::Expr(a.value)
                        };
                        let Tangent {
                            deriv: tan,
                            refs: marks,
                            ..
                        } = self.pg.tangent(of, Sharing::Untouched, &Reuse::default());
                        let base = radtap_dataflow::zones::base_symbol(
                            self.pg.prog(),
                            self.pg.f.p,
                            a.value,
                        );
                        let kind = match base {
                            Some(b) if formal_array && is_ref => TempKind::Like {
                                sym: b,
                                deriv: true,
                            },
                            _ if other_kind => TempKind::Real {
                                bytes: kd,
                                deriv: true,
                            },
                            _ => self.pg.deriv_temp_kind(a.value, kd),
                        };
                        if formal_array
                            && !matches!(self.pg.f.src.exprs[a.value], Expr::Name(_))
                            && !(is_ref && self.pg.zeroed_like_base(a.value, base))
                        {
                            let msg = if matches!(
                                self.pg.f.src.exprs[a.value],
                                Expr::Index { .. } | Expr::Field { .. }
                            ) {
                                "an inactive array element or section passed to an array dummy that has an adjoint is not supported yet; pass a whole array"
                            } else {
                                "an array expression passed to an array dummy that has an adjoint is not supported yet; assign it to an array variable and pass that"
                            };
                            self.pg.error(s, Code::Unsupported, msg);
                        }
                        let like = match kind {
                            TempKind::Like { sym, .. } => Some(sym),
                            _ => None,
                        };
                        let t = self
                            .pg
                            .temp(if tan.is_some() { "argb" } else { "dummyzerob" }, kind);
                        if let Some(sym) = like {
                            let alloc = self.pg.alloc_like(t, sym);
                            pre.extend(alloc);
                        }
                        let tl = self.pg.b().name(t);
                        let z = self.pg.b().zero(kd);
                        pre.push(assign(&mut self.pg.u, tl, z));
                        if let Some(tn) = tan {
                            let seed = self.pg.b().name(t);
                            if let Some((incs, _)) =
                                self.scatter(s, tn, seed, 0, &marks, &HashSet::new())
                            {
                                post.extend(incs);
                            }
                        }
                        self.pg.b().name(t)
                    }
                }
            };
            let d = if c_by_value { self.addr_of(d) } else { d };
            out.push(Arg {
                keyword: kw,
                value: d,
            });
        }
        self.pg.mpi_error_arg(c, args, &mut out);
        out
    }

    /// Run-time checks that two arguments the callee's adjoint would update through each
    /// other are different records (`radtap_diff_gen`'s `record_alias_guard`):
    /// `if (parents[i] == i) adStack_fatal("…");` before the call.
    fn alias_guards(&mut self, s: StmtId, c: UnitId, args: &'a [Arg]) -> Vec<StmtId> {
        let name = unit_name(self.pg.prog(), c).to_string();
        let line = self.pg.span(s).line;
        let here = unit_name(self.pg.prog(), self.pg.f.p).to_string();
        let mut out = Vec::new();
        for (k, l, ek, el) in self.pg.alias_guards(s, c, args) {
            let (a, b) = (self.pg.cp(ek), self.pg.cp(el));
            let (a, b) = (self.pg.paren_if_compound(a), self.pg.paren_if_compound(b));
            let cond = self.pg.b().bin(BinOp::Eq(RelSpell::Symbol), a, b);
            let msg = format!(
                "\"line {line} of {here}: arguments {} and {} of {name} are one record; its adjoint needs them apart\"",
                k + 1,
                l + 1
            );
            let msg = self.pg.b().opaque(&msg);
            let call = self.rt("adStack_fatal", vec![msg]);
            out.push(stmt(
                &mut self.pg.u,
                StmtKind::If {
                    arms: vec![(cond, vec![call])],
                    else_block: None,
                    logical: false,
                    braces: vec![true],
                },
            ));
        }
        out
    }

    // ------------------------------------------------------------------ prologue, epilogue
}
