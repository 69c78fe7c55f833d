//! `$AD FP-LOOP "vars" adj_reduction=eps` before a fixed-point loop (Christianson's
//! two-phase adjoint; Tapenade's FP-LOOP). The loop computes `z* = Φ(z*, p)` by iterating
//! one *iteration* (the body, less its exit test) until convergence; only the converged
//! iteration matters to the derivative, since `dz*/dp = (I − Φ_z)⁻¹ Φ_p` whatever path led
//! there:
//!
//! ```text
//! forward:  push S0                       ! what the loop reads or writes (for the code before)
//!           ran = <the loop runs at least once>      (unless it always does)
//!           the loop, primal, untaped, to convergence
//!           if (ran) push S1              ! what one iteration reads or writes, at z*
//!           push ran
//! backward: pop ran
//!           if (ran) {
//!             max2 = ‖z̄‖²; it = 0
//!             repeat
//!               restore S1 (kept); the iteration, taped; its adjoint
//!               n2 = ‖z̄‖²; adFixedPoint_next(more, n2, max2, eps, it, line)
//!             until !more
//!             pop S1
//!           }
//!           pop S0
//! ```
//!
//! The adjoint of one iteration maps the adjoint of the carried state `v̄` to `Φ_zᵀ v̄` and
//! adds `Φ_pᵀ v̄` to the parameters' adjoints (they are read, never written, by the
//! iteration); repeated from `v̄₀ = z̄` it sums the Neumann series `Σₖ (Φ_zᵀ)ᵏ z̄ =
//! (I − Φ_zᵀ)⁻¹ z̄` into the parameters, which is Christianson's adjoint. Values the iteration
//! writes before reading them (temporaries) contribute through the first adjoint iteration
//! only, as they should. The adjoint iteration stops when `‖v̄‖`, the change of the summed
//! adjoint state, is at most `eps` times the largest `‖v̄‖` seen (the runtime's
//! `adFixedPoint_next`, which warns on stderr at its iteration cap). Peak stack: two
//! snapshots and one iteration's tape, whatever the primal or adjoint iteration counts.
//!
//! The method is only right when the converged values of `vars` are the whole state the
//! iteration carries: a variable with a derivative that the iteration reads before it writes
//! it (so its value passes from one iteration to the next) must be among `vars` (a rank-1
//! temporary the iteration fills element by element before reading any element of it carries
//! nothing: fpfill.rs); otherwise,
//! and for shapes not handled (an exit elsewhere than first or last, a condition with an
//! effect, split mode, a var that is not a real(8)/double variable with a derivative), the
//! loop is taped whole with an AD050 warning saying why.

use crate::*;

/// The eps used when the directive gives no `adj_reduction`.
const DEFAULT_EPS: f64 = 1e-10;

/// A fixed-point loop the adjoint can iterate.
struct FpShape<'a> {
    /// The statements of one iteration.
    iter: &'a [StmtId],
    /// How to tell whether the loop ran at least once (`None`: it always does).
    ran: Option<RanTest>,
    /// An exit test, whose condition must have no effect.
    exit_cond: Option<ExprId>,
    /// The DO counter (must not be read by the iteration).
    counter: Option<SymbolId>,
}

/// The loop runs at least once when…
enum RanTest {
    /// …this condition holds on entry (DO WHILE, C `while`).
    Cond(ExprId),
    /// …this condition does not hold on entry (`do; if (c) exit; …`).
    NotCond(ExprId),
    /// …the DO loop's first value is at most its last.
    Bounds(ExprId, ExprId),
    /// …the counted C `for` loop's first value passes its test (`a < b`, `a >= b`, …).
    Cmp(BinOp, ExprId, ExprId),
}

impl<'a> Adj<'_, '_, 'a> {
    /// Both sweeps of the loop `s` under `$AD FP-LOOP`, or `None` (with an AD050 saying why)
    /// when the loop is taped whole.
    pub(crate) fn try_fp_loop(&mut self, s: StmtId) -> Option<Rev> {
        let st: &'a Stmt = &self.pg.f.src.stmts[s];
        let (d, args) = st.directives.iter().find_map(|d| match &d.kind {
            DirectiveKind::FpLoop(a) => Some((d, a)),
            _ => None,
        })?;
        let fallback = |me: &mut Self, why: &str| {
            let msg = format!("`$AD FP-LOOP` {why}: the loop is taped whole (every iteration)");
            me.pg.warn(s, Code::Directive, &msg);
        };
        let Some(shape) = self.fp_shape(&st.kind) else {
            fallback(self, "needs a DO WHILE / C `while` or `do … while` loop, or a DO (step 1) / counted `for (i = a; i < b; i++)` / `do` / `for (;;)` loop whose only exit is one `if (…) exit` (`break`) as its last statement (or its first, in `do` / `for (;;)`)");
            return None;
        };
        if self.pg.f.sweep != Sweep::Joint {
            fallback(
                self,
                "in a procedure differentiated in split mode (NOCHECKPOINT)",
            );
            return None;
        }
        if shape.iter.is_empty() {
            fallback(self, "needs a loop body");
            return None;
        }
        for c in [
            shape.exit_cond,
            match &shape.ran {
                Some(RanTest::Cond(c)) | Some(RanTest::NotCond(c)) => Some(*c),
                _ => None,
            },
        ]
        .into_iter()
        .flatten()
        {
            if let Some(why) = self.effect_in(c) {
                fallback(self, &format!("needs a loop condition without {why}"));
                return None;
            }
        }
        if let Some((_, what)) = self.pg.region_refusal(shape.iter, &d.kind) {
            fallback(self, &format!("cannot re-run an iteration holding {what}"));
            return None;
        }
        let (names, eps) = match args {
            Ok(a) => (a.names.clone(), a.eps.unwrap_or(DEFAULT_EPS)),
            Err(m) => {
                fallback(self, m);
                return None;
            }
        };
        let vars = match self.fp_vars(&names) {
            Ok(v) => v,
            Err(m) => {
                fallback(self, &m);
                return None;
            }
        };
        if let Some(m) = self.fp_dataflow(&shape, &vars, &names) {
            fallback(self, &m);
            return None;
        }
        Some(self.fp_loop(s, &shape, &vars, eps))
    }

    /// The iteration, the exit test and how to know the loop ran, for the loop shapes
    /// handled.
    fn fp_shape(&self, k: &'a StmtKind) -> Option<FpShape<'a>> {
        let src = self.pg.f.src;
        // `if (c) exit` / `if (c) break` alone.
        let exit_test = |x: StmtId| -> Option<ExprId> {
            match &src.stmts[x].kind {
                StmtKind::If {
                    arms,
                    else_block: None,
                    ..
                } if arms.len() == 1 && arms[0].1.len() == 1 => {
                    match src.stmts[arms[0].1[0]].kind {
                        StmtKind::Exit(None) | StmtKind::Break => Some(arms[0].0),
                        _ => None,
                    }
                }
                _ => None,
            }
        };
        match k {
            StmtKind::While { cond, body, .. } => Some(FpShape {
                iter: body,
                ran: Some(RanTest::Cond(*cond)),
                exit_cond: None,
                counter: None,
            }),
            StmtKind::DoWhile { body, cond } => Some(FpShape {
                iter: body,
                ran: None,
                exit_cond: Some(*cond),
                counter: None,
            }),
            // `for (;;)` is a loop without control too.
            StmtKind::Loop { body }
            | StmtKind::CFor {
                init: None,
                cond: None,
                step: None,
                body,
                ..
            } => {
                let (first, last) = (body.first()?, body.last()?);
                if let Some(c) = exit_test(*last) {
                    Some(FpShape {
                        iter: &body[..body.len() - 1],
                        ran: None,
                        exit_cond: Some(c),
                        counter: None,
                    })
                } else {
                    let c = exit_test(*first)?;
                    Some(FpShape {
                        iter: &body[1..],
                        ran: Some(RanTest::NotCond(c)),
                        exit_cond: Some(c),
                        counter: None,
                    })
                }
            }
            // A counted `for (i = a; i < b; i++)` leaving by `if (c) break` last.
            StmtKind::CFor {
                init,
                cond,
                step,
                body,
                ..
            } => {
                let cf = self.canonical_for(*init, *cond, *step, body)?;
                let c = exit_test(*body.last()?)?;
                let op = match (cf.up, cf.inclusive) {
                    (true, false) => BinOp::Lt(RelSpell::Symbol),
                    (true, true) => BinOp::Le(RelSpell::Symbol),
                    (false, false) => BinOp::Gt(RelSpell::Symbol),
                    (false, true) => BinOp::Ge(RelSpell::Symbol),
                };
                Some(FpShape {
                    iter: &body[..body.len() - 1],
                    ran: Some(RanTest::Cmp(op, cf.from, cf.bound)),
                    exit_cond: Some(c),
                    counter: Some(cf.var),
                })
            }
            StmtKind::Do {
                var,
                start,
                end,
                step,
                body,
                ..
            } => {
                let one = step.is_none_or(|e| self.pg.const_value(e) == Some(1.0));
                let Expr::Name(v) = src.exprs[*var] else {
                    return None;
                };
                let c = exit_test(*body.last()?)?;
                one.then_some(FpShape {
                    iter: &body[..body.len() - 1],
                    ran: Some(RanTest::Bounds(*start, *end)),
                    exit_cond: Some(c),
                    counter: Some(v),
                })
            }
            _ => None,
        }
    }

    /// The symbols named by the directive, each a real(8)/double variable with a derivative.
    fn fp_vars(&self, names: &[String]) -> Result<Vec<SymbolId>, String> {
        let prog = self.pg.prog();
        let mut out = Vec::new();
        for n in names {
            let found = self.pg.f.pi.zones.objects.keys().find_map(|k| match k {
                ObjKey::Sym(x) if prog.symbols[*x].spelling.eq_ignore_ascii_case(n) => Some(*x),
                _ => None,
            });
            let Some(x) = found else {
                return Err(format!("names `{n}`, which the procedure does not use"));
            };
            if !self.pg.dvar.contains_key(&x) {
                return Err(format!("names `{n}`, which has no derivative here"));
            }
            let ty = prog.symbols[x].ty.as_ref();
            let real8 =
                ty.is_some_and(|t| matches!(Self::suffix_of(t), Some("Real8")) && t.pointers <= 1);
            if !real8 {
                return Err(format!(
                    "names `{n}`, which is not a real(8)/double variable or array"
                ));
            }
            out.push(x);
        }
        if out.is_empty() {
            return Err(
                "names no fixed-point variable (`FP-LOOP \"x y\" adj_reduction=1e-10`)".into(),
            );
        }
        Ok(out)
    }

    /// Why the loop's data flow is not a fixed point of `vars` as far as radtap can see, or
    /// `None`: every `var` is written by the iteration, the DO counter is not read by it, and
    /// every variable with a derivative the iteration may read before writing it (a value
    /// carried from one iteration to the next) is among `vars`.
    fn fp_dataflow(
        &self,
        shape: &FpShape<'a>,
        vars: &[SymbolId],
        names: &[String],
    ) -> Option<String> {
        let zones = &self.pg.f.pi.zones;
        let var_zones = |x: SymbolId| {
            let mut z = zones.empty();
            for (k, o) in &zones.objects {
                if matches!(k, ObjKey::Sym(y) | ObjKey::Pointee(y) if *y == x) {
                    z.union_with(&zones.obj_set(o));
                }
            }
            z
        };
        let mut at: HashMap<StmtId, Vec<usize>> = HashMap::new();
        for (i, p) in self.pg.f.pi.point.iter().enumerate() {
            at.entry(p.stmt).or_default().push(i);
        }
        let (mut killed, mut exposed) = (zones.empty(), zones.empty());
        let (mut writes, mut active) = (zones.empty(), zones.empty());
        subtree(self.pg.f.src, shape.iter, &mut |x| {
            for &i in at.get(&x).into_iter().flatten() {
                writes.union_with(&self.pg.f.pi.effects[i].writes);
            }
        });
        // Arrays filled element by element before being read (fpfill.rs).
        let mut fill = self.fill_scan(writes.clone());
        for &t in shape.iter {
            let (covered, filled) = self.fill_step(&mut fill, t);
            let mut reads = zones.empty();
            subtree(self.pg.f.src, &[t], &mut |x| {
                for &i in at.get(&x).into_iter().flatten() {
                    reads.union_with(&self.pg.f.pi.effects[i].reads);
                    writes.union_with(&self.pg.f.pi.effects[i].writes);
                    active.union_with(&self.pg.f.act.active_before[i]);
                    active.union_with(&self.pg.f.act.active_after[i]);
                }
            });
            reads.subtract(&killed);
            for v in covered {
                if let Some(z) = zones.sym_zones(v) {
                    reads.subtract(&z);
                }
            }
            exposed.union_with(&reads);
            for v in filled {
                if let Some(z) = zones.sym_zones(v) {
                    killed.union_with(&z);
                }
            }
            // A whole variable assigned at the iteration's top level is written before
            // anything after it reads it.
            if let StmtKind::Assign { lhs, op: None, .. } = &self.pg.f.src.stmts[t].kind {
                if let Expr::Name(v) = self.pg.f.src.exprs[*lhs] {
                    if let Some(z) = zones.sym_zones(v) {
                        killed.union_with(&z);
                    }
                }
            }
        }
        if let Some(c) = shape.counter {
            if zones.sym_zones(c).is_some_and(|z| z.intersects(&exposed)) {
                return Some("needs an iteration that does not read the DO counter".into());
            }
        }
        let mut carried = exposed;
        carried.intersect_with(&writes);
        carried.intersect_with(&active);
        for (&x, n) in vars.iter().zip(names) {
            let z = var_zones(x);
            if !z.intersects(&writes) {
                return Some(format!("names `{n}`, which the iteration does not write"));
            }
            carried.subtract(&z);
        }
        if carried.is_empty() {
            return None;
        }
        let prog = self.pg.prog();
        let mut who: Vec<String> = zones
            .objects
            .iter()
            .filter_map(|(k, o)| match k {
                ObjKey::Sym(y) | ObjKey::Pointee(y) if zones.obj_set(o).intersects(&carried) => {
                    Some(format!("`{}`", prog.symbols[*y].spelling))
                }
                _ => None,
            })
            .collect();
        who.sort();
        who.dedup();
        let who = if who.is_empty() {
            "memory radtap cannot name".to_string()
        } else {
            who.join(", ")
        };
        Some(format!(
            "needs every value the iteration carries to the next among its variables, and {who} may be read before being written in an iteration (name it in the directive if it converges with them)"
        ))
    }

    /// Both sweeps (module doc).
    fn fp_loop(&mut self, s: StmtId, shape: &FpShape<'a>, vars: &[SymbolId], eps: f64) -> Rev {
        let (push0, pop0) = self.region_snapshot(std::slice::from_ref(&s));
        let (push1, pop1) = self.region_snapshot(shape.iter);
        let inner = self.rev_block(shape.iter);
        let real = || TempKind::Real {
            bytes: 8,
            deriv: false,
        };
        let n2 = self.pg.temp("ad_fpnorm", real());
        let max2 = self.pg.temp("ad_fpmax", real());
        let (it, more) = (self.int_temp("ad_fpiter"), self.int_temp("ad_fpmore"));
        let ran = shape.ran.as_ref().map(|_| self.int_temp("ad_fpran"));
        let one_zero = |me: &mut Self, c: ExprId, yes: i64, r: SymbolId| {
            let (l1, v1) = (me.pg.b().name(r), me.pg.b().int(yes));
            let (l2, v2) = (me.pg.b().name(r), me.pg.b().int(1 - yes));
            let a = assign(&mut me.pg.u, l1, v1);
            let b = assign(&mut me.pg.u, l2, v2);
            me.if_stmt(vec![(c, vec![a])], Some(vec![b]))
        };
        let mut fwd = push0;
        if let (Some(r), Some(t)) = (ran, &shape.ran) {
            let st = match t {
                RanTest::Cond(c) => {
                    let c = self.pg.cp(*c);
                    one_zero(self, c, 1, r)
                }
                RanTest::NotCond(c) => {
                    let c = self.pg.cp(*c);
                    one_zero(self, c, 0, r)
                }
                RanTest::Bounds(a, b) => {
                    let (a, b) = (self.pg.cp(*a), self.pg.cp(*b));
                    let c = self.pg.b().bin(BinOp::Le(RelSpell::Symbol), a, b);
                    one_zero(self, c, 1, r)
                }
                RanTest::Cmp(op, a, b) => {
                    let (a, b) = (self.pg.cp(*a), self.pg.cp(*b));
                    let c = self.pg.b().bin(*op, a, b);
                    one_zero(self, c, 1, r)
                }
            };
            fwd.push(st);
        }
        fwd.push(self.pg.copy_stmt(s));
        let ran_test = |me: &mut Self| {
            ran.map(|r| {
                let n = me.pg.b().name(r);
                let z = me.pg.b().int(0);
                me.pg.b().bin(BinOp::Ne(RelSpell::Symbol), n, z)
            })
        };
        match ran_test(self) {
            Some(c) if !push1.is_empty() => fwd.push(self.if_stmt(vec![(c, push1)], None)),
            _ => fwd.extend(push1),
        }
        let mut bwd = Vec::new();
        if let Some(r) = ran {
            let n = self.pg.b().name(r);
            fwd.push(self.int_push(n));
            bwd.push(self.int_pop(r));
        }
        // The adjoint iteration.
        let mut adj = Vec::new();
        let z = self.real_zero();
        let l = self.pg.b().name(max2);
        adj.push(assign(&mut self.pg.u, l, z));
        adj.extend(self.fp_norm(max2, vars));
        let (l, z) = (self.pg.b().name(it), self.pg.b().int(0));
        adj.push(assign(&mut self.pg.u, l, z));
        let (l, one) = (self.pg.b().name(more), self.pg.b().int(1));
        adj.push(assign(&mut self.pg.u, l, one));
        let mut body = self.restore_for_rerun(&pop1);
        body.extend(inner.fwd);
        body.extend(inner.bwd);
        let z = self.real_zero();
        let l = self.pg.b().name(n2);
        body.push(assign(&mut self.pg.u, l, z));
        body.extend(self.fp_norm(n2, vars));
        let line = i64::from(self.pg.span(s).line);
        let eps_text = match self.pg.f.lang {
            Lang::C => format!("{eps:e}"),
            Lang::Fortran => format!("{eps:e}").replace('e', "d"),
        };
        let mut args = Vec::new();
        for (v, by_ref) in [(more, true), (n2, false), (max2, true)] {
            let e = self.pg.b().name(v);
            args.push(self.c_ref(e, by_ref));
        }
        args.push(self.pg.b().opaque(&eps_text));
        let e = self.pg.b().name(it);
        args.push(self.c_ref(e, true));
        args.push(self.pg.b().int(line));
        body.push(self.rt("adFixedPoint_next", args));
        let (m, z) = (self.pg.b().name(more), self.pg.b().int(0));
        let cond = self.pg.b().bin(BinOp::Ne(RelSpell::Symbol), m, z);
        adj.push(stmt(
            &mut self.pg.u,
            StmtKind::While {
                cond,
                body,
                term_label: None,
            },
        ));
        adj.extend(pop1);
        match ran_test(self) {
            Some(c) => bwd.push(self.if_stmt(vec![(c, adj)], None)),
            None => bwd.extend(adj),
        }
        bwd.extend(pop0);
        Rev { fwd, bwd }
    }

    /// `adFixedPoint_addNorm(&acc, v̄, count)` for each var.
    fn fp_norm(&mut self, acc: SymbolId, vars: &[SymbolId]) -> Vec<StmtId> {
        let mut out = Vec::new();
        for &x in vars {
            let Some(&dx) = self.pg.dvar.get(&x) else {
                continue;
            };
            let count = match self.slot_of_target(Target::Sym(x)) {
                Ok(sl) => sl.count,
                Err(m) => {
                    let sp = self.pg.f.src.source_map.header.unwrap_or_default();
                    let msg = format!("{m} is not supported in adjoint mode yet");
                    self.pg
                        .g
                        .diags
                        .push(Diagnostic::error(Code::Unsupported, sp, msg));
                    None
                }
            };
            let a = self.pg.b().name(acc);
            let a = self.c_ref(a, true);
            let d = self.pg.b().name(dx);
            let (d, n) = match count {
                Some(n) => (d, n),
                // Fortran: a scalar as the one-element array the routine takes (an array
                // and a scalar given to one external routine in one file are a rank
                // mismatch gfortran refuses).
                None if self.pg.f.lang == Lang::Fortran => {
                    let a = self.pg.b().e(Expr::ArrayCtor {
                        items: vec![d],
                        old_style: false,
                        type_spec: None,
                    });
                    (a, self.pg.b().int(1))
                }
                None => (self.c_ref(d, true), self.pg.b().int(1)),
            };
            out.push(self.rt("adFixedPoint_addNorm", vec![a, d, n]));
        }
        out
    }

    /// `&e` in C when passed by reference; `e` in Fortran (always by reference).
    fn c_ref(&mut self, e: ExprId, by_ref: bool) -> ExprId {
        if by_ref && self.pg.f.lang == Lang::C {
            self.addr_of(e)
        } else {
            e
        }
    }

    fn real_zero(&mut self) -> ExprId {
        self.pg.b().zero(8)
    }
}
