//! `parallel sections` in the adjoint (issue 45): reversed as `parallel sections`.
//!
//! The forward sweep runs the sections' forward sweeps as sections. The backward sweep runs
//! each section's backward sweep as a section (the order of sections does not matter: a
//! race-free construct computes what its sequential execution computes, so no section
//! reads what another writes). When a section's reversal records values, its backward
//! section recomputes it first on its own thread (its forward sweep, which pushes on the
//! thread's stack, then its backward sweep, which pops them), as a recomputed parallel
//! loop's iteration does (`omp.rs`); that needs each section's inputs unchanged (no section
//! overwrites what a section reads on entry) and recording only the sections' private
//! variables (a value code before the construct needs cannot be recorded by a section
//! recomputed after it ran).
//!
//! The backward construct is made race-free from what the sections write: what one section
//! writes is its own; temporaries and per-section variables are `firstprivate`; an adjoint
//! several sections write must be written by increments, a scalar then a `reduction(+)`, an
//! array's increments `atomic`. Anything else is refused at the construct.

use crate::*;
use radtap_diff_gen::generator::loop_counter;
use radtap_il::omp::{declared_below, stmts_below, written, Omp, OmpClause, OmpKind};

impl<'a> Adj<'_, '_, 'a> {
    /// Both sweeps of the `parallel sections` construct `s`, whose sections are `secs`.
    pub(crate) fn rev_sections(&mut self, s: StmtId, secs: &'a [StmtId]) -> Rev {
        let src = self.pg.f.src;
        let Some(omp) = src.stmts[s].omp.as_deref() else {
            return self.unsupported(s, "a `parallel sections` construct");
        };
        for c in omp.clauses() {
            let active = c.vars().iter().any(|x| self.pg.dvar.contains_key(x));
            match c {
                OmpClause::LastPrivate(_) if active => {
                    return self.unsupported(s, "`lastprivate` of an active variable");
                }
                OmpClause::Reduction(op, _) if active && op != "+" && op != "-" => {
                    let what = format!("`reduction({op}: …)` of an active variable");
                    return self.unsupported(s, &what);
                }
                _ => {}
            }
        }
        let reds: Vec<SymbolId> = omp.reductions().into_iter().map(|(_, x)| x).collect();
        let mut own = omp.private_vars();
        own.extend(declared_below(src, secs));
        let mut all = Vec::new();
        stmts_below(src, secs, &mut all);
        own.extend(all.iter().filter_map(|&x| loop_counter(src, x)));
        let bodies: Vec<&'a [StmtId]> = secs
            .iter()
            .map(|&x| match &src.stmts[x].kind {
                StmtKind::Block { body, .. } => body.as_slice(),
                _ => &[],
            })
            .collect();
        let rerun = bodies.iter().any(|b| self.records_inside(b));
        if rerun {
            if self.pg.f.sweep != Sweep::Joint {
                return self.unsupported(s, "`parallel sections` whose sections record values, in a procedure differentiated in split mode (NOCHECKPOINT),");
            }
            if let Err(m) = self.sections_rerun_safe(&all, &bodies, &own, &reds) {
                return self.unsupported(s, &m);
            }
        }
        let mut fwd_secs = Vec::new();
        let mut bwd_secs = Vec::new();
        for b in &bodies {
            let r = if rerun {
                self.adj_omp_iteration(b, &reds, &own)
            } else {
                self.rev_block(b)
            };
            fwd_secs.push(self.omp_block(r.fwd, OmpKind::Section, omp.span));
            bwd_secs.insert(0, self.omp_block(r.bwd, OmpKind::Section, omp.span));
        }
        if !rerun && self.stack_calls_in(&[fwd_secs.clone(), bwd_secs.clone()].concat()) {
            return self.unsupported(
                s,
                "`parallel sections` whose sections call procedures that record values",
            );
        }
        let f = self.omp_block(
            fwd_secs,
            OmpKind::Sections(omp.clauses().to_vec()),
            omp.span,
        );
        let cl = match self.sections_clauses(&bwd_secs, omp.clauses(), &own) {
            Ok(cl) => cl,
            Err(m) => {
                self.pg.error(s, Code::Unsupported, &m);
                return Rev::default();
            }
        };
        let b = self.omp_block(bwd_secs, OmpKind::Sections(cl), omp.span);
        Rev {
            fwd: vec![f],
            bwd: vec![b],
        }
    }

    /// A block of the unit being built holding `body`, under the directive `kind`.
    fn omp_block(&mut self, body: Vec<StmtId>, kind: OmpKind, span: Option<Span>) -> StmtId {
        let b = stmt(
            &mut self.pg.u,
            StmtKind::Block {
                scope: None,
                decls: vec![],
                body,
                associations: vec![],
                construct: BlockKind::C,
            },
        );
        self.pg.u.stmts[b].omp = Some(Box::new(Omp { kind, span }));
        b
    }

    /// Whether recomputing each section in the backward sweep is right (module doc): what
    /// each reads on entry no section writes, and what the sections record is their
    /// private variables only.
    fn sections_rerun_safe(
        &self,
        all: &[StmtId],
        bodies: &[&[StmtId]],
        own: &[SymbolId],
        reds: &[SymbolId],
    ) -> Result<(), String> {
        let zones = &self.pg.f.pi.zones;
        let mut mine = zones.empty();
        for x in own.iter().chain(reds) {
            if let Some(z) = zones.sym_zones(*x) {
                mine.union_with(&z);
            }
        }
        let inside: HashSet<StmtId> = all.iter().copied().collect();
        let mut writes = zones.empty();
        for (i, p) in self.pg.f.pi.point.iter().enumerate() {
            if inside.contains(&p.stmt) {
                writes.union_with(&self.pg.f.pi.effects[i].writes);
                let mut rec = self.to_record(i);
                rec.subtract(&mine);
                if !rec.is_empty() {
                    return Err("`parallel sections` whose sections overwrite values the adjoint of code outside them needs".into());
                }
            }
        }
        writes.subtract(&mine);
        // What each section reads before it sets it (its top-level statements in order;
        // only a whole assignment at the top level counts as setting).
        let src = self.pg.f.src;
        for b in bodies {
            let mut set = zones.empty();
            let mut exposed = zones.empty();
            for &t in b.iter() {
                let mut below = Vec::new();
                stmts_below(src, &[t], &mut below);
                let mut kills = zones.empty();
                for (i, p) in self.pg.f.pi.point.iter().enumerate() {
                    if below.contains(&p.stmt) {
                        let mut r = self.pg.f.pi.effects[i].reads.clone();
                        r.subtract(&set);
                        exposed.union_with(&r);
                        kills.union_with(&self.pg.f.pi.effects[i].kills);
                    }
                }
                if matches!(src.stmts[t].kind, StmtKind::Assign { .. }) {
                    set.union_with(&kills);
                }
            }
            if exposed.intersects(&writes) {
                return Err(
                    "`parallel sections` whose sections overwrite what a section reads".into(),
                );
            }
        }
        Ok(())
    }

    /// The clauses of the backward sections `secs` (module doc), or why they cannot be
    /// race-free.
    fn sections_clauses(
        &mut self,
        secs: &[StmtId],
        primal: &[OmpClause],
        own: &[SymbolId],
    ) -> Result<Vec<OmpClause>, String> {
        let u = &self.pg.u;
        let prog = &self.pg.g.out;
        let src = self.pg.f.src;
        let adjoints: HashSet<SymbolId> = self.pg.dvar.values().copied().collect();
        let own_adjoints: Vec<SymbolId> = own
            .iter()
            .filter_map(|x| self.pg.dvar.get(x).copied())
            .collect();
        let in_primal = |x: SymbolId| {
            src.exprs
                .iter()
                .any(|(_, e)| matches!(e, Expr::Name(y) if *y == x))
        };
        let mut all = Vec::new();
        stmts_below(u, secs, &mut all);
        // The sections writing each variable, in order of first write.
        let mut writers: Vec<(SymbolId, Vec<usize>)> = Vec::new();
        for (k, &sec) in secs.iter().enumerate() {
            for (x, _) in written(prog, u, &[sec]) {
                match writers.iter_mut().find(|(y, _)| *y == x) {
                    Some((_, v)) if !v.contains(&k) => v.push(k),
                    Some(_) => {}
                    None => writers.push((x, vec![k])),
                }
            }
        }
        let mut first = Vec::new();
        let mut reduction = Vec::new();
        let mut atomic = Vec::new();
        for (x, ks) in writers {
            let generated = prog.symbols[x].scope == u.scope && !u.params.contains(&x);
            let temp = generated && !adjoints.contains(&x) && !in_primal(x);
            if own.contains(&x) || own_adjoints.contains(&x) || temp {
                first.push(x);
                continue;
            }
            // A primal variable only passed to calls (`sin(x(1))`, by reference) is read
            // there, as in the primal sections.
            let assigned = all.iter().any(|&t| {
                matches!(&u.stmts[t].kind, StmtKind::Assign { lhs, .. }
                    if radtap_il::omp::base_name(u, *lhs) == Some(x))
            });
            if ks.len() == 1
                || (in_primal(x) && !adjoints.contains(&x) && !assigned)
                || constant_elements_apart(u, secs, x)
            {
                continue;
            }
            // Written by several sections: increments only.
            let users: Vec<StmtId> = all
                .iter()
                .copied()
                .filter(|&t| {
                    let mut found = false;
                    radtap_il::visit::stmt_children(
                        &u.stmts[t].kind,
                        &mut |e| found |= names(u, e, x),
                        &mut |_| {},
                    );
                    found
                })
                .collect();
            let n = prog.name(x);
            if !users
                .iter()
                .all(|&t| crate::omp_body::increment_of(u, t, x))
            {
                return Err(format!("the adjoint of these `parallel sections` writes `{n}` in several sections, not only by increments: it cannot be made race-free yet"));
            }
            let scalar = prog.symbols[x]
                .ty
                .as_ref()
                .is_none_or(|t| t.dims.is_empty() && t.pointers == 0);
            if scalar && users.iter().all(|&t| matches!(&u.stmts[t].kind, StmtKind::Assign { lhs, .. } if matches!(u.exprs[*lhs], Expr::Name(_)))) {
                reduction.push(x);
            } else {
                atomic.extend(users);
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
            .filter(|c| matches!(c, OmpClause::Other(_)))
            .cloned()
            .collect();
        if !first.is_empty() {
            cl.push(OmpClause::FirstPrivate(first));
        }
        if !reduction.is_empty() {
            cl.push(OmpClause::Reduction("+".into(), reduction));
        }
        Ok(cl)
    }
}

/// Whether expression `e` names `x`.
fn names(u: &UnitData, e: ExprId, x: SymbolId) -> bool {
    let mut todo = vec![e];
    while let Some(e) = todo.pop() {
        if matches!(u.exprs[e], Expr::Name(v) if v == x) {
            return true;
        }
        radtap_il::visit::expr_children(&u.exprs[e], &mut |c| todo.push(c));
    }
    false
}

/// Whether every reference to the array `x` in the sections `secs` is an element at
/// constant subscripts (`ȳ[1]`, `ȳ(2, 1)`) and no two sections touch the same one.
fn constant_elements_apart(u: &UnitData, secs: &[StmtId], x: SymbolId) -> bool {
    let mut seen: Vec<(usize, Vec<String>)> = Vec::new();
    for (k, &sec) in secs.iter().enumerate() {
        let mut all = Vec::new();
        stmts_below(u, &[sec], &mut all);
        for t in all {
            let mut todo: Vec<ExprId> = Vec::new();
            radtap_il::visit::stmt_children(&u.stmts[t].kind, &mut |e| todo.push(e), &mut |_| {});
            while let Some(e) = todo.pop() {
                match &u.exprs[e] {
                    Expr::Index { base, subs } if matches!(u.exprs[*base], Expr::Name(v) if v == x) =>
                    {
                        let mut key = Vec::new();
                        for sb in subs {
                            match sb {
                                Subscript::Index(i) => match &u.exprs[*i] {
                                    Expr::Literal(l) if l.kind == LitKind::Int => {
                                        key.push(l.text.clone())
                                    }
                                    _ => return false,
                                },
                                Subscript::Range(..) => return false,
                            }
                        }
                        if seen.iter().any(|(j, kk)| *j != k && *kk == key) {
                            return false;
                        }
                        seen.push((k, key));
                    }
                    Expr::Name(v) if *v == x => return false,
                    other => radtap_il::visit::expr_children(other, &mut |c| todo.push(c)),
                }
            }
        }
    }
    true
}
