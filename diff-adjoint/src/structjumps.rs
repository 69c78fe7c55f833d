//! Loops with EXIT/CYCLE or C `break`/`continue` reversed structurally (issue 21, item 8),
//! as Tapenade does, instead of lowering the whole loop to basic blocks (`jumps.rs`).
//!
//! The forward sweep runs the loop as written. In a block of its body, a statement `J` from
//! which a jump may leave the block (an IF holding an EXIT, or the EXIT itself) guards the
//! rest of the block `R`: that is the normalisation `J; R` = `IF (jumped) … ELSE R`. When
//! `R` has a backward sweep, one control bit says whether it ran: `1` is pushed just before
//! each jump out of `J`, `0` just before each jump out of `R` and at the end of `R`; the
//! backward sweep pops it and runs `R`'s adjoint only under `0`, then `J`'s. IF and SELECT
//! arms push their own control code before a jump out of the arm as well as at the arm's
//! end. So every construct the jump leaves pushes what its backward sweep pops, innermost
//! first.
//!
//! The backward loop runs over the iterations the forward loop started: with CYCLE alone a
//! counted loop runs all of them (its usual reversal); a loop left by EXIT/`break` counts
//! the iterations it starts (`ad_count`, incremented first in the body, pushed after the
//! loop) and runs its variable back from `from + ad_count − 1` (`DO i = ad_count, 1, -1`);
//! a DO WHILE, `while` or DO without loop control (which only EXIT ends) counts its
//! iterations first in the body, since CYCLE skips the end. The iteration that left by EXIT has its guard bits set, so the rest of its body
//! is skipped backwards.
//!
//! What this form cannot take keeps the flow-graph lowering: GOTOs, a jump out of several
//! loops, `switch`, loops with `$AD` directives inside, a C `for` whose step is not a simple
//! increment, a DO with a step that is not constant. `-nooptim structuredjumps` lowers every
//! loop with jumps, as before.

use crate::*;

/// The GOTOs of `src` that act as a CYCLE of their innermost loop (to a CONTINUE of the run
/// of CONTINUEs that ends its body) or an EXIT (to the statement just after it, in the same block).
pub(crate) fn loop_gotos(src: &UnitData) -> HashMap<StmtId, LoopGoto> {
    fn walk<'s>(
        src: &'s UnitData,
        block: &'s [StmtId],
        loops: &mut Vec<(StmtId, &'s [StmtId], usize)>,
        out: &mut HashMap<StmtId, LoopGoto>,
    ) {
        for (k, &x) in block.iter().enumerate() {
            let kind = &src.stmts[x].kind;
            if let (StmtKind::Goto(l), Some(&(lp, parent, at))) = (kind, loops.last()) {
                // To a CONTINUE in the run of CONTINUEs that ends the body (the loop's
                // terminal, or `10 CONTINUE` just before `20 CONTINUE`).
                let cycle = match &src.stmts[lp].kind {
                    StmtKind::Do { body, .. } | StmtKind::While { body, .. } => body
                        .iter()
                        .position(|&e| src.stmts[e].label.as_ref() == Some(l))
                        .is_some_and(|p| {
                            body[p..]
                                .iter()
                                .all(|&e| matches!(src.stmts[e].kind, StmtKind::Continue))
                        }),
                    _ => false,
                };
                let exit = parent
                    .get(at + 1)
                    .is_some_and(|&n| src.stmts[n].label.as_ref() == Some(l));
                if cycle || exit {
                    out.insert(
                        x,
                        LoopGoto {
                            leaves: exit,
                            outermost: loops[0].0,
                        },
                    );
                }
            }
            let is_loop = matches!(kind, StmtKind::Do { .. } | StmtKind::While { .. });
            if is_loop {
                loops.push((x, block, k));
            }
            for b in radtap_il::directives::child_blocks(kind) {
                walk(src, b, loops, out);
            }
            if is_loop {
                loops.pop();
            }
        }
    }
    let mut out = HashMap::new();
    if src.lang == Lang::Fortran {
        walk(src, &src.body, &mut Vec::new(), &mut out);
    }
    out
}

impl<'a> Adj<'_, '_, 'a> {
    /// Whether generated statement `s` is a jump.
    fn is_gen_jump(&self, s: StmtId) -> bool {
        matches!(
            self.pg.u.stmts[s].kind,
            StmtKind::Exit(_) | StmtKind::Cycle(_) | StmtKind::Break | StmtKind::CContinue
        )
    }

    /// Whether generated block `b` ends with a jump (nothing after it runs).
    pub(crate) fn ends_with_jump(&self, b: &[StmtId]) -> bool {
        b.last().is_some_and(|&s| self.is_gen_jump(s))
    }

    /// `pushControl{bits}b(k)` before every jump of the generated forward code `block` that
    /// leaves it (not inside a loop of its own).
    pub(crate) fn push_before_jumps(
        &mut self,
        block: Vec<StmtId>,
        bits: u32,
        k: usize,
    ) -> Vec<StmtId> {
        let mut out = Vec::with_capacity(block.len() + 1);
        for id in block {
            if self.is_gen_jump(id) {
                out.push(self.push_control(bits, k));
                out.push(id);
                continue;
            }
            match &mut self.pg.u.stmts[id].kind {
                StmtKind::If {
                    arms,
                    else_block,
                    logical,
                    braces,
                } => {
                    let arms0 = std::mem::take(arms);
                    let else0 = else_block.take();
                    *logical = false;
                    braces.clear();
                    let arms1: Vec<(ExprId, Block)> = arms0
                        .into_iter()
                        .map(|(c, b)| (c, self.push_before_jumps(b, bits, k)))
                        .collect();
                    let else1 = else0.map(|b| self.push_before_jumps(b, bits, k));
                    if let StmtKind::If {
                        arms, else_block, ..
                    } = &mut self.pg.u.stmts[id].kind
                    {
                        *arms = arms1;
                        *else_block = else1;
                    }
                }
                StmtKind::Select { cases, .. } => {
                    let cases0 = std::mem::take(cases);
                    let cases1: Vec<Case> = cases0
                        .into_iter()
                        .map(|c| Case {
                            values: c.values,
                            body: self.push_before_jumps(c.body, bits, k),
                        })
                        .collect();
                    if let StmtKind::Select { cases, .. } = &mut self.pg.u.stmts[id].kind {
                        *cases = cases1;
                    }
                }
                StmtKind::Block { body, .. } => {
                    let b0 = std::mem::take(body);
                    let b1 = self.push_before_jumps(b0, bits, k);
                    if let StmtKind::Block { body, .. } = &mut self.pg.u.stmts[id].kind {
                        *body = b1;
                    }
                }
                _ => {}
            }
            out.push(id);
        }
        out
    }

    /// `J; R` where a jump may leave `J` (module doc): `R` runs backwards only when the
    /// jump was not taken.
    pub(crate) fn guard_rest(&mut self, j: Rev, rest: Rev) -> Rev {
        if rest.bwd.is_empty() {
            let mut fwd = j.fwd;
            fwd.extend(rest.fwd);
            return Rev { fwd, bwd: j.bwd };
        }
        let mut fwd = self.push_before_jumps(j.fwd, 1, 1);
        let rf = self.push_before_jumps(rest.fwd, 1, 0);
        let ends = self.ends_with_jump(&rf);
        fwd.extend(rf);
        if !ends {
            fwd.push(self.push_control(1, 0));
        }
        let branch = self.branch_var();
        let mut bwd = vec![self.pop_control(1, branch)];
        let c = self.eq_test(branch, 0);
        bwd.push(stmt(
            &mut self.pg.u,
            StmtKind::If {
                arms: vec![(c, rest.bwd)],
                else_block: None,
                logical: false,
                braces: Vec::new(),
            },
        ));
        bwd.extend(j.bwd);
        Rev { fwd, bwd }
    }

    /// `ad_count = 0` before a loop, `ad_count = ad_count + 1` first in its body, and the
    /// push after it (and the pop backwards).
    fn iteration_count(&mut self) -> (SymbolId, StmtId, StmtId) {
        let count = self.int_temp("ad_count");
        let cl = self.pg.b().name(count);
        let z = self.pg.b().int(0);
        let init = assign(&mut self.pg.u, cl, z);
        let (c1, c2) = (self.pg.b().name(count), self.pg.b().name(count));
        let one = self.pg.b().int(1);
        let inc = self.pg.b().bin(BinOp::Add, c2, one);
        let inc = assign(&mut self.pg.u, c1, inc);
        (count, init, inc)
    }

    /// `from + (count − 1)·step`: the variable's value in the last iteration started
    /// (`known` is `from`'s value when constant).
    fn last_started(
        &mut self,
        from: ExprId,
        known: Option<f64>,
        count: SymbolId,
        step: i64,
    ) -> ExprId {
        let c = self.pg.b().name(count);
        let one = self.pg.b().int(1);
        let k = if step == 1 {
            c
        } else {
            let cm1 = self.pg.b().bin(BinOp::Sub, c, one);
            let cm1 = self.pg.b().e(Expr::Paren(cm1));
            let t = if step.abs() == 1 {
                cm1
            } else {
                let st = self.pg.b().int(step.abs());
                self.pg.b().bin(BinOp::Mul, cm1, st)
            };
            return if step > 0 {
                let f = self.pg.paren_if_compound(from);
                self.pg.b().bin(BinOp::Add, f, t)
            } else {
                let f = self.pg.paren_if_compound(from);
                self.pg.b().bin(BinOp::Sub, f, t)
            };
        };
        match known {
            Some(v) if v == 1.0 => k,
            Some(v) if v == 0.0 => self.pg.b().bin(BinOp::Sub, k, one),
            _ => {
                let f = self.pg.paren_if_compound(from);
                let s = self.pg.b().bin(BinOp::Add, f, k);
                self.pg.b().bin(BinOp::Sub, s, one)
            }
        }
    }
}

impl<'a> Adj<'_, '_, 'a> {
    /// Both sweeps of loop `s` taken by [`Self::structured_jump_loop`]: the usual loop rules,
    /// which see the jumps through [`Self::escapes`].
    pub(crate) fn rev_loop(&mut self, s: StmtId) -> Rev {
        let st: &'a Stmt = &self.pg.f.src.stmts[s];
        let mut r = match &st.kind {
            StmtKind::Do {
                var,
                start,
                end,
                step,
                body,
                ..
            } => {
                let r = self.adj_do(s, *var, *start, *end, *step, body);
                let pid = self.pg.f.pi.point_id(Point {
                    stmt: s,
                    part: Part::LoopInit,
                });
                self.keep_loop_var(s, r, pid, Target::Expr(*var))
            }
            StmtKind::While { cond, body, .. } => {
                self.adj_counted(s, None, Some(*cond), body, None, false)
            }
            StmtKind::DoWhile { body, cond } => {
                self.adj_counted(s, None, Some(*cond), body, None, true)
            }
            // Counted like a DO WHILE; written back without a condition.
            StmtKind::Loop { body } => self.adj_counted(s, None, None, body, None, false),
            StmtKind::CFor {
                init,
                cond,
                step,
                body,
                ..
            } => self.adj_cfor(s, *init, *cond, *step, body),
            _ => unreachable!("structured_jump_loop takes loops only"),
        };
        self.pg.report_lost_derivative(s);
        r.fwd = self.pg.move_label(st, std::mem::take(&mut r.fwd));
        r
    }
}

impl<'a> JumpLoops<'a> for Adj<'_, '_, 'a> {
    /// Counted DO left by EXIT (module doc): `DO var = from + (ad_count−1)·step, from, −step`
    /// backwards.
    #[allow(clippy::too_many_arguments)]
    fn adj_do_leaving(
        &mut self,
        s: StmtId,
        var: ExprId,
        start: ExprId,
        end: ExprId,
        step: Option<ExprId>,
        r: Rev,
        keep: bool,
    ) -> Rev {
        let st = &self.pg.f.src.stmts[s];
        let v = self.pg.cp(var);
        if r.bwd.is_empty() {
            return self.forward_only_do(st, v, start, end, step, r.fwd, keep);
        }
        let stepv = step
            .and_then(|x| self.pg.const_value(x))
            .map_or(1, |x| x as i64);
        let var_zones = self
            .pg
            .g
            .info
            .ref_zones(self.pg.prog(), self.pg.f.p, var)
            .unwrap_or_else(|| self.pg.f.pi.zones.empty());
        let static_ = self.static_bounds(s, Part::LoopInit, &var_zones);
        let mut fwd = Vec::new();
        let mut bwd = Vec::new();
        let from = if static_ {
            None
        } else {
            let t = self.int_temp("ad_from");
            let a = self.pg.cp(start);
            let tl = self.pg.b().name(t);
            fwd.push(assign(&mut self.pg.u, tl, a));
            Some(t)
        };
        let (count, init, inc) = self.iteration_count();
        fwd.push(init);
        let mut body = vec![inc];
        body.extend(r.fwd);
        let a = match from {
            Some(t) => self.pg.b().name(t),
            None => self.pg.cp(start),
        };
        let b = self.pg.cp(end);
        let c = step.map(|x| self.pg.cp(x));
        fwd.push(self.pg.new_like(
            st,
            StmtKind::Do {
                var: v,
                start: a,
                end: b,
                step: c,
                body,
                term_label: None,
            },
        ));
        let cn = self.pg.b().name(count);
        fwd.push(self.int_push(cn));
        if let Some(t) = from {
            let n = self.pg.b().name(t);
            fwd.push(self.int_push(n));
            bwd.push(self.int_pop(t));
        }
        bwd.push(self.int_pop(count));
        let first = |me: &mut Self| match from {
            Some(t) => me.pg.b().name(t),
            None => me.pg.cp(start),
        };
        let f1 = first(self);
        let known = from.map_or_else(|| self.pg.const_value(start), |_| None);
        let last = self.last_started(f1, known, count, stepv);
        let f2 = first(self);
        let v2 = self.pg.cp(var);
        let neg = self.pg.b().int(stepv.abs());
        let neg = if stepv > 0 { self.pg.b().neg(neg) } else { neg };
        bwd.push(stmt(
            &mut self.pg.u,
            StmtKind::Do {
                var: v2,
                start: last,
                end: f2,
                step: Some(neg),
                body: r.bwd,
                term_label: None,
            },
        ));
        Rev { fwd, bwd }
    }

    /// Simple counted C `for` left by `break`: `for (i = from + ad_count − 1; i >= from; --i)`
    /// backwards (mirrored when counting down). `init`, `cond`, `step` are the forward
    /// loop's header as built by `adj_counted_for`; `before` its declaration's sweeps.
    #[allow(clippy::too_many_arguments)]
    fn adj_cfor_leaving(
        &mut self,
        s: StmtId,
        c: &CanonFor,
        init: Option<StmtId>,
        cond: Option<ExprId>,
        step: Option<ExprId>,
        r: Rev,
        mut before: Rev,
    ) -> Rev {
        let st = &self.pg.f.src.stmts[s];
        let mut fwd = std::mem::take(&mut before.fwd);
        let mut bwd = Vec::new();
        let from = if c.static_ {
            None
        } else {
            let t = self.int_temp("ad_from");
            let a = self.pg.cp(c.from);
            let tl = self.pg.b().name(t);
            fwd.push(assign(&mut self.pg.u, tl, a));
            Some(t)
        };
        let init = match from {
            Some(t) => {
                let (v, fa) = (self.pg.b().name(c.var), self.pg.b().name(t));
                let e = self.pg.b().e(Expr::Assign {
                    op: None,
                    lhs: v,
                    rhs: fa,
                });
                Some(stmt(&mut self.pg.u, StmtKind::Expr(e)))
            }
            None => init,
        };
        let (count, cinit, inc) = self.iteration_count();
        fwd.push(cinit);
        let mut body = vec![inc];
        body.extend(r.fwd);
        fwd.push(self.pg.new_like(
            st,
            StmtKind::CFor {
                init,
                cond,
                step,
                body,
                braced: true,
            },
        ));
        let cn = self.pg.b().name(count);
        fwd.push(self.int_push(cn));
        if let Some(t) = from {
            let n = self.pg.b().name(t);
            fwd.push(self.int_push(n));
            bwd.push(self.int_pop(t));
        }
        bwd.push(self.int_pop(count));
        let first = |me: &mut Self| match from {
            Some(t) => me.pg.b().name(t),
            None => me.pg.cp(c.from),
        };
        let f1 = first(self);
        let known = from.map_or_else(|| self.pg.const_value(c.from), |_| None);
        let last = self.last_started(f1, known, count, if c.up { 1 } else { -1 });
        let v = self.pg.b().name(c.var);
        let init_e = self.pg.b().e(Expr::Assign {
            op: None,
            lhs: v,
            rhs: last,
        });
        let binit = stmt(&mut self.pg.u, StmtKind::Expr(init_e));
        let v2 = self.pg.b().name(c.var);
        let f2 = first(self);
        let f2 = self.pg.paren_if_compound(f2);
        let bcond = if c.up {
            self.pg.b().bin(BinOp::Ge(RelSpell::Symbol), v2, f2)
        } else {
            self.pg.b().bin(BinOp::Le(RelSpell::Symbol), v2, f2)
        };
        let v3 = self.pg.b().name(c.var);
        let bstep = self.pg.b().e(Expr::IncDec {
            inc: !c.up,
            prefix: true,
            arg: v3,
        });
        bwd.push(stmt(
            &mut self.pg.u,
            StmtKind::CFor {
                init: Some(binit),
                cond: Some(bcond),
                step: Some(bstep),
                body: r.bwd,
                braced: true,
            },
        ));
        bwd.append(&mut before.bwd);
        Rev { fwd, bwd }
    }
}
