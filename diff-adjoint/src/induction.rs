//! Induction variables (`-nooptim induction` turns this off): integer counters that the
//! backward sweep can rebuild are not pushed.
//!
//! - **Loop variables.** A counted loop (DO, canonical C `for`) is reversed with its own
//!   variable: its backward loop sets the variable itself. So the adjoint statements inside
//!   such a loop never read the value the variable had before the loop. The variable's value
//!   on entry to a loop needs recording (`keep_loop_var`) only when some adjoint statement
//!   *outside every loop over that variable* reads it; without such a statement the push
//!   recorded nothing useful (often an uninitialised value, `pushInteger4(i)` before the
//!   first `for (i = …)`).
//! - **Constant steps.** An integer local advanced by a constant (`k++`, `k -= 2`,
//!   `k = k + 1`) is restored backwards by the inverse step (`k = k - 1`) instead of a push
//!   per execution and a pop, as Tapenade rebuilds its `adFrom` counters. This needs the
//!   variable to hold, when the backward sweep reaches each step, the value it had just after
//!   that step in the forward sweep; that holds when every write of the variable in the
//!   procedure is such a step (all of them then undone in reverse order) except writes at the
//!   top level of the body before every statement holding a step (run once, before any step:
//!   when the backward sweep reaches them every step has been undone), the variable is a
//!   local of the procedure, and the procedure has no jumps (whose lowering reverses its own
//!   way). In split mode the final value goes from `f_fwd` to `f_bwd` with the other locals
//!   the backward sweep reads (`exit_record`). Then *every* step of the variable
//!   is undone, not only the recorded ones: a step left in place would shift the value that
//!   the inverse of an earlier step starts from.

use crate::*;

/// Per procedure, computed on first use.
#[derive(Default)]
pub(crate) struct Cache {
    /// Variables whose constant steps are undone backwards.
    inverted: Option<HashSet<SymbolId>>,
    /// Per loop variable: the statements inside counted loops over it (and those loops).
    loops_over: HashMap<SymbolId, HashSet<StmtId>>,
    /// Whether the procedure has jumps.
    jumps: Option<bool>,
}

impl Adj<'_, '_, '_> {
    /// Whether the value a loop variable has on entry to its loop must be recorded: some
    /// adjoint statement outside every loop over `var` reads it (see the module doc).
    pub(crate) fn loop_entry_value_needed(&mut self, var: SymbolId) -> bool {
        if !self.pg.g.opts.induction || self.has_any_jump() {
            return true;
        }
        let Some(vz) = self.pg.f.pi.zones.sym_zones(var) else {
            return true;
        };
        self.loops_over(var);
        let covered = &self.ind.loops_over[&var];
        self.pg.f.pi.point.iter().enumerate().any(|(id, pt)| {
            self.pg.f.act.deriv_uses[id].intersects(&vz) && !covered.contains(&pt.stmt)
        })
    }

    /// Entering the body of a counted loop over `var` (DO, canonical C `for`) that the
    /// backward sweep reverses with its own variable: inside that body, backwards, `var`
    /// again holds the forward iteration's value when nothing in the body writes it. Its
    /// zones join `restored_vars` (bounds of inner loops that read it are evaluated again
    /// backwards, `branches.rs` `static_bounds` and `canonical_for`); returns the set to
    /// put back after the body, `None` when nothing changed. Off with `-nooptim induction`
    /// and in procedures with jumps (reversed on their flow graph).
    pub(crate) fn enter_restored_loop(
        &mut self,
        var: SymbolId,
        body: &[StmtId],
    ) -> Option<ZoneSet> {
        if !self.pg.g.opts.induction || self.has_any_jump() {
            return None;
        }
        let vz = self.pg.f.pi.zones.sym_zones(var)?;
        let mut inside = HashSet::new();
        subtree(self.pg.f.src, body, &mut |x| {
            inside.insert(x);
        });
        let written = self.pg.f.pi.point.iter().enumerate().any(|(id, pt)| {
            inside.contains(&pt.stmt) && self.pg.f.pi.effects[id].writes.intersects(&vz)
        });
        if written {
            return None;
        }
        let old = self.restored_vars.clone();
        self.restored_vars.union_with(&vz);
        Some(old)
    }

    /// Whether `var` is the variable of counted loops and nothing outside them reads it (the
    /// primal or the adjoint): the backward loops set it before any use.
    pub(crate) fn read_only_in_its_loops(&mut self, var: SymbolId) -> bool {
        self.loops_over(var);
        !self.ind.loops_over[&var].is_empty() && !self.loop_var_read_outside(var)
    }

    /// Whether anything outside the counted loops over `var` — the primal or the adjoint —
    /// reads `var`: then a loop over `var` must run in the forward sweep even when its body
    /// has nothing left there, for the value it leaves in `var`.
    pub(crate) fn loop_var_read_outside(&mut self, var: SymbolId) -> bool {
        let Some(vz) = self.pg.f.pi.zones.sym_zones(var) else {
            return true;
        };
        self.loops_over(var);
        let covered = &self.ind.loops_over[&var];
        self.pg.f.pi.point.iter().enumerate().any(|(id, pt)| {
            !covered.contains(&pt.stmt)
                && (self.pg.f.act.deriv_uses[id].intersects(&vz)
                    || self.pg.f.pi.effects[id].reads.intersects(&vz))
        })
    }

    /// The statements inside counted loops over `var` (and the loops themselves), whose
    /// reversal sets `var` backwards.
    fn loops_over(&mut self, var: SymbolId) {
        if !self.ind.loops_over.contains_key(&var) {
            let set = self.find_loops_over(var);
            self.ind.loops_over.insert(var, set);
        }
    }

    fn find_loops_over(&self, var: SymbolId) -> HashSet<StmtId> {
        let src = self.pg.f.src;
        let mut out = HashSet::new();
        let mut loops = Vec::new();
        subtree(src, &src.body, &mut |x| match &src.stmts[x].kind {
            StmtKind::Do { var: v, body, .. } if matches!(src.exprs[*v], Expr::Name(n) if n == var) => {
                loops.push((x, body.clone()))
            }
            StmtKind::CFor {
                init,
                cond,
                step,
                body,
                ..
            } => {
                if self
                    .canonical_for(*init, *cond, *step, body)
                    .is_some_and(|c| c.var == var)
                {
                    loops.push((x, body.clone()));
                }
            }
            _ => {}
        });
        for (l, body) in loops {
            out.insert(l);
            if let StmtKind::CFor { init: Some(i), .. } = &src.stmts[l].kind {
                out.insert(*i);
            }
            subtree(src, &body, &mut |x| {
                out.insert(x);
            });
        }
        out
    }

    /// Whether the procedure has anything the jump lowering reverses (GOTO, early RETURN,
    /// EXIT/CYCLE/`break`/`continue`, `switch`).
    pub(crate) fn has_any_jump(&mut self) -> bool {
        if let Some(j) = self.ind.jumps {
            return j;
        }
        let src = self.pg.f.src;
        let mut found = self.body_has_jumps();
        subtree(src, &src.body, &mut |x| found |= self.needs_lowering(x));
        self.ind.jumps = Some(found);
        found
    }

    /// `(var, delta)` when expression `e` (an expression statement or a `for` step) or the
    /// assignment `lhs (op)= rhs` adds the integer constant `delta` to the plain variable
    /// `var`.
    fn const_step(&self, e: ExprId) -> Option<(SymbolId, i64)> {
        let src = self.pg.f.src;
        match src.exprs[e] {
            Expr::IncDec { inc, arg, .. } => match src.exprs[arg] {
                Expr::Name(v) => Some((v, if inc { 1 } else { -1 })),
                _ => None,
            },
            Expr::Assign { lhs, op, rhs } => self.assign_step(lhs, op, rhs),
            _ => None,
        }
    }

    fn assign_step(&self, lhs: ExprId, op: Option<BinOp>, rhs: ExprId) -> Option<(SymbolId, i64)> {
        let src = self.pg.f.src;
        let Expr::Name(v) = src.exprs[lhs] else {
            return None;
        };
        let int = |x: ExprId| -> Option<i64> {
            let c = self.pg.const_value(x)?;
            (c.fract() == 0.0 && c.abs() < 1e9).then_some(c as i64)
        };
        let is_v = |x: ExprId| matches!(src.exprs[x], Expr::Name(n) if n == v);
        let d = match (op, &src.exprs[rhs]) {
            (Some(BinOp::Add), _) => int(rhs)?,
            (Some(BinOp::Sub), _) => -int(rhs)?,
            (None, &Expr::Binary { op, lhs: a, rhs: b }) => match op {
                BinOp::Add if is_v(a) => int(b)?,
                BinOp::Add if is_v(b) => int(a)?,
                BinOp::Sub if is_v(a) => -int(b)?,
                _ => return None,
            },
            _ => return None,
        };
        Some((v, d))
    }

    /// The constant step point `i` (statement `s`) makes, if any.
    fn step_at(&self, i: usize) -> Option<(SymbolId, i64)> {
        let src = self.pg.f.src;
        let pt = self.pg.f.pi.point[i];
        match (&src.stmts[pt.stmt].kind, pt.part) {
            (StmtKind::Expr(e), Part::Whole) => self.const_step(*e),
            (StmtKind::CFor { step: Some(e), .. }, Part::LoopStep) => self.const_step(*e),
            (StmtKind::Assign { lhs, op, rhs }, Part::Whole) => self.assign_step(*lhs, *op, *rhs),
            _ => None,
        }
    }

    /// The variables whose constant steps are undone backwards (see the module doc).
    fn inverted_vars(&mut self) -> &HashSet<SymbolId> {
        let set = match self.ind.inverted.take() {
            Some(set) => set,
            None => self.find_inverted(),
        };
        self.ind.inverted.insert(set)
    }

    fn find_inverted(&mut self) -> HashSet<SymbolId> {
        let mut out = HashSet::new();
        if !self.pg.g.opts.induction || self.has_any_jump() {
            return out;
        }
        let src = self.pg.f.src;
        let prog = self.pg.prog();
        // Candidates: integer scalar locals stepped somewhere by a recorded step.
        let mut cands = HashSet::new();
        for i in 0..self.pg.f.pi.point.len() {
            if let Some((v, _)) = self.step_at(i) {
                let d = &prog.symbols[v];
                let local = !d.attrs.dummy
                    && d.common.is_none()
                    && radtap_dataflow::zones::unit_of_scope(prog, d.scope) == Some(self.pg.f.p);
                let int = d.ty.as_ref().is_some_and(|t| {
                    t.base == BaseClass::Integer && t.pointers == 0 && t.dims.is_empty()
                });
                if local && int && !self.to_record(i).is_empty() {
                    cands.insert(v);
                }
            }
        }
        // The top-level statement holding each statement.
        let mut top_of: HashMap<StmtId, usize> = HashMap::new();
        for (k, &t) in src.body.iter().enumerate() {
            subtree(src, &[t], &mut |x| {
                top_of.insert(x, k);
            });
        }
        'var: for v in cands {
            let Some(vz) = self.pg.f.pi.zones.sym_zones(v) else {
                continue;
            };
            let mut first_step = usize::MAX;
            let mut last_other: Option<usize> = None;
            for (i, pt) in self.pg.f.pi.point.iter().enumerate() {
                if !self.pg.f.pi.effects[i].writes.intersects(&vz) {
                    continue;
                }
                let Some(&k) = top_of.get(&pt.stmt) else {
                    continue 'var;
                };
                match self.step_at(i) {
                    Some((w, _)) if w == v => first_step = first_step.min(k),
                    _ => {
                        // Another write: only a top-level statement of its own.
                        if src.body[k] != pt.stmt {
                            continue 'var;
                        }
                        last_other = Some(last_other.map_or(k, |o: usize| o.max(k)));
                    }
                }
            }
            if last_other.is_none_or(|o| o < first_step) {
                out.insert(v);
            }
        }
        out
    }

    /// Point `i` is a constant step of a variable whose steps are undone backwards: the
    /// inverse step for the backward sweep (nothing is recorded).
    pub(crate) fn inverse_step(&mut self, i: usize) -> Option<StmtId> {
        if !self.is_live(i) {
            return None;
        }
        let (v, d) = self.step_at(i)?;
        if !self.inverted_vars().contains(&v) {
            return None;
        }
        let (l, r) = (self.pg.b().name(v), self.pg.b().name(v));
        let c = self.pg.b().int(d.abs());
        let op = if d > 0 { BinOp::Sub } else { BinOp::Add };
        let e = self.pg.b().bin(op, r, c);
        Some(assign(&mut self.pg.u, l, e))
    }

    /// Takes out of `rec` (what statement `s` would record) the locals that hold no value
    /// yet: [`Self::first_value_of_local`] (`double proj[2]; project(cam, X, proj);` pushed
    /// and popped the uninitialised `proj` around the call). Nothing before `s` reads them,
    /// and the callee's re-run backwards reads of them only what it writes first, as the
    /// forward run did.
    pub(crate) fn drop_unset_locals(&self, s: StmtId, rec: &mut ZoneSet) {
        if rec.is_empty() {
            return;
        }
        for v in self.zone_symbols() {
            let Some(vz) = self.pg.f.pi.zones.sym_zones(v) else {
                continue;
            };
            if vz.intersects(rec) && self.first_value_of_local(s, v) {
                rec.subtract(&vz);
            }
        }
    }

    /// Whether statement `s` gives the local `v` its first value: `s` is a statement of the
    /// body's top level (or the initialisation of a `for` there) and no statement before it
    /// reads or writes `v`, and `v` has no value from its declaration (a Fortran
    /// initialisation, implicitly SAVE, or DATA: not a statement). Then `v` holds no
    /// value before `s` that anything could need (recording it pushed an uninitialised
    /// value).
    pub(crate) fn first_value_of_local(&self, s: StmtId, v: SymbolId) -> bool {
        let src = self.pg.f.src;
        let prog = self.pg.prog();
        let d = &prog.symbols[v];
        let initialised = src.decls.iter().any(|x| match x {
            Decl::Var(vd) => vd.entities.iter().any(|e| e.sym == v && e.init.is_some()),
            Decl::Data(_) => true,
            _ => false,
        });
        let local = !d.attrs.dummy
            && !d.attrs.save
            && !initialised
            && d.common.is_none()
            && radtap_dataflow::zones::unit_of_scope(prog, d.scope) == Some(self.pg.f.p);
        // `s` itself, or the initialisation of a `for` of the top level.
        let Some(k) = src.body.iter().position(|&x| {
            x == s || matches!(src.stmts[x].kind, StmtKind::CFor { init: Some(i), .. } if i == s)
        }) else {
            return false;
        };
        let Some(vz) = self.pg.f.pi.zones.sym_zones(v) else {
            return false;
        };
        if !local {
            return false;
        }
        let mut before = HashSet::new();
        subtree(src, &src.body[..k], &mut |x| {
            before.insert(x);
        });
        !self.pg.f.pi.point.iter().enumerate().any(|(id, pt)| {
            before.contains(&pt.stmt)
                && (self.pg.f.pi.effects[id].reads.intersects(&vz)
                    || self.pg.f.pi.effects[id].writes.intersects(&vz))
        })
    }
}
