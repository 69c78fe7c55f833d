//! Lowering one statement into the blocks of a [`Lowering`]: jumps become edges, loops and
//! `switch` become blocks with their `break`/EXIT and `continue`/CYCLE targets, DO loops
//! their initialisation, test and step.

use super::lowering::*;
use crate::*;

impl<'a> Adj<'_, '_, 'a> {
    pub(super) fn low_stmt(&mut self, lw: &mut Lowering, s: StmtId) {
        let src = self.pg.f.src;
        let st = &src.stmts[s];
        if let Some(l) = &st.label {
            if lw.targets.contains(l) {
                let b = lw.label_block(l);
                lw.enter(b);
            }
        }
        if matches!(st.kind, StmtKind::Continue | StmtKind::Empty) {
            return;
        }
        if self.keeps_structure(s, lw) {
            lw.push(Item::Src(s));
            return;
        }
        match &st.kind {
            StmtKind::If {
                arms, else_block, ..
            } => {
                let after = lw.new_block();
                let mut conds = Vec::new();
                let mut bodies = Vec::new();
                for (c, body) in arms {
                    let bb = lw.new_block();
                    conds.push((self.pg.cp(*c), bb));
                    bodies.push((bb, body));
                }
                let mut default = after;
                if let Some(e) = else_block {
                    default = lw.new_block();
                    bodies.push((default, e));
                }
                lw.end(Term::Cond {
                    arms: conds,
                    default,
                });
                for (bb, body) in bodies {
                    lw.cur = bb;
                    self.low_block(lw, body);
                    lw.end(Term::Goto(after));
                }
                lw.cur = after;
            }
            StmtKind::Do {
                var,
                start,
                end,
                step,
                body,
                ..
            } => {
                let step_v = match step {
                    None => Some(1),
                    Some(x) => self
                        .pg
                        .const_value(*x)
                        .filter(|v| v.fract() == 0.0 && *v != 0.0)
                        .map(|v| v as i64),
                };
                let Some(step_v) = step_v else {
                    self.unsupported(s, "a DO loop with jumps inside and a variable step");
                    return;
                };
                let var_zones = self
                    .pg
                    .g
                    .info
                    .ref_zones(self.pg.prog(), self.pg.f.p, *var)
                    .unwrap_or_else(|| self.pg.f.pi.zones.empty());
                let end_tmp = (!self.static_bounds(s, Part::LoopInit, &var_zones))
                    .then(|| (self.int_temp("ad_to"), *end));
                lw.push(Item::DoInit {
                    s,
                    var: *var,
                    start: *start,
                    end: end_tmp,
                });
                let head = lw.new_block();
                lw.enter(head);
                let (body_b, step_b, leave, after) = (
                    lw.new_block(),
                    lw.new_block(),
                    lw.new_block(),
                    lw.new_block(),
                );
                let v = self.pg.cp(*var);
                let e = match end_tmp {
                    Some((t, _)) => self.pg.b().name(t),
                    None => self.pg.cp(*end),
                };
                let op = if step_v > 0 {
                    BinOp::Gt(RelSpell::Symbol)
                } else {
                    BinOp::Lt(RelSpell::Symbol)
                };
                let test = self.pg.b().bin(op, v, e);
                lw.end(Term::Cond {
                    arms: vec![(test, leave)],
                    default: body_b,
                });
                lw.cur = body_b;
                lw.loops.push(Ctx {
                    name: st.construct_name.clone(),
                    brk: leave,
                    cont: Some(step_b),
                    switch: false,
                    var: Some(Target::Expr(*var)),
                    body: body.clone(),
                });
                self.low_block(lw, body);
                lw.loops.pop();
                lw.enter(step_b);
                lw.push(Item::Step {
                    var: Target::Expr(*var),
                    step: step_v,
                });
                lw.end(Term::Goto(head));
                lw.cur = leave;
                lw.push(Item::Save(Target::Expr(*var)));
                lw.enter(after);
            }
            StmtKind::While { cond, body, .. } => {
                let head = lw.new_block();
                lw.enter(head);
                let (body_b, after) = (lw.new_block(), lw.new_block());
                let c = self.pg.cp(*cond);
                lw.end(Term::Cond {
                    arms: vec![(c, body_b)],
                    default: after,
                });
                lw.cur = body_b;
                self.low_loop_body(lw, st, body, after, head, None);
                lw.end(Term::Goto(head));
                lw.cur = after;
            }
            StmtKind::DoWhile { body, cond } => {
                let body_b = lw.new_block();
                lw.enter(body_b);
                let (cond_b, after) = (lw.new_block(), lw.new_block());
                self.low_loop_body(lw, st, body, after, cond_b, None);
                lw.enter(cond_b);
                let c = self.pg.cp(*cond);
                lw.end(Term::Cond {
                    arms: vec![(c, body_b)],
                    default: after,
                });
                lw.cur = after;
            }
            StmtKind::Loop { body } => {
                let head = lw.new_block();
                lw.enter(head);
                let after = lw.new_block();
                self.low_loop_body(lw, st, body, after, head, None);
                lw.end(Term::Goto(head));
                lw.cur = after;
            }
            StmtKind::CFor {
                init,
                cond,
                step,
                body,
                ..
            } => {
                let canon = self.canonical_for(*init, *cond, *step, body);
                if let Some(i) = init {
                    self.low_stmt(lw, *i);
                }
                let head = lw.new_block();
                lw.enter(head);
                let (body_b, step_b, leave, after) = (
                    lw.new_block(),
                    lw.new_block(),
                    lw.new_block(),
                    lw.new_block(),
                );
                match cond {
                    Some(c) => {
                        let c = self.pg.cp(*c);
                        lw.end(Term::Cond {
                            arms: vec![(c, body_b)],
                            default: leave,
                        });
                    }
                    None => lw.end(Term::Goto(body_b)),
                }
                lw.cur = body_b;
                let var = canon.as_ref().map(|c| Target::Sym(c.var));
                self.low_loop_body(lw, st, body, leave, step_b, var);
                lw.enter(step_b);
                match (step, &canon) {
                    (Some(_), Some(c)) => lw.push(Item::Step {
                        var: Target::Sym(c.var),
                        step: if c.up { 1 } else { -1 },
                    }),
                    (Some(e), None) => lw.push(Item::CStep { s, e: *e }),
                    (None, _) => {}
                }
                lw.end(Term::Goto(head));
                lw.cur = leave;
                if let Some(c) = &canon {
                    lw.push(Item::Save(Target::Sym(c.var)));
                }
                lw.enter(after);
            }
            StmtKind::Select { selector, cases } => {
                let after = lw.new_block();
                let sel = self.pg.cp(*selector);
                let mut out = Vec::new();
                let mut default = after;
                let mut bodies = Vec::new();
                for c in cases {
                    let bb = lw.new_block();
                    if c.values.is_empty() {
                        default = bb;
                    } else {
                        let vs = c
                            .values
                            .iter()
                            .map(|v| match v {
                                CaseValue::Value(e) => CaseValue::Value(self.pg.cp(*e)),
                                CaseValue::Range(a, b) => CaseValue::Range(
                                    a.map(|x| self.pg.cp(x)),
                                    b.map(|x| self.pg.cp(x)),
                                ),
                            })
                            .collect();
                        out.push((vs, bb));
                    }
                    bodies.push((bb, &c.body));
                }
                lw.end(Term::Multi {
                    sel,
                    cases: out,
                    default,
                });
                for (bb, body) in bodies {
                    lw.cur = bb;
                    self.low_block(lw, body);
                    lw.end(Term::Goto(after));
                }
                lw.cur = after;
            }
            StmtKind::Switch { expr, body } => {
                let head = lw.cur;
                let after = lw.new_block();
                lw.cur = lw.new_block();
                let cont = lw.find_loop(None).and_then(|(_, c)| c.cont);
                lw.loops.push(Ctx {
                    name: None,
                    brk: after,
                    cont,
                    switch: true,
                    var: None,
                    body: body.clone(),
                });
                let mut cases = Vec::new();
                let mut default = after;
                for &x in body {
                    if let StmtKind::CaseLabel(v) = &src.stmts[x].kind {
                        let bb = lw.new_block();
                        lw.enter(bb);
                        match v {
                            Some(e) => cases.push((vec![CaseValue::Value(self.pg.cp(*e))], bb)),
                            None => default = bb,
                        }
                    } else {
                        self.low_stmt(lw, x);
                    }
                }
                lw.loops.pop();
                lw.end(Term::Goto(after));
                let sel = self.pg.cp(*expr);
                lw.blocks[head].term = Some(Term::Multi {
                    sel,
                    cases,
                    default,
                });
                lw.cur = after;
            }
            StmtKind::Block {
                body, decls, scope, ..
            } if decls.is_empty() && (self.pg.f.lang == Lang::C || scope.is_none()) => {
                self.low_block(lw, body)
            }
            StmtKind::Exit(name) => match lw.find_loop(name.as_deref()) {
                Some((d, c)) => {
                    let t = c.brk;
                    let t = lw.leaving(d + 1, t);
                    lw.jump(t)
                }
                None => {
                    self.unsupported(s, "an EXIT out of a construct that is not a loop");
                }
            },
            StmtKind::Cycle(_) | StmtKind::CContinue => {
                let name = match &st.kind {
                    StmtKind::Cycle(n) => n.as_deref(),
                    _ => None,
                };
                match lw.find_loop(name).and_then(|(d, c)| Some((d, c.cont?))) {
                    Some((d, t)) => {
                        let t = lw.leaving(d + 1, t);
                        lw.jump(t)
                    }
                    None => {
                        self.unsupported(s, "a CYCLE/continue outside a loop");
                    }
                }
            }
            StmtKind::Break => match lw.loops.last() {
                Some(c) => {
                    let t = c.brk;
                    lw.jump(t)
                }
                None => {
                    self.unsupported(s, "a `break` outside a loop or switch");
                }
            },
            StmtKind::Goto(l) => {
                let b = self.label_target(lw, l);
                lw.jump(b);
            }
            StmtKind::ComputedGoto { labels, expr } => {
                let next = lw.new_block();
                let sel = self.pg.cp(*expr);
                let mut cases = Vec::new();
                for (k, l) in labels.iter().enumerate() {
                    let b = self.label_target(lw, l);
                    let v = self.pg.b().int(k as i64 + 1);
                    cases.push((vec![CaseValue::Value(v)], b));
                }
                lw.end(Term::Multi {
                    sel,
                    cases,
                    default: next,
                });
                lw.cur = next;
            }
            StmtKind::ArithIf { expr, labels } => {
                let [l1, l2, l3] = labels;
                let (b1, b2, b3) = (
                    self.label_target(lw, l1),
                    self.label_target(lw, l2),
                    self.label_target(lw, l3),
                );
                let (e1, e2) = (self.pg.cp(*expr), self.pg.cp(*expr));
                let (z1, z2) = (self.pg.b().int(0), self.pg.b().int(0));
                let lt = self.pg.b().bin(BinOp::Lt(RelSpell::Symbol), e1, z1);
                let eq = self.pg.b().bin(BinOp::Eq(RelSpell::Symbol), e2, z2);
                lw.end(Term::Cond {
                    arms: vec![(lt, b1), (eq, b2)],
                    default: b3,
                });
                lw.cur = lw.new_block();
            }
            StmtKind::Return(v) => {
                if !lw.whole {
                    self.unsupported(s, "a RETURN inside a loop with EXIT/CYCLE");
                    return;
                }
                let exit = lw.leaving(0, EXIT);
                match v {
                    None => lw.jump(exit),
                    // C, any return with a value (cephes' `gamma`, returns mixed with
                    // `goto`): its adjoint seeds the value from the result's adjoint, on the
                    // one path that ran; a split forward sweep sets the local it returns at
                    // its end, after its records (`adj_c_return`).
                    Some(_) if self.pg.f.lang == Lang::C => {
                        lw.push(Item::Src(s));
                        lw.jump(exit);
                    }
                    Some(_) => {
                        self.unsupported(
                            s,
                            "a `return` with a value before the end of the function",
                        );
                    }
                }
            }
            StmtKind::CaseLabel(_) => {
                self.unsupported(s, "a case label nested inside a statement of its switch");
            }
            _ => lw.push(Item::Src(s)),
        }
    }

    /// The block a jump to label `l` goes to from here: the labelled block, through the
    /// recording of the counted loops the jump leaves (those whose body lacks the label).
    fn label_target(&mut self, lw: &mut Lowering, l: &str) -> Bid {
        let src = self.pg.f.src;
        let b = lw.label_block(l);
        let depth = lw
            .loops
            .iter()
            .take_while(|c| {
                let mut inside = false;
                subtree(src, &c.body, &mut |x| {
                    inside |= src.stmts[x].label.as_deref() == Some(l);
                });
                inside
            })
            .count();
        lw.leaving(depth, b)
    }

    fn low_loop_body(
        &mut self,
        lw: &mut Lowering,
        st: &Stmt,
        body: &[StmtId],
        brk: Bid,
        cont: Bid,
        var: Option<Target>,
    ) {
        lw.loops.push(Ctx {
            name: st.construct_name.clone(),
            brk,
            cont: Some(cont),
            switch: false,
            var,
            body: body.to_vec(),
        });
        self.low_block(lw, body);
        lw.loops.pop();
    }

    pub(super) fn low_do_init(
        &mut self,
        s: StmtId,
        var: ExprId,
        start: ExprId,
        end: Option<(SymbolId, ExprId)>,
        any_bwd: bool,
    ) -> Rev {
        let mut r = Rev::default();
        let pid = self.pg.f.pi.point_id(Point {
            stmt: s,
            part: Part::LoopInit,
        });
        if let Some(i) = pid.filter(|_| any_bwd) {
            let rec = self.to_record(i);
            if self.t_in(Target::Expr(var), &rec) {
                if let Ok(sl) = self.slot_of_target(Target::Expr(var)) {
                    let (a, b) = self.push_pop(&sl);
                    r.fwd.push(a);
                    r.bwd.push(b);
                }
            }
        }
        if let Some((t, e)) = end {
            let tl = self.pg.b().name(t);
            let ec = self.pg.cp(e);
            r.fwd.push(assign(&mut self.pg.u, tl, ec));
        }
        let (v, a) = (self.pg.cp(var), self.pg.cp(start));
        r.fwd.push(assign(&mut self.pg.u, v, a));
        r
    }

    fn target_ref(&mut self, t: Target) -> ExprId {
        match t {
            Target::Expr(e) => self.pg.cp(e),
            Target::Sym(s) => self.pg.b().name(s),
        }
    }

    pub(super) fn low_step(&mut self, var: Target, step: i64, any_bwd: bool) -> Rev {
        let mut r = Rev::default();
        let one = |pg: &mut Self, sign: i64| {
            let (v1, v2) = (pg.target_ref(var), pg.target_ref(var));
            let k = step * sign;
            let c = pg.pg.b().int(k.abs());
            let op = if k > 0 { BinOp::Add } else { BinOp::Sub };
            let rhs = pg.pg.b().bin(op, v2, c);
            assign(&mut pg.pg.u, v1, rhs)
        };
        r.fwd.push(one(self, 1));
        if any_bwd {
            r.bwd.push(one(self, -1));
        }
        r
    }

    /// Whether `s` holds no jump and no jump target below it: it keeps its structure.
    fn keeps_structure(&self, s: StmtId, lw: &Lowering) -> bool {
        let src = self.pg.f.src;
        let mut ok = true;
        subtree(src, &[s], &mut |x| {
            let st = &src.stmts[x];
            if is_jump(&st.kind)
                || (x != s && st.label.as_ref().is_some_and(|l| lw.targets.contains(l)))
            {
                ok = false;
            }
        });
        ok
    }

    fn low_block(&mut self, lw: &mut Lowering, b: &[StmtId]) {
        for &s in b {
            self.low_stmt(lw, s);
        }
    }
}
