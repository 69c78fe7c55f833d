//! `$AD BINOMIAL-CKP nsteps snaps first` before a time loop (paper §4.8, Griewank & Walther's
//! revolve): the loop is checkpointed like a region (snapshot `S` of what it reads or writes
//! that the procedure may overwrite, primal run in the forward sweep), and its backward sweep
//! is driven by the runtime's `adBinomial_*` schedule:
//!
//! ```text
//! restore S (kept)                          ! the state in front of the loop
//! nst = nsteps; if (trips > nst) nst = trips
//! adBinomial_init(nst, snaps, first)
//! while (adBinomial_step(more, action, step); more)
//!   PUSH: push the step state   LOOK: restore it (kept)   POP: restore it
//!   ADVANCE: i = step-1 (as a loop index); past the end: adBinomial_resize(), else the
//!            primal body
//!   TURN:    i = step; unless past the end: the body's taped forward sweep, then its
//!            backward sweep
//! pop S
//! ```
//!
//! The step state is what the body writes (its own temporaries too), less the counter, which
//! each action sets. At most `snaps` step states and one step's tape are on the stack at a
//! time, whatever the trip count. A trip count below `nsteps` ends the first forward sweep
//! early through `adBinomial_resize`; one above it raises the schedule's length to the trip
//! count (never a step left unreversed).
//!
//! A DO WHILE / C `while` or `do … while` loop (a condition without calls of the program's procedures or
//! assignments) has no counter to set: the forward sweep counts its trips (pushed), the
//! backward sweep pops the count, and an action's step is past the end when its 0-based
//! index reaches it; a step counter the body advances is part of the step state.

use crate::*;

/// A loop the schedule can drive: counter, first value, last value (inclusive, as an
/// expression of the primal unit, or `bound - 1` for C's `<`), body. For a DO WHILE / C
/// `while` loop there is no counter (`var` is `None`, `start` and `end` are its condition and
/// unused): the forward sweep counts the trips into `trips`, and the schedule's steps are
/// numbered from 0 against it.
struct TimeLoop<'a> {
    var: Option<SymbolId>,
    start: ExprId,
    end: ExprId,
    /// A while loop: the trip count recorded by the forward sweep.
    trips: Option<SymbolId>,
    /// C `i < bound`: the last value is `bound - 1`.
    exclusive: bool,
    /// A C `do … while` loop (its body runs before the first test).
    do_while: bool,
    body: &'a [StmtId],
}

impl<'a> Adj<'_, '_, 'a> {
    /// Both sweeps of the loop `s` under `$AD BINOMIAL-CKP`, or `None` (with an AD050 saying
    /// why) when the directive cannot drive it and the loop is reversed as usual.
    pub(crate) fn try_binomial(&mut self, s: StmtId) -> Option<Rev> {
        let st: &'a Stmt = &self.pg.f.src.stmts[s];
        let (d, args) = st.directives.iter().find_map(|d| match &d.kind {
            DirectiveKind::BinomialCkp(a) => Some((d, a)),
            _ => None,
        })?;
        let fallback = |me: &mut Self, why: &str| {
            let msg = format!("`$AD BINOMIAL-CKP` {why}: the loop is taped whole (store-all)");
            me.pg.warn(s, Code::Directive, &msg);
        };
        let tl = match &st.kind {
            StmtKind::Do {
                var,
                start,
                end,
                step,
                body,
                ..
            } => {
                let one = step.is_none_or(|e| self.pg.const_value(e) == Some(1.0));
                match self.pg.f.src.exprs[*var] {
                    Expr::Name(v) if one => TimeLoop {
                        var: Some(v),
                        trips: None,
                        start: *start,
                        end: *end,
                        exclusive: false,
                        do_while: false,
                        body,
                    },
                    _ => {
                        fallback(self, "needs a DO loop with step 1");
                        return None;
                    }
                }
            }
            StmtKind::CFor {
                init,
                cond,
                step,
                body,
                ..
            } => {
                let decl_init =
                    init.is_some_and(|i| matches!(self.pg.f.src.stmts[i].kind, StmtKind::Decl(_)));
                match self.canonical_for(*init, *cond, *step, body) {
                    Some(c) if c.up && !decl_init => TimeLoop {
                        var: Some(c.var),
                        trips: None,
                        start: c.from,
                        end: c.bound,
                        exclusive: !c.inclusive,
                        do_while: false,
                        body,
                    },
                    _ => {
                        fallback(self, "needs a `for (i = a; i < b; i++)` loop whose counter is declared before it");
                        return None;
                    }
                }
            }
            StmtKind::While { cond, body, .. } | StmtKind::DoWhile { cond, body } => {
                // The backward sweep never evaluates the condition: it must have no effect.
                if let Some(why) = self.effect_in(*cond) {
                    fallback(self, &format!("needs a loop condition without {why}"));
                    return None;
                }
                TimeLoop {
                    var: None,
                    start: *cond,
                    end: *cond,
                    // Made below, once the loop is known to be driven.
                    trips: None,
                    exclusive: false,
                    do_while: matches!(st.kind, StmtKind::DoWhile { .. }),
                    body,
                }
            }
            _ => return None,
        };
        if self.pg.f.sweep != Sweep::Joint {
            fallback(
                self,
                "in a procedure differentiated in split mode (NOCHECKPOINT)",
            );
            return None;
        }
        // The schedule's length comes from the bounds at the loop's entry and each action
        // tests them again: the body must not change them.
        let mut control = self.pg.f.pi.zones.empty();
        let mut body_writes = self.pg.f.pi.zones.empty();
        let mut inside = HashSet::new();
        subtree(self.pg.f.src, tl.body, &mut |x| {
            inside.insert(x);
        });
        for (i, p) in self.pg.f.pi.point.iter().enumerate() {
            if p.stmt == s {
                control.union_with(&self.pg.f.pi.effects[i].reads);
            } else if inside.contains(&p.stmt) {
                body_writes.union_with(&self.pg.f.pi.effects[i].writes);
            }
        }
        if let Some(vz) = tl.var.and_then(|v| self.pg.f.pi.zones.sym_zones(v)) {
            control.subtract(&vz);
        }
        if tl.var.is_some() && control.intersects(&body_writes) {
            fallback(self, "needs loop bounds that the loop body does not change");
            return None;
        }
        let words = match args {
            Ok(a) => [a.nsteps.as_str(), a.snaps.as_str(), a.first.as_str()],
            Err(m) => {
                fallback(self, m);
                return None;
            }
        };
        let mut parsed = Vec::new();
        for w in &words {
            match self.size_expr(w) {
                Ok(e) => parsed.push(e),
                Err(m) => {
                    fallback(self, &format!("argument `{w}`: {m}"));
                    return None;
                }
            }
        }
        let (nsteps, snaps, first) = (parsed[0], parsed[1], words[2].to_string());
        if let Some((x, what)) = self.pg.region_refusal(std::slice::from_ref(&s), &d.kind) {
            return Some(self.unsupported(x, &what));
        }
        let mut tl = tl;
        if tl.var.is_none() {
            tl.trips = Some(self.int_temp("ad_trips"));
        }
        Some(self.binomial_loop(s, &tl, nsteps, snaps, first))
    }

    fn binomial_loop(
        &mut self,
        s: StmtId,
        tl: &TimeLoop<'a>,
        nsteps: ExprId,
        snaps: ExprId,
        first_text: String,
    ) -> Rev {
        self.pg.g.needs_binomial = true;
        self.stepping_rerun = true;
        let (push_s, pop_s) = self.region_snapshot(std::slice::from_ref(&s));
        // The step state: what the body writes, less the counter.
        let mut zk = self.pg.f.pi.zones.empty();
        let mut inside = HashSet::new();
        subtree(self.pg.f.src, tl.body, &mut |x| {
            inside.insert(x);
        });
        for (i, p) in self.pg.f.pi.point.iter().enumerate() {
            if inside.contains(&p.stmt) {
                zk.union_with(&self.pg.f.pi.effects[i].writes);
            }
        }
        if let Some(vz) = tl.var.and_then(|v| self.pg.f.pi.zones.sym_zones(v)) {
            zk.subtract(&vz);
        }
        let (push_k, pop_k) = self.snapshot(s, &zk);
        self.stepping_rerun = false;
        let look_k = self.restore_for_rerun(&pop_k);
        let inner = self.rev_block(tl.body);
        let mut fwd = push_s;
        let mut bwd = Vec::new();
        match tl.trips {
            None => fwd.push(self.pg.copy_stmt(s)),
            // trips = 0; do while (cond): body; trips = trips + 1; end do; push trips
            Some(t) => {
                let (l, z) = (self.pg.b().name(t), self.pg.b().int(0));
                fwd.push(assign(&mut self.pg.u, l, z));
                let mut body = Vec::new();
                for &b in tl.body {
                    body.push(self.pg.copy_stmt(b));
                }
                let (l, r, one) = (self.pg.b().name(t), self.pg.b().name(t), self.pg.b().int(1));
                let inc = self.pg.b().bin(BinOp::Add, r, one);
                body.push(assign(&mut self.pg.u, l, inc));
                let cond = self.pg.cp(tl.start);
                let st = &self.pg.f.src.stmts[s];
                let kind = if tl.do_while {
                    StmtKind::DoWhile { body, cond }
                } else {
                    StmtKind::While {
                        cond,
                        body,
                        term_label: None,
                    }
                };
                fwd.push(self.pg.new_like(st, kind));
                let tv = self.pg.b().name(t);
                fwd.push(self.int_push(tv));
                bwd.push(self.int_pop(t));
            }
        }

        let int_tmp = |me: &mut Self, n: &str| me.pg.temp(n, TempKind::Int);
        let (nst, action, stp, more) = (
            int_tmp(self, "ad_nsteps"),
            int_tmp(self, "ad_action"),
            int_tmp(self, "ad_step"),
            int_tmp(self, "ad_more"),
        );
        bwd.extend(self.restore_for_rerun(&pop_s));
        // nst = nsteps; trips = last - start + 1; if (trips > nst) nst = trips
        let l = self.pg.b().name(nst);
        bwd.push(assign(&mut self.pg.u, l, nsteps));
        let trips = self.trip_count(tl);
        let n1 = self.pg.b().name(nst);
        let more_trips = self.pg.b().bin(BinOp::Gt(RelSpell::Symbol), trips, n1);
        let trips2 = self.trip_count(tl);
        let l = self.pg.b().name(nst);
        let raise = assign(&mut self.pg.u, l, trips2);
        bwd.push(self.if_stmt(vec![(more_trips, vec![raise])], None));
        let n2 = self.pg.b().name(nst);
        let first = self
            .size_expr(&first_text)
            .unwrap_or_else(|_| self.pg.b().int(1));
        bwd.push(self.rt("adBinomial_init", vec![n2, snaps, first]));
        let next = self.binomial_next(more, action, stp);
        bwd.push(next);
        // The actions.
        let advance = {
            // i = start + (step - 1 - first)
            let mut out = Vec::new();
            out.extend(self.set_counter(tl, stp, &first_text, 1));
            let beyond = self.beyond(tl, stp, &first_text, 1);
            let resize = self.rt("adBinomial_resize", Vec::new());
            let mut primal = Vec::new();
            for &b in tl.body {
                primal.push(self.pg.copy_stmt(b));
            }
            out.push(self.if_stmt(vec![(beyond, vec![resize])], Some(primal)));
            out
        };
        let turn = {
            let mut out = Vec::new();
            out.extend(self.set_counter(tl, stp, &first_text, 0));
            let beyond = self.beyond(tl, stp, &first_text, 0);
            let not_beyond = self.pg.b().e(Expr::Unary {
                op: UnOp::Not,
                arg: beyond,
            });
            let mut sweeps = inner.fwd;
            sweeps.extend(inner.bwd);
            out.push(self.if_stmt(vec![(not_beyond, sweeps)], None));
            out
        };
        let is = |me: &mut Self, k: i64| {
            let a = me.pg.b().name(action);
            let c = me.pg.b().int(k);
            me.pg.b().bin(BinOp::Eq(RelSpell::Symbol), a, c)
        };
        let (c1, c2, c3, c4) = (is(self, 1), is(self, 2), is(self, 3), is(self, 4));
        let dispatch = self.if_stmt(
            vec![(c1, push_k), (c2, look_k), (c3, pop_k), (c4, advance)],
            Some(turn),
        );
        let next = self.binomial_next(more, action, stp);
        let m = self.pg.b().name(more);
        let z = self.pg.b().int(0);
        let cond = self.pg.b().bin(BinOp::Ne(RelSpell::Symbol), m, z);
        bwd.push(stmt(
            &mut self.pg.u,
            StmtKind::While {
                cond,
                body: vec![dispatch, next],
                term_label: None,
            },
        ));
        bwd.extend(pop_s);
        Rev { fwd, bwd }
    }

    /// `adBinomial_step(more, action, step)` (by address in C).
    fn binomial_next(&mut self, more: SymbolId, action: SymbolId, stp: SymbolId) -> StmtId {
        let mut args = Vec::new();
        for v in [more, action, stp] {
            let n = self.pg.b().name(v);
            args.push(if self.pg.f.lang == Lang::C {
                self.addr_of(n)
            } else {
                n
            });
        }
        self.rt("adBinomial_step", args)
    }

    /// `step - back - first`: the 0-based index of the step an action runs.
    fn step_offset(&mut self, stp: SymbolId, first: &str, back: i64) -> ExprId {
        let st = self.pg.b().name(stp);
        let f = self.size_expr(first).unwrap_or_else(|_| self.pg.b().int(1));
        let mut off = self.pg.b().bin(BinOp::Sub, st, f);
        if back != 0 {
            let b = self.pg.b().int(back);
            off = self.pg.b().bin(BinOp::Sub, off, b);
        }
        self.pg.b().e(Expr::Paren(off))
    }

    /// `i = start + (step - back - first)` (nothing for a while loop: its counter, if any,
    /// is part of the step state).
    fn set_counter(
        &mut self,
        tl: &TimeLoop<'a>,
        stp: SymbolId,
        first: &str,
        back: i64,
    ) -> Option<StmtId> {
        let var = tl.var?;
        let off = self.step_offset(stp, first, back);
        let a = self.pg.cp(tl.start);
        let v = self.pg.b().bin(BinOp::Add, a, off);
        let l = self.pg.b().name(var);
        Some(assign(&mut self.pg.u, l, v))
    }

    /// The number of steps the loop `tl` runs: its counted trips (`while` loops), else
    /// `end - start` (+ 1 when `end` is inclusive).
    fn trip_count(&mut self, tl: &TimeLoop<'a>) -> ExprId {
        if let Some(t) = tl.trips {
            self.pg.b().name(t)
        } else {
            let e = self.pg.cp(tl.end);
            let a = self.pg.cp(tl.start);
            let d = self.pg.b().bin(BinOp::Sub, e, a);
            if tl.exclusive {
                d
            } else {
                let one = self.pg.b().int(1);
                self.pg.b().bin(BinOp::Add, d, one)
            }
        }
    }

    /// The step an action runs is past the loop's last one: the counter past the last value,
    /// or (while loop) the step index at the recorded trip count.
    fn beyond(&mut self, tl: &TimeLoop<'a>, stp: SymbolId, first: &str, back: i64) -> ExprId {
        let Some(var) = tl.var else {
            let off = self.step_offset(stp, first, back);
            let t = self.trip_count(tl);
            let b = self.pg.b().bin(BinOp::Ge(RelSpell::Symbol), off, t);
            return self.pg.b().e(Expr::Paren(b));
        };
        let i = self.pg.b().name(var);
        let e = self.pg.cp(tl.end);
        let op = if tl.exclusive {
            BinOp::Ge(RelSpell::Symbol)
        } else {
            BinOp::Gt(RelSpell::Symbol)
        };
        let b = self.pg.b().bin(op, i, e);
        self.pg.b().e(Expr::Paren(b))
    }

    /// What in the condition `e` would have an effect the backward sweep cannot replay (it
    /// never evaluates it): a call of a procedure of the program, an assignment, `++`/`--`.
    pub(crate) fn effect_in(&self, e: ExprId) -> Option<&'static str> {
        let prog = self.pg.prog();
        let src = self.pg.f.src;
        let mut stack = vec![e];
        while let Some(x) = stack.pop() {
            match &src.exprs[x] {
                Expr::Assign { .. } | Expr::IncDec { .. } => return Some("an assignment"),
                Expr::Call { callee, .. } => {
                    let user = match &src.exprs[*callee] {
                        Expr::Name(f) => prog.units.iter().any(|(_, u)| {
                            u.name.is_some_and(|n| {
                                prog.symbols[n]
                                    .spelling
                                    .eq_ignore_ascii_case(&prog.symbols[*f].spelling)
                            })
                        }),
                        _ => true,
                    };
                    if user {
                        return Some("a call of a procedure of the program");
                    }
                }
                _ => {}
            }
            radtap_il::visit::expr_children(&src.exprs[x], &mut |k| stack.push(k));
        }
        None
    }
}
