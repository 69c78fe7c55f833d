//! OpenMP parallel loops in the adjoint (issue 45): a parallel loop is reversed as a
//! parallel loop.
//!
//! Two forms, chosen by what the sequential reversal would record inside the loop:
//! - *store nothing*: nothing recorded per iteration (a stencil `y[i] = f(x[i-1], x[i],
//!   x[i+1])`): the forward loop is the primal's, under its directive, and the reversed
//!   loop runs in parallel as it is;
//! - *recompute*: the iterations overwrite values their adjoints need (private temporaries,
//!   branches): the forward loop runs the primal body only, and each backward iteration
//!   runs its own forward sweep (pushing on the calling thread's stack, `_OPENMP` makes the
//!   runtime's stack thread-local) then its backward sweep (popping the same values on the
//!   same thread). An iteration's inputs must then be what they were forward: the loop may
//!   not overwrite what it reads (refused), and what it reads that other code overwrites is
//!   recorded once before the loop. Reduction updates are not run again.
//!
//! The reversed loop is then made race-free by looking at what it writes
//! ([`Adj::backward_clauses`]): a scalar only incremented is a `reduction(+: …)`, any other
//! scalar `firstprivate` (it starts each thread's first iteration where the sequential loop
//! started, and an adjoint of a per-iteration variable is zero again at the end of each);
//! an array every reference of which has, in one dimension, the same subscript `i + c` of
//! the loop counter is owned by the iteration; any other array written must be written by
//! increments only, which become `atomic`. What cannot be made race-free is refused at the
//! loop.

use crate::omp_body::*;
use crate::*;
use radtap_diff_gen::generator::{loop_body, loop_counter};
use radtap_il::omp::{base_name, declared_below, stmts_below, written, Omp, OmpClause, OmpKind};

impl<'a> Adj<'_, '_, 'a> {
    /// Both sweeps of the parallel loop `s` (module doc).
    pub(crate) fn rev_parallel(&mut self, s: StmtId, omp: &'a Omp) -> Rev {
        let src = self.pg.f.src;
        let body: &'a [StmtId] = match &src.stmts[s].kind {
            StmtKind::Do { body, .. } | StmtKind::CFor { body, .. } => body,
            _ => return self.rev_stmt_rule(s),
        };
        let clauses = omp.clauses();
        for c in clauses {
            match c {
                // A scalar's adjoint goes to the last iteration (`last_private_adjoints`).
                OmpClause::LastPrivate(v)
                    if v.iter().any(|x| {
                        self.pg.dvar.contains_key(x)
                            && !self.pg.g.out.symbols[*x]
                                .ty
                                .as_ref()
                                .is_some_and(|t| t.dims.is_empty() && t.pointers == 0)
                    }) =>
                {
                    return self.unsupported(
                        s,
                        "`lastprivate` of an active array or pointer in a parallel loop",
                    );
                }
                OmpClause::Reduction(op, v)
                    if op != "+" && op != "-" && v.iter().any(|x| self.pg.dvar.contains_key(x)) =>
                {
                    let what = format!("`reduction({op}: …)` of an active variable (but on one loop `for (i = a; i < b; i++)` / `do i = a, b` without `collapse` or `lastprivate`)");
                    return self.unsupported(s, &what);
                }
                _ => {}
            }
        }
        let mut reds: Vec<SymbolId> = omp.reductions().into_iter().map(|(_, x)| x).collect();
        // Scalars incremented in the loop's critical sections are reductions too.
        let own = per_iteration(self.pg.f.src, s, body, omp);
        for x in critical_increments(self.pg.f.src, body) {
            if !own.contains(&x) && !reds.contains(&x) {
                reds.push(x);
            }
        }
        let outer_own = std::mem::replace(&mut self.omp_own, own);
        // Its critical sections first: refused there, before the form is chosen.
        let mut all = Vec::new();
        stmts_below(self.pg.f.src, body, &mut all);
        let bad = all.into_iter().find(|&x| {
            let StmtKind::Block { body: cb, .. } = &self.pg.f.src.stmts[x].kind else {
                return false;
            };
            is_critical(self.pg.f.src, x) && !self.order_free(cb)
        });
        let r = match bad {
            Some(c) => self.unsupported(c, CRITICAL_ORDER),
            None => self.rev_parallel_with(s, omp, body, reds),
        };
        self.omp_own = outer_own;
        r
    }

    /// [`Self::rev_parallel`] once the reduction variables `reds` (of the clauses and of the
    /// critical sections) are known.
    fn rev_parallel_with(
        &mut self,
        s: StmtId,
        omp: &'a Omp,
        body: &'a [StmtId],
        reds: Vec<SymbolId>,
    ) -> Rev {
        let clauses = omp.clauses();
        let mut rerun = self.records_inside(body);
        let diags = self.pg.g.diags.len();
        let mut r = Rev::default();
        if !rerun {
            r = self.rev_stmt_rule(s);
            if self.loop_of(&r.fwd).is_some_and(|l| self.stack_calls(l))
                || self.loop_of(&r.bwd).is_some_and(|l| self.stack_calls(l))
            {
                self.pg.g.diags.truncate(diags);
                rerun = true;
            }
        }
        if rerun {
            if self.pg.f.sweep != Sweep::Joint {
                return self.unsupported(s, "a parallel loop whose iterations record values, in a procedure differentiated in split mode (NOCHECKPOINT),");
            }
            let Some(z) = self.rerun_snapshot(s, body, omp, &reds) else {
                return self.unsupported(s, "a parallel loop that overwrites what its iterations read (in place, `x[i] = f(x[i])`)");
            };
            let own = per_iteration(self.pg.f.src, s, body, omp);
            self.omp_body = Some((body[0], reds.clone(), own));
            r = self.rev_stmt_rule(s);
            self.omp_body = None;
            if !z.is_empty() {
                let (push, pop) = self.snapshot(s, &z);
                r.fwd.splice(0..0, push);
                let at = self.loop_at(&r.bwd).unwrap_or(0);
                r.bwd.splice(at..at, pop);
            }
        }
        if let Some(f) = self.loop_of(&r.fwd) {
            let mut cl: Vec<OmpClause> = clauses.to_vec();
            if rerun {
                cl.retain(|c| !matches!(c, OmpClause::Other(t) if t.starts_with("schedule")));
                cl.push(OmpClause::Other("schedule(static)".into()));
            }
            let cl = self.pg.omp_privates(s, f, cl);
            self.pg.u.stmts[f].omp = Some(Box::new(Omp {
                kind: OmpKind::Loop(cl),
                span: omp.span,
            }));
        }
        match self.loop_of(&r.bwd) {
            Some(b) => match self.backward_clauses(b, clauses) {
                Ok(mut cl) => {
                    let last: Vec<SymbolId> = clauses
                        .iter()
                        .filter(|c| matches!(c, OmpClause::LastPrivate(_)))
                        .flat_map(|c| c.vars().to_vec())
                        .filter(|x| self.pg.dvar.contains_key(x))
                        .collect();
                    if let Err(m) = self.last_private_adjoints(b, &last, &mut cl, &mut r.bwd) {
                        self.pg.error(s, Code::Unsupported, &m);
                    }
                    self.pg.u.stmts[b].omp = Some(Box::new(Omp {
                        kind: OmpKind::Loop(cl),
                        span: omp.span,
                    }))
                }
                Err(m) => {
                    self.pg.error(s, Code::Unsupported, &m);
                }
            },
            None if !r.bwd.is_empty() => {
                let m = "the adjoint of this parallel loop is not a counted loop: it would run sequentially, which is not supported yet";
                self.pg.error(s, Code::Unsupported, m);
            }
            None => {}
        }
        r
    }

    /// The adjoints of the `lastprivate` scalars `last` of the reversed loop `b` (in the
    /// backward sweep `bwd`, its clauses `cl`): after the loop a variable holds what the
    /// last iteration wrote, so its adjoint then (saved before the loop) starts the reversal
    /// of that iteration only, and every other iteration's starts at zero (each iteration
    /// writes it before reading it, as a race-free loop does): `if (i == <the reversed
    /// loop's first counter value>) t̄ = saved; else t̄ = 0;` at the top of the reversed
    /// body, t̄ private, and t̄ zero after the loop (the value before the loop is not read).
    fn last_private_adjoints(
        &mut self,
        b: StmtId,
        last: &[SymbolId],
        cl: &mut Vec<OmpClause>,
        bwd: &mut Vec<StmtId>,
    ) -> Result<(), String> {
        if last.is_empty() {
            return Ok(());
        }
        let why = "`lastprivate` of an active variable in a parallel loop whose reversal does not start from a known counter value";
        let u = &self.pg.u;
        let counter = loop_counter(u, b).ok_or(why)?;
        let first = match &u.stmts[b].kind {
            StmtKind::Do { start, .. } => *start,
            StmtKind::CFor { init: Some(i), .. } => match &u.stmts[*i].kind {
                StmtKind::Assign { rhs, .. } => *rhs,
                StmtKind::Expr(e) => match &u.exprs[*e] {
                    Expr::Assign { rhs, .. } => *rhs,
                    _ => return Err(why.into()),
                },
                StmtKind::Decl(Decl::Var(v)) => {
                    match v.entities.first().and_then(|e| e.init.as_ref()) {
                        Some(Init::Expr(e)) => *e,
                        _ => return Err(why.into()),
                    }
                }
                _ => return Err(why.into()),
            },
            _ => return Err(why.into()),
        };
        let at = bwd.iter().position(|&x| x == b).ok_or(why)?;
        let (mut head, mut before, mut after) = (Vec::new(), Vec::new(), Vec::new());
        for &t in last {
            let Some(&tb) = self.pg.dvar.get(&t) else {
                continue;
            };
            let bytes = self.pg.g.out.symbols[t]
                .ty
                .as_ref()
                .and_then(|t| t.bytes)
                .unwrap_or(8);
            let saved = self.pg.temp(
                "adlast",
                TempKind::Like {
                    sym: t,
                    deriv: true,
                },
            );
            let l = self.pg.b().name(saved);
            let r = self.pg.b().name(tb);
            before.push(assign(&mut self.pg.u, l, r));
            let iv = self.pg.b().name(counter);
            let f = radtap_il::copy::dup_expr(&mut self.pg.u, first);
            let c = self.pg.b().bin(BinOp::Eq(RelSpell::Symbol), iv, f);
            let l = self.pg.b().name(tb);
            let r = self.pg.b().name(saved);
            let set = assign(&mut self.pg.u, l, r);
            let l = self.pg.b().name(tb);
            let z = self.pg.b().zero(bytes);
            let clear = assign(&mut self.pg.u, l, z);
            head.push(stmt(
                &mut self.pg.u,
                StmtKind::If {
                    arms: vec![(c, vec![set])],
                    else_block: Some(vec![clear]),
                    logical: false,
                    braces: vec![true, true],
                },
            ));
            let l = self.pg.b().name(tb);
            let z = self.pg.b().zero(bytes);
            after.push(assign(&mut self.pg.u, l, z));
            for c in cl.iter_mut() {
                if let OmpClause::FirstPrivate(v) | OmpClause::Reduction(_, v) = c {
                    v.retain(|&x| x != tb);
                }
            }
            cl.push(OmpClause::Private(vec![tb]));
        }
        if let StmtKind::Do { body, .. } | StmtKind::CFor { body, .. } =
            &mut self.pg.u.stmts[b].kind
        {
            body.splice(0..0, head);
        }
        bwd.splice(at + 1..at + 1, after);
        bwd.splice(at..at, before);
        Ok(())
    }

    /// Both sweeps of the critical section `s` (`omp critical`, its statements `body`): each
    /// sweep's part is a critical section (of the same name). Threads enter it in any
    /// order, so its adjoint is right only when that order does not matter: every variable
    /// it sets that the iteration does not own must be set by increments `x = x + e` (whose
    /// adjoints read x̄ and increment ē's adjoints, in any order).
    pub(crate) fn rev_critical(&mut self, s: StmtId, body: &'a [StmtId]) -> Rev {
        let src = self.pg.f.src;
        if !self.order_free(body) {
            return self.unsupported(s, CRITICAL_ORDER);
        }
        let o = src.stmts[s].omp.clone();
        let r = self.rev_block(body);
        let mut wrap = |v: Vec<StmtId>| -> Vec<StmtId> {
            if v.is_empty() {
                return v;
            }
            let b = stmt(
                &mut self.pg.u,
                StmtKind::Block {
                    scope: None,
                    decls: vec![],
                    body: v,
                    associations: vec![],
                    construct: BlockKind::C,
                },
            );
            self.pg.u.stmts[b].omp = o.clone();
            vec![b]
        };
        let fwd = wrap(r.fwd);
        let bwd = wrap(r.bwd);
        Rev { fwd, bwd }
    }

    /// Whether the statements `body` of a critical section set only variables the
    /// iteration owns and shared ones by increments ([`Self::rev_critical`]).
    fn order_free(&self, body: &[StmtId]) -> bool {
        let src = self.pg.f.src;
        let mut all = Vec::new();
        stmts_below(src, body, &mut all);
        all.iter().all(|&x| match &src.stmts[x].kind {
            StmtKind::Assign { lhs, .. } => target_var(src, *lhs)
                .is_some_and(|v| self.omp_own.contains(&v) || increment_of(src, x, v)),
            StmtKind::Expr(e) => matches!(src.exprs[*e], Expr::IncDec { .. }),
            StmtKind::Call { .. } | StmtKind::Decl(_) => false,
            _ => true,
        })
    }

    /// Whether the sequential reversal of `body` records values or control inside it.
    pub(crate) fn records_inside(&self, body: &[StmtId]) -> bool {
        let src = self.pg.f.src;
        let mut inside = HashSet::new();
        let mut control = false;
        subtree(src, body, &mut |x| {
            inside.insert(x);
            control |= matches!(
                src.stmts[x].kind,
                StmtKind::If { .. }
                    | StmtKind::Select { .. }
                    | StmtKind::Switch { .. }
                    | StmtKind::While { .. }
                    | StmtKind::DoWhile { .. }
                    | StmtKind::Loop { .. }
                    | StmtKind::Where { .. }
            );
        });
        control
            || self
                .pg
                .f
                .pi
                .point
                .iter()
                .enumerate()
                .any(|(i, p)| inside.contains(&p.stmt) && !self.to_record(i).is_empty())
    }

    /// The zones a recomputing backward iteration reads that other code may overwrite,
    /// to record before the loop; `None` when the loop overwrites what it reads.
    fn rerun_snapshot(
        &self,
        s: StmtId,
        body: &[StmtId],
        omp: &Omp,
        reds: &[SymbolId],
    ) -> Option<ZoneSet> {
        let src = self.pg.f.src;
        let zones = &self.pg.f.pi.zones;
        let mut own = per_iteration(src, s, body, omp);
        own.extend(reds.iter().copied());
        let mut p = zones.empty();
        for x in own {
            if let Some(z) = zones.sym_zones(x) {
                p.union_with(&z);
            }
        }
        // A critical section's `*s += e`: the pointee is the reduction.
        for &x in reds {
            if let Some(o) = zones
                .objects
                .get(&radtap_dataflow::zones::ObjKey::Pointee(x))
            {
                p.union_with(&zones.obj_set(o));
            }
        }
        let mut inside = HashSet::new();
        subtree(src, body, &mut |x| {
            inside.insert(x);
        });
        let (mut r, mut w) = (zones.empty(), zones.empty());
        for (i, pt) in self.pg.f.pi.point.iter().enumerate() {
            if inside.contains(&pt.stmt) {
                r.union_with(&self.pg.f.pi.effects[i].reads);
                w.union_with(&self.pg.f.pi.effects[i].writes);
            }
        }
        r.subtract(&p);
        w.subtract(&p);
        if r.intersects(&w) {
            return None;
        }
        r.intersect_with(&self.written_anywhere);
        Some(r)
    }

    /// The first loop statement of `b`, where the reversed loop stands.
    fn loop_at(&self, b: &[StmtId]) -> Option<usize> {
        b.iter().position(|&x| {
            matches!(
                self.pg.u.stmts[x].kind,
                StmtKind::Do { .. } | StmtKind::CFor { .. } | StmtKind::While { .. }
            )
        })
    }

    /// The counted loop of `b` (a DO or C `for`), if `b` has one.
    fn loop_of(&self, b: &[StmtId]) -> Option<StmtId> {
        let at = self.loop_at(b)?;
        let l = b[at];
        matches!(
            self.pg.u.stmts[l].kind,
            StmtKind::Do { .. } | StmtKind::CFor { .. }
        )
        .then_some(l)
    }

    /// Whether loop `l` of the unit being built calls the runtime's stack, or a split-mode
    /// sweep (`g_fwd` records what `g_bwd` reads back in the other loop).
    fn stack_calls(&self, l: StmtId) -> bool {
        self.stack_calls_in(&loop_body(&self.pg.u, l))
    }

    /// Whether the statements `b` of the unit being built (and below) call the runtime's
    /// stack or a split-mode sweep.
    pub(crate) fn stack_calls_in(&self, b: &[StmtId]) -> bool {
        let u = &self.pg.u;
        let mut all = Vec::new();
        stmts_below(u, b, &mut all);
        let mut found = false;
        for x in all {
            let mut todo: Vec<ExprId> = Vec::new();
            if let StmtKind::Call { callee, .. } = &u.stmts[x].kind {
                todo.push(*callee);
            }
            radtap_il::visit::stmt_children(&u.stmts[x].kind, &mut |e| todo.push(e), &mut |_| {});
            while let Some(e) = todo.pop() {
                if let Expr::Call { callee, .. } = &u.exprs[e] {
                    todo.push(*callee);
                }
                let runtime = |n: &str| {
                    let n = n.to_ascii_lowercase();
                    ["push", "pop", "look", "adstack"]
                        .iter()
                        .any(|p| n.starts_with(p))
                };
                match &u.exprs[e] {
                    Expr::Name(f) => {
                        found |= (runtime(self.pg.g.out.name(*f))
                            && self.pg.g.out.symbols[*f].kind != SymbolKind::Variable)
                            || self.pg.g.is_split_sweep(*f);
                    }
                    // The runtime's entry points are written as they are spelled.
                    Expr::Opaque(t) => found |= runtime(t),
                    Expr::Intrinsic(r) => found |= runtime(r.spelling),
                    _ => {}
                }
                radtap_il::visit::expr_children(&u.exprs[e], &mut |c| todo.push(c));
            }
        }
        found
    }

    /// One iteration of a recomputed parallel loop (module doc): forward, the primal body;
    /// backward, its own forward sweep (reduction updates left out) then its backward sweep.
    pub(crate) fn adj_omp_iteration(
        &mut self,
        b: &'a [StmtId],
        reds: &[SymbolId],
        own: &[SymbolId],
    ) -> Rev {
        let (regions, _) = radtap_il::directives::block_regions(&self.pg.f.src.stmts, b);
        let inner = self.rev_range(b, 0, b.len(), &regions, None);
        let fwd = b.iter().map(|&x| self.pg.copy_stmt(x)).collect();
        let mut bwd = inner.fwd;
        strip_updates(&mut self.pg.u, &mut bwd, reds);
        bwd.extend(inner.bwd);
        // A per-iteration variable's value on entry to the iteration is dead: its record
        // before the iteration first sets it (the first push, the last pop) goes.
        // (By name: a variable declared in the body is declared again at the top of the
        // adjoint, as another symbol.)
        for &x in own {
            let u = &self.pg.u;
            let prog = &self.pg.g.out;
            let is_x = |y: Option<SymbolId>| y.is_some_and(|y| prog.name(y) == prog.name(x));
            let first = bwd
                .iter()
                .position(|&st| is_x(stack_op(prog, u, st, "push")));
            let last = bwd
                .iter()
                .rposition(|&st| is_x(stack_op(prog, u, st, "pop")));
            if let (Some(f), Some(l)) = (first, last) {
                if f < l {
                    bwd.remove(l);
                    bwd.remove(f);
                }
            }
        }
        Rev { fwd, bwd }
    }

    /// The clauses of the reversed loop `b` (module doc), or why it cannot be race-free.
    fn backward_clauses(
        &mut self,
        b: StmtId,
        primal: &[OmpClause],
    ) -> Result<Vec<OmpClause>, String> {
        let u = &self.pg.u;
        let prog = &self.pg.g.out;
        if matches!(u.stmts[b].kind, StmtKind::CFor { step: None, .. }) {
            return Err("the reversed loop over this unsigned counter is not in OpenMP's canonical form: the adjoint of this parallel loop is not supported yet".into());
        }
        // `t = x̄(k); x̄(k) = 0; …; x̄(k) = x̄(k) + t` (the adjoint of `x(k) = x(k) + e`
        // where it does not see an increment) leaves x̄(k) as it was: only read.
        let mut body = loop_body(u, b);
        if drop_round_trips(&self.pg.g.out, &mut self.pg.u, &mut body) {
            if let StmtKind::Do { body: lb, .. } | StmtKind::CFor { body: lb, .. } =
                &mut self.pg.u.stmts[b].kind
            {
                *lb = body.clone();
            }
        }
        let u = &self.pg.u;
        let counter = loop_counter(u, b);
        let declared = declared_below(u, &body);
        let mut all = Vec::new();
        stmts_below(u, &body, &mut all);
        // Every reference of each variable in the body, with the statement holding it.
        let mut refs: HashMap<SymbolId, Vec<(StmtId, ExprId)>> = HashMap::new();
        for &x in &all {
            let mut todo: Vec<ExprId> = Vec::new();
            radtap_il::visit::stmt_children(&u.stmts[x].kind, &mut |e| todo.push(e), &mut |_| {});
            while let Some(e) = todo.pop() {
                match &u.exprs[e] {
                    Expr::Name(v) => refs.entry(*v).or_default().push((x, e)),
                    Expr::Index { base, subs } => {
                        if let Expr::Name(v) = u.exprs[*base] {
                            refs.entry(v).or_default().push((x, e));
                        } else {
                            todo.push(*base);
                        }
                        for sb in subs {
                            match sb {
                                Subscript::Index(i) => todo.push(*i),
                                Subscript::Range(a, c, d) => {
                                    todo.extend([a, c, d].into_iter().flatten().copied())
                                }
                            }
                        }
                    }
                    other => radtap_il::visit::expr_children(other, &mut |c| todo.push(c)),
                }
            }
        }
        // A write whose target has no variable at its base cannot be checked.
        for &x in &all {
            if let StmtKind::Assign { lhs, .. } = &u.stmts[x].kind {
                if base_name(u, *lhs).is_none() {
                    return Err("the adjoint of this parallel loop writes through a pointer or a component, which cannot be made race-free yet".into());
                }
            }
        }
        // Statements inside critical sections run one thread at a time.
        let mut in_critical: HashSet<StmtId> = HashSet::new();
        for &x in &all {
            if is_critical(u, x) {
                let mut below = Vec::new();
                for b in radtap_il::directives::child_blocks(&u.stmts[x].kind) {
                    stmts_below(u, b, &mut below);
                }
                in_critical.extend(below);
            }
        }
        let inner_counters: Vec<SymbolId> =
            all.iter().filter_map(|&x| loop_counter(u, x)).collect();
        let changed: Vec<SymbolId> = written(prog, u, &body)
            .into_iter()
            .map(|(x, _)| x)
            .filter(|x| !inner_counters.contains(x))
            .collect();
        let mut reduction = Vec::new();
        let mut first = Vec::new();
        let mut atomic = Vec::new();
        let mut arrays = Vec::new();
        for (x, whole) in written(prog, u, &body) {
            if Some(x) == counter || declared.contains(&x) {
                continue;
            }
            let rs = refs.get(&x).map(|v| v.as_slice()).unwrap_or(&[]);
            // A variable of this unit (an adjoint, a temporary) rather than of the primal.
            let generated = prog.symbols[x].scope == u.scope;
            // The adjoint of a call increments the adjoints passed to it.
            let increments = !rs.is_empty()
                && rs.iter().all(|&(st, _)| {
                    increment_of(u, st, x) || (generated && whole && call_of(u, st).is_some())
                });
            if whole {
                let scalar = prog.symbols[x]
                    .ty
                    .as_ref()
                    .is_none_or(|t| t.dims.is_empty() && t.pointers == 0);
                if increments && scalar {
                    reduction.push(x);
                } else if !first.contains(&x) {
                    first.push(x);
                }
                continue;
            }
            let in_calls = rs.iter().any(|&(st, _)| call_of(u, st).is_some());
            let assigned = rs
                .iter()
                .any(|&(st, _)| call_of(u, st).is_none() && increment_target(u, st) == Some(x));
            // A primal array only passed to calls is read there, as in the primal loop.
            if !generated && !assigned {
                continue;
            }
            if counter.is_some_and(|c| owned(u, rs, c) || owned_rows(prog, u, &body, rs, c)) {
                continue;
            }
            let n = prog.name(x);
            if in_calls {
                return Err(format!("the adjoint of this parallel loop passes `{n}` to a call that writes it at elements other iterations touch: it cannot be made race-free yet"));
            }
            if !increments {
                return Err(format!("the adjoint of this parallel loop writes `{n}` at elements other iterations touch, not only by increments: it cannot be made race-free yet"));
            }
            if rs.iter().all(|(st, _)| in_critical.contains(st)) {
                continue;
            }
            // Every iteration increments the same elements (no subscript follows the
            // iteration: `x̄[j]` over an inner `j`, `w̄[0]`): atomic updates would all
            // contend, so each thread accumulates into its own copy, added at the end
            // (an array reduction), when the extent is known. Elements that follow the
            // iteration (`x̄[i-1]`) rarely meet: atomic.
            let follows = rs.iter().any(|&(_, e)| {
                subscripts_mention(u, e, |v| Some(v) == counter || changed.contains(&v))
            });
            if !follows {
                if let Some(len) = array_extent(prog, u, &body, rs, &changed) {
                    arrays.push(OmpClause::ArrayReduction("+".into(), x, len));
                    continue;
                }
            }
            for &(st, _) in rs {
                if !atomic.contains(&st) {
                    atomic.push(st);
                }
            }
        }
        for st in atomic {
            radtap_il::omp::atomic_form(&mut self.pg.u, st);
            self.pg.u.stmts[st].omp = Some(Box::new(Omp {
                kind: OmpKind::Atomic,
                span: None,
            }));
        }
        let mut cl: Vec<OmpClause> = primal
            .iter()
            .filter(
                |c| matches!(c, OmpClause::Other(t) if !t.starts_with("schedule") && t != "nowait"),
            )
            .cloned()
            .collect();
        cl.push(OmpClause::Other("schedule(static)".into()));
        if !first.is_empty() {
            cl.push(OmpClause::FirstPrivate(first));
        }
        if !reduction.is_empty() {
            cl.push(OmpClause::Reduction("+".into(), reduction));
        }
        cl.extend(arrays);
        Ok(cl)
    }
}
