//! Loops: DO, DO WHILE and C `for`, counted loops reversed by undoing their increment,
//! other loops by a recorded iteration count.

use crate::*;

impl<'a> Adj<'_, '_, 'a> {
    /// A loop reversed with its own variable (counted DO, simple C `for`) leaves the
    /// variable at another value than the forward sweep did: when the adjoint of the code
    /// before the loop reads it, it is recorded before the loop and restored after the
    /// reversed loop.
    pub(crate) fn keep_loop_var(
        &mut self,
        s: StmtId,
        mut r: Rev,
        pid: Option<usize>,
        var: Target,
    ) -> Rev {
        let Some(i) = pid else { return r };
        let rec = self.to_record(i);
        if !self.t_in(var, &rec) {
            return r;
        }
        let sym = match var {
            Target::Sym(v) => Some(v),
            Target::Expr(e) => match self.pg.f.src.exprs[e] {
                Expr::Name(v) => Some(v),
                _ => None,
            },
        };
        if sym.is_some_and(|v| !self.loop_entry_value_needed(v)) {
            return r;
        }
        match self.slot_of_target(var) {
            Ok(sl) => {
                let (a, b) = self.push_pop(&sl);
                r.fwd.insert(0, a);
                r.bwd.push(b);
            }
            Err(m) => {
                let msg = format!("{m} is not supported in adjoint mode yet");
                self.pg.error(s, Code::Unsupported, &msg);
            }
        }
        r
    }

    /// Counted DO: the backward sweep runs the iterations in reverse order, with the bounds
    /// re-evaluated when nothing can have changed them, else recorded.
    pub(crate) fn adj_do(
        &mut self,
        s: StmtId,
        var: ExprId,
        start: ExprId,
        end: ExprId,
        step: Option<ExprId>,
        body: &'a [StmtId],
    ) -> Rev {
        let st = &self.pg.f.src.stmts[s];
        let outer = match self.pg.f.src.exprs[var] {
            Expr::Name(x) => self.enter_restored_loop(x, body),
            _ => None,
        };
        let r = self.rev_block(body);
        if let Some(o) = outer {
            self.restored_vars = o;
        }
        // Left by EXIT: not every iteration ran (`structjumps.rs`).
        if self.jump_loops > 0 && self.escapes(body, true) {
            let keep = match self.pg.f.src.exprs[var] {
                Expr::Name(x) => self.loop_var_read_outside(x),
                _ => true,
            };
            return self.adj_do_leaving(s, var, start, end, step, r, keep);
        }
        let v = self.pg.cp(var);
        // A loop whose body has nothing left in the forward sweep still runs there when
        // something after it reads the value it leaves in its variable.
        let keep = match self.pg.f.src.exprs[var] {
            Expr::Name(x) => self.loop_var_read_outside(x),
            _ => true,
        };
        if r.bwd.is_empty() {
            return self.forward_only_do(st, v, start, end, step, r.fwd, keep);
        }
        let var_zones = self
            .pg
            .g
            .info
            .ref_zones(self.pg.prog(), self.pg.f.p, var)
            .unwrap_or_else(|| self.pg.f.pi.zones.empty());
        let unit_step = step.is_none_or(|x| self.pg.const_value(x) == Some(1.0));
        let mut fwd = Vec::new();
        let mut bwd = Vec::new();
        if unit_step && self.static_bounds(s, Part::LoopInit, &var_zones) {
            let (a, b) = (self.pg.cp(start), self.pg.cp(end));
            if !r.fwd.is_empty() || keep {
                fwd.push(self.pg.new_like(
                    st,
                    StmtKind::Do {
                        var: v,
                        start: a,
                        end: b,
                        step: None,
                        body: r.fwd,
                        term_label: None,
                    },
                ));
            }
            let v2 = self.pg.cp(var);
            let (a, b) = (self.pg.cp(end), self.pg.cp(start));
            let m1 = self.pg.b().int(1);
            let m1 = self.pg.b().neg(m1);
            bwd.push(stmt(
                &mut self.pg.u,
                StmtKind::Do {
                    var: v2,
                    start: a,
                    end: b,
                    step: Some(m1),
                    body: r.bwd,
                    term_label: None,
                },
            ));
            return Rev { fwd, bwd };
        }
        // Recorded bounds: ad_from = start; DO var = ad_from, end, step; …; push(var − step),
        // push(ad_from) [, push(step)].
        let from = self.int_temp("ad_from");
        let to = self.int_temp("ad_to");
        let a = self.pg.cp(start);
        let fl = self.pg.b().name(from);
        fwd.push(assign(&mut self.pg.u, fl, a));
        let step_sym = match step {
            Some(x) if self.pg.const_value(x).is_none() => {
                let t = self.int_temp("ad_step");
                let c = self.pg.cp(x);
                let tl = self.pg.b().name(t);
                fwd.push(assign(&mut self.pg.u, tl, c));
                Some(t)
            }
            _ => None,
        };
        let step_expr = |pg: &mut Self| -> Option<ExprId> {
            match (step_sym, step) {
                (Some(t), _) => Some(pg.pg.b().name(t)),
                (None, Some(x)) => Some(pg.pg.cp(x)),
                (None, None) => None,
            }
        };
        let fa = self.pg.b().name(from);
        let b = self.pg.cp(end);
        let c = step_expr(self);
        fwd.push(self.pg.new_like(
            st,
            StmtKind::Do {
                var: v,
                start: fa,
                end: b,
                step: c,
                body: r.fwd,
                term_label: None,
            },
        ));
        let v2 = self.pg.cp(var);
        let last = match step_expr(self) {
            Some(x) => {
                let x = self.pg.paren_if_compound(x);
                self.pg.b().bin(BinOp::Sub, v2, x)
            }
            None => {
                let one = self.pg.b().int(1);
                self.pg.b().bin(BinOp::Sub, v2, one)
            }
        };
        fwd.push(self.int_push(last));
        let fa = self.pg.b().name(from);
        fwd.push(self.int_push(fa));
        if let Some(t) = step_sym {
            let n = self.pg.b().name(t);
            fwd.push(self.int_push(n));
            bwd.push(self.int_pop(t));
        }
        bwd.push(self.int_pop(from));
        bwd.push(self.int_pop(to));
        let v3 = self.pg.cp(var);
        let (ta, fa) = (self.pg.b().name(to), self.pg.b().name(from));
        let neg_step = match step_expr(self) {
            Some(x) => {
                let x = self.pg.paren_if_compound(x);
                self.pg.b().neg(x)
            }
            None => {
                let one = self.pg.b().int(1);
                self.pg.b().neg(one)
            }
        };
        bwd.push(stmt(
            &mut self.pg.u,
            StmtKind::Do {
                var: v3,
                start: ta,
                end: fa,
                step: Some(neg_step),
                body: r.bwd,
                term_label: None,
            },
        ));
        Rev { fwd, bwd }
    }

    /// A loop reversed by counting its iterations: `while`, `do … while`, DO WHILE, and C
    /// `for` loops that are not simple counted loops (`init`/`step` given).
    pub(crate) fn adj_counted(
        &mut self,
        s: StmtId,
        init: Option<StmtId>,
        cond: Option<ExprId>,
        body: &'a [StmtId],
        step: Option<ExprId>,
        test_after: bool,
    ) -> Rev {
        let st = &self.pg.f.src.stmts[s];
        let init_r = init.map(|i| self.rev_stmt(i)).unwrap_or_default();
        let mut r = self.rev_block(body);
        if let Some(e) = step {
            let sr = self.adj_step(s, e);
            r.fwd.extend(sr.fwd);
            let mut b = sr.bwd;
            b.extend(r.bwd);
            r.bwd = b;
        }
        let mut fwd = init_r.fwd;
        let mut bwd = Vec::new();
        let cond = cond.map(|c| self.pg.cp(c));
        if r.bwd.is_empty() {
            let lp = self.loop_stmt(st, cond, r.fwd, test_after);
            fwd.push(lp);
            bwd.extend(init_r.bwd);
            return Rev { fwd, bwd };
        }
        let count = self.int_temp("ad_count");
        let cl = self.pg.b().name(count);
        let z = self.pg.b().int(0);
        fwd.push(assign(&mut self.pg.u, cl, z));
        let mut body_f = r.fwd;
        let (c1, c2) = (self.pg.b().name(count), self.pg.b().name(count));
        let one = self.pg.b().int(1);
        let inc = self.pg.b().bin(BinOp::Add, c2, one);
        let inc = assign(&mut self.pg.u, c1, inc);
        // CYCLE/`continue`/EXIT skip the end of the body: counted first (`structjumps.rs`).
        if self.jump_loops > 0 && self.escapes(body, false) {
            body_f.insert(0, inc);
        } else {
            body_f.push(inc);
        }
        let lp = self.loop_stmt(st, cond, body_f, test_after);
        fwd.push(lp);
        let cn = self.pg.b().name(count);
        fwd.push(self.int_push(cn));
        bwd.push(self.int_pop(count));
        let i = self.int_temp("ad_i");
        let lp = self.count_loop(i, count, r.bwd);
        bwd.push(lp);
        bwd.extend(init_r.bwd);
        Rev { fwd, bwd }
    }

    fn loop_stmt(
        &mut self,
        st: &Stmt,
        cond: Option<ExprId>,
        body: Block,
        test_after: bool,
    ) -> StmtId {
        // A DO without loop control (`structjumps.rs`): no condition to write in Fortran.
        if cond.is_none() && !test_after && self.pg.f.lang == Lang::Fortran {
            return self.pg.new_like(st, StmtKind::Loop { body });
        }
        let cond = cond.unwrap_or_else(|| self.pg.b().int(1));
        if test_after {
            self.pg.new_like(st, StmtKind::DoWhile { body, cond })
        } else {
            self.pg.new_like(
                st,
                StmtKind::While {
                    cond,
                    body,
                    term_label: None,
                },
            )
        }
    }

    /// `DO i = 1, n` / `for (i = 0; i < n; ++i)` around a backward body.
    fn count_loop(&mut self, i: SymbolId, n: SymbolId, body: Block) -> StmtId {
        match self.pg.f.lang {
            Lang::Fortran => {
                let v = self.pg.b().name(i);
                let a = self.pg.b().int(1);
                let b = self.pg.b().name(n);
                stmt(
                    &mut self.pg.u,
                    StmtKind::Do {
                        var: v,
                        start: a,
                        end: b,
                        step: None,
                        body,
                        term_label: None,
                    },
                )
            }
            Lang::C => {
                let nn = self.pg.b().name(n);
                self.pg.c_count_loop(i, nn, body, true)
            }
        }
    }

    /// The step expression of a C `for` as a statement of its own.
    pub(crate) fn adj_step(&mut self, s: StmtId, e: ExprId) -> Rev {
        if let Some(r) = self.adj_c_effects(s, e, Part::LoopStep) {
            return r;
        }
        let Some(i) = self.pg.f.pi.point_id(Point {
            stmt: s,
            part: Part::LoopStep,
        }) else {
            let c = self.pg.cp(e);
            return Rev {
                fwd: vec![stmt(&mut self.pg.u, StmtKind::Expr(c))],
                bwd: Vec::new(),
            };
        };
        if self.pg.f.act.has_derivative[i] {
            return self.unsupported(s, "a `for` step with an active side effect");
        }
        let mut r = Rev::default();
        self.record_effect_target(s, e, i, "`for` step", &mut r);
        let c = self.pg.cp(e);
        r.fwd.push(stmt(&mut self.pg.u, StmtKind::Expr(c)));
        r
    }

    /// C `for`: a counted loop `for (i = a; i < b; i++)` (or `<=`, `--`, `>`, `>=`) whose
    /// variable the body does not write runs backwards with its bounds; anything else counts
    /// its iterations.
    pub(crate) fn adj_cfor(
        &mut self,
        s: StmtId,
        init: Option<StmtId>,
        cond: Option<ExprId>,
        step: Option<ExprId>,
        body: &'a [StmtId],
    ) -> Rev {
        if let Some(c) = self.canonical_for(init, cond, step, body) {
            let var = c.var;
            let r = self.adj_counted_for(s, c, body);
            let pid = init.and_then(|i| self.pg.pid(i));
            return self.keep_loop_var(s, r, pid, Target::Sym(var));
        }
        self.adj_counted(s, init, cond, body, step, false)
    }

    fn adj_counted_for(&mut self, s: StmtId, c: CanonFor, body: &'a [StmtId]) -> Rev {
        let st = &self.pg.f.src.stmts[s];
        let outer = self.enter_restored_loop(c.var, body);
        let r = self.rev_block(body);
        if let Some(o) = outer {
            self.restored_vars = o;
        }
        let StmtKind::CFor {
            init,
            cond,
            step,
            braced,
            ..
        } = &st.kind
        else {
            unreachable!("canonical_for only matches C for")
        };
        // `for (int i = a; …)`: the declaration goes to the top of the body like any other,
        // the loop starts with `i = a`.
        let mut before = Rev::default();
        let init = match init.map(|i| (i, &self.pg.f.src.stmts[i].kind)) {
            Some((i, StmtKind::Decl(d))) => {
                before = self.adj_decl(i, d);
                if before.bwd.is_empty() {
                    before.fwd.clear();
                    let (v, a) = (self.pg.b().name(c.var), self.pg.cp(c.from));
                    let e = self.pg.b().e(Expr::Assign {
                        op: None,
                        lhs: v,
                        rhs: a,
                    });
                    Some(stmt(&mut self.pg.u, StmtKind::Expr(e)))
                } else {
                    None
                }
            }
            Some((i, _)) => Some(self.pg.copy_stmt(i)),
            None => None,
        };
        let (cond, step) = (cond.map(|x| self.pg.cp(x)), step.map(|x| self.pg.cp(x)));
        // As for DO: kept for the value it leaves in its variable.
        let keep = self.loop_var_read_outside(c.var);
        if r.bwd.is_empty() {
            if r.fwd.is_empty() && !keep {
                return Rev::default();
            }
            let lp = self.pg.new_like(
                st,
                StmtKind::CFor {
                    init,
                    cond,
                    step,
                    body: r.fwd,
                    braced: *braced,
                },
            );
            before.fwd.push(lp);
            return before;
        }
        // Left by `break`: not every iteration ran (`structjumps.rs`).
        if self.jump_loops > 0 && self.escapes(body, true) {
            return self.adj_cfor_leaving(s, &c, init, cond, step, r, before);
        }
        let mut fwd = std::mem::take(&mut before.fwd);
        let mut bwd = Vec::new();
        // Backward: for (var = last; var >= first; --var) (mirrored when counting down).
        let (first, last): (ExprId, ExprId);
        if c.static_ {
            first = self.pg.cp(c.from);
            let b = self.pg.cp(c.bound);
            last = if c.inclusive {
                b
            } else {
                let one = self.pg.b().int(1);
                let b = self.pg.paren_if_compound(b);
                self.pg
                    .b()
                    .bin(if c.up { BinOp::Sub } else { BinOp::Add }, b, one)
            };
            if !r.fwd.is_empty() || keep {
                fwd.push(self.pg.new_like(
                    st,
                    StmtKind::CFor {
                        init,
                        cond,
                        step,
                        body: r.fwd,
                        braced: true,
                    },
                ));
            }
        } else {
            let from = self.int_temp("ad_from");
            let to = self.int_temp("ad_to");
            let a = self.pg.cp(c.from);
            let fl = self.pg.b().name(from);
            fwd.push(assign(&mut self.pg.u, fl, a));
            let (v, fa) = (self.pg.b().name(c.var), self.pg.b().name(from));
            let init_e = self.pg.b().e(Expr::Assign {
                op: None,
                lhs: v,
                rhs: fa,
            });
            let init2 = stmt(&mut self.pg.u, StmtKind::Expr(init_e));
            fwd.push(self.pg.new_like(
                st,
                StmtKind::CFor {
                    init: Some(init2),
                    cond,
                    step,
                    body: r.fwd,
                    braced: true,
                },
            ));
            let (v, one) = (self.pg.b().name(c.var), self.pg.b().int(1));
            let lastv = self
                .pg
                .b()
                .bin(if c.up { BinOp::Sub } else { BinOp::Add }, v, one);
            fwd.push(self.int_push(lastv));
            let fa = self.pg.b().name(from);
            fwd.push(self.int_push(fa));
            bwd.push(self.int_pop(from));
            bwd.push(self.int_pop(to));
            first = self.pg.b().name(from);
            last = self.pg.b().name(to);
        }
        let first = self.pg.paren_if_compound(first);
        // `for (var = last; var >= first; --var)` (mirrored when counting down); over an
        // unsigned counter `for (var = last + 1; var-- > first;)`: it is never below a first
        // value of 0 (`var >= 0` looped for ever).
        let unsigned = c.up && self.unsigned_counter(c.var);
        let start = if unsigned {
            let last = self.pg.paren_if_compound(last);
            let one = self.pg.b().int(1);
            self.pg.b().bin(BinOp::Add, last, one)
        } else {
            last
        };
        let v = self.pg.b().name(c.var);
        let init_e = self.pg.b().e(Expr::Assign {
            op: None,
            lhs: v,
            rhs: start,
        });
        let init = stmt(&mut self.pg.u, StmtKind::Expr(init_e));
        let v2 = self.pg.b().name(c.var);
        let (cond, step) = if unsigned {
            let dec = self.pg.b().e(Expr::IncDec {
                inc: false,
                prefix: false,
                arg: v2,
            });
            (
                self.pg.b().bin(BinOp::Gt(RelSpell::Symbol), dec, first),
                None,
            )
        } else {
            let cond = if c.up {
                self.pg.b().bin(BinOp::Ge(RelSpell::Symbol), v2, first)
            } else {
                self.pg.b().bin(BinOp::Le(RelSpell::Symbol), v2, first)
            };
            let v3 = self.pg.b().name(c.var);
            let step = self.pg.b().e(Expr::IncDec {
                inc: !c.up,
                prefix: true,
                arg: v3,
            });
            (cond, Some(step))
        };
        bwd.push(stmt(
            &mut self.pg.u,
            StmtKind::CFor {
                init: Some(init),
                cond: Some(cond),
                step,
                body: r.bwd,
                braced: true,
            },
        ));
        bwd.append(&mut before.bwd);
        Rev { fwd, bwd }
    }

    /// Whether C loop counter `v` is declared with an unsigned type (`size_t`, `unsigned`,
    /// `uint32_t`).
    fn unsigned_counter(&self, v: SymbolId) -> bool {
        self.pg.f.src.stmts.iter().any(|(_, st)| match &st.kind {
            StmtKind::Decl(Decl::Var(d)) if d.entities.iter().any(|e| e.sym == v) => {
                unsigned_type_name(self.pg.prog(), &d.spec.keyword, 0)
            }
            _ => false,
        })
    }

    // ------------------------------------------------------------------ declarations, memory
}

impl<'a> Adj<'_, '_, 'a> {
    /// A DO loop with nothing to do backwards: its forward body under the same header, or
    /// nothing when that body is empty and nothing after reads the variable it leaves (`keep`).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn forward_only_do(
        &mut self,
        st: &Stmt,
        v: ExprId,
        start: ExprId,
        end: ExprId,
        step: Option<ExprId>,
        fwd: Vec<StmtId>,
        keep: bool,
    ) -> Rev {
        if fwd.is_empty() && !keep {
            return Rev::default();
        }
        let (a, b) = (self.pg.cp(start), self.pg.cp(end));
        let c = step.map(|x| self.pg.cp(x));
        let lp = self.pg.new_like(
            st,
            StmtKind::Do {
                var: v,
                start: a,
                end: b,
                step: c,
                body: fwd,
                term_label: None,
            },
        );
        Rev {
            fwd: vec![lp],
            bwd: Vec::new(),
        }
    }
}

/// Whether C type name `k` is unsigned: `unsigned …`, `size_t`, `uintN_t`, or a typedef name
/// of one (`typedef unsigned int uint;`, through `depth` typedefs).
fn unsigned_type_name(prog: &Program, k: &str, depth: u32) -> bool {
    if k.contains("unsigned") || k == "size_t" || (k.starts_with("uint") && k.ends_with("_t")) {
        return true;
    }
    if depth > 8 {
        return false;
    }
    let typedef = Attr::Keyword("typedef".into());
    let decls = prog.units.iter().flat_map(|(_, u)| {
        let in_body = u.stmts.iter().filter_map(|(_, st)| match &st.kind {
            StmtKind::Decl(Decl::Var(d)) => Some(d),
            _ => None,
        });
        let in_decls = u.decls.iter().filter_map(|d| match d {
            Decl::Var(d) => Some(d),
            _ => None,
        });
        in_body.chain(in_decls)
    });
    for d in decls {
        let names = d.entities.iter().any(|e| prog.symbols[e.sym].spelling == k);
        if names && d.attrs.contains(&typedef) && d.spec.keyword != k {
            return unsigned_type_name(prog, &d.spec.keyword, depth + 1);
        }
    }
    false
}
