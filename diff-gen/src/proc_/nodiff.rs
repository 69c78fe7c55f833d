//! `$AD DO-NOT-DIFF` … `END-DO-NOT-DIFF` regions, shared by tangent and adjoint: the region
//! runs as primal code and what it writes leaves it with a zero derivative (its values are
//! taken as constants), while what it does not write keeps its derivative.
//!
//! Rule (tangent): after each primal assignment `v = e` of the region, `v̇ = 0`; after a
//! READ, the items' derivatives are zero; a call that may write an argument with a
//! derivative zeroes that argument's derivative when the call overwrites it whole (a scalar,
//! an element, or an array the call certainly overwrites completely) and is refused
//! otherwise. Its transpose (adjoint) is the same zeroing `v̄ = 0` over the same executed
//! assignments: zeroings commute, so the adjoint replays the region forward from its
//! snapshot (`radtap-diff-adjoint`'s `regions.rs`), which gives the same indices.
//!
//! Also the refusals of every region whose code runs twice (checkpoints, DO-NOT-DIFF in the
//! adjoint): what cannot be re-run or leaves the region early.

use super::*;

impl<'a> ProcGen<'_, 'a> {
    /// The region `stmts` as primal code followed, at each write, by the zeroing of the
    /// written derivatives; and whether any derivative is zeroed. Errors (AD020) are
    /// reported for what cannot be zeroed exactly.
    pub fn nodiff_block(&mut self, stmts: &[StmtId]) -> (Block, bool) {
        let mut out = Vec::new();
        let mut any = false;
        for &s in stmts {
            any |= self.nodiff_stmt(s, &mut out);
        }
        (out, any)
    }

    fn nodiff_stmt(&mut self, s: StmtId, out: &mut Block) -> bool {
        let src = self.f.src;
        let st = &src.stmts[s];
        let mut any = false;
        match &st.kind {
            StmtKind::Assign { lhs, .. } => {
                out.push(self.copy_stmt(s));
                any |= self.zero_deriv_of(s, *lhs, out);
            }
            StmtKind::Io {
                kind: IoKind::Read,
                items,
                ..
            } => {
                out.push(self.copy_stmt(s));
                for &it in items {
                    any |= self.zero_deriv_of(s, it, out);
                }
            }
            StmtKind::Call { args, .. } => {
                out.push(self.copy_stmt(s));
                let Some(i) = self.pid(s) else {
                    return false;
                };
                let writes = self.f.pi.effects[i].writes.clone();
                let (covered, zeroed) = self.zero_overwritten_args(s, i, args, &writes, out);
                any |= zeroed;
                // Whatever else the call may write that carries a derivative after it
                // (part of an array, memory behind a pointer, a global) cannot be zeroed
                // exactly: refused.
                let mut rest = writes;
                rest.intersect_with(&self.f.act.active_after[i]);
                rest.subtract(&covered);
                if !rest.is_empty() {
                    self.error(s, Code::Unsupported, "a call inside a `$AD DO-NOT-DIFF` region that may write part of an array, memory behind a pointer or a global with a derivative is not supported: only what it certainly overwrites whole can be given a zero derivative; move the call out of the region or pass scalars");
                }
            }
            StmtKind::If { .. }
            | StmtKind::Do { .. }
            | StmtKind::While { .. }
            | StmtKind::DoWhile { .. }
            | StmtKind::CFor { .. }
            | StmtKind::Loop { .. }
            | StmtKind::Select { .. } => {
                let c = self.copy_stmt(s);
                let kids = radtap_il::directives::child_blocks(&st.kind);
                let mut new_blocks = Vec::new();
                for b in kids {
                    let (nb, a) = self.nodiff_block(b);
                    any |= a;
                    new_blocks.push(nb);
                }
                set_child_blocks(&mut self.u.stmts[c].kind, new_blocks);
                out.push(c);
            }
            StmtKind::Comment(_)
            | StmtKind::Continue
            | StmtKind::Empty
            | StmtKind::Format(_)
            | StmtKind::Io { .. } => out.push(self.copy_stmt(s)),
            StmtKind::Expr(_)
            | StmtKind::PointerAssign { .. }
            | StmtKind::Where { .. }
            | StmtKind::Forall { .. }
            | StmtKind::Switch { .. }
            | StmtKind::CaseLabel(_)
            | StmtKind::Block { .. }
            | StmtKind::Decl(_)
            | StmtKind::Memory { .. }
            | StmtKind::Return(_)
            | StmtKind::Stop { .. }
            | StmtKind::Exit(_)
            | StmtKind::Cycle(_)
            | StmtKind::Break
            | StmtKind::CContinue
            | StmtKind::Goto(_)
            | StmtKind::ComputedGoto { .. }
            | StmtKind::ArithIf { .. }
            | StmtKind::Entry { .. } => {
                // Refused by `region_refusal` before this is called (or, for an expression
                // statement, a WHERE or a FORALL, here).
                self.error(s, Code::Unsupported, "this statement inside a `$AD DO-NOT-DIFF` region is not supported (assignments, calls, IF, loops, SELECT and I/O are)");
                out.push(self.copy_stmt(s));
            }
        }
        any
    }

    /// After the primal call `s` (point `i`) that may write `writes`: the derivative of each
    /// argument in `writes` set to zero where the call overwrites it whole (a scalar, an
    /// element, or a Fortran array the call certainly overwrites completely). The zones
    /// so covered, and whether any derivative was zeroed.
    pub fn zero_overwritten_args(
        &mut self,
        s: StmtId,
        i: usize,
        args: &[Arg],
        writes: &ZoneSet,
        out: &mut Block,
    ) -> (ZoneSet, bool) {
        let kills = self.f.pi.effects[i].kills.clone();
        let mut covered = self.f.pi.zones.empty();
        let mut any = false;
        for a in args {
            if !self.ref_in(a.value, writes) || !self.has_dvar_ref(a.value) {
                continue;
            }
            let Some(z) = self.g.info.ref_zones(self.prog(), self.f.p, a.value) else {
                continue;
            };
            // A whole array is zeroed only where the call certainly overwrites it
            // all; an element or a scalar is a single value.
            let whole_ok = !self.is_array_ref(a.value)
                || (self.f.lang == Lang::Fortran && z.and(&kills).count() == z.count());
            if whole_ok {
                any |= self.zero_deriv_of(s, a.value, out);
                covered.union_with(&z);
            }
        }
        (covered, any)
    }

    fn is_array_ref(&self, e: ExprId) -> bool {
        match &self.f.src.exprs[e] {
            Expr::Name(x) => self.prog().symbols[*x]
                .ty
                .as_ref()
                .is_some_and(|t| !t.dims.is_empty()),
            _ => false,
        }
    }

    /// `ṙ = 0` (or `r̄ = 0`) for a written reference `r` that has a derivative.
    fn zero_deriv_of(&mut self, s: StmtId, r: ExprId, out: &mut Block) -> bool {
        if !self.has_dvar_ref(r) {
            return false;
        }
        let k = self.real_kind(r);
        match self.dref(r, Dir::Nd) {
            Some(d) => {
                let z = self.b().zero(k);
                let st = assign(&mut self.u, d, z);
                let v = self.dir(vec![st]);
                out.extend(v);
                true
            }
            None => {
                self.error(s, Code::Unsupported, "this write inside a `$AD DO-NOT-DIFF` region has a derivative that cannot be set to zero");
                false
            }
        }
    }

    /// The first statement of a region that its code cannot run twice or leave early (a
    /// checkpointed region, or a DO-NOT-DIFF region in the adjoint), and why.
    pub fn region_refusal(
        &self,
        stmts: &[StmtId],
        dir: &DirectiveKind,
    ) -> Option<(StmtId, String)> {
        let word = dir.word();
        let mut todo: Vec<StmtId> = stmts.iter().rev().copied().collect();
        while let Some(x) = todo.pop() {
            let st = &self.f.src.stmts[x];
            let what = match &st.kind {
                _ if st.label.is_some() => Some("a labelled statement"),
                StmtKind::Memory { .. } => Some("an ALLOCATE/DEALLOCATE"),
                StmtKind::PointerAssign { .. } => Some("a pointer assignment"),
                // C `u = w;`, `p++;`: the region's snapshot records what pointers point to,
                // not where (buffers rotated by pointer were re-run rotated differently).
                StmtKind::Assign { lhs, .. } if self.c_pointer_var(*lhs) => {
                    Some("a pointer assignment")
                }
                StmtKind::Expr(e) if matches!(self.f.src.exprs[*e], Expr::IncDec { arg, .. } if self.c_pointer_var(arg)) => {
                    Some("a pointer assignment")
                }
                StmtKind::Decl(_) => Some("a declaration"),
                StmtKind::Block { decls, .. } if !decls.is_empty() => {
                    Some("a block with declarations")
                }
                StmtKind::Io {
                    kind: IoKind::Read, ..
                } if *dir == DirectiveKind::CheckpointStart => Some("a READ"),
                StmtKind::Return(_)
                | StmtKind::Stop { .. }
                | StmtKind::Exit(_)
                | StmtKind::Cycle(_)
                | StmtKind::Break
                | StmtKind::CContinue
                | StmtKind::Goto(_)
                | StmtKind::ComputedGoto { .. }
                | StmtKind::ArithIf { .. }
                | StmtKind::Entry { .. } => Some("a jump (RETURN, STOP, EXIT, CYCLE, GOTO)"),
                StmtKind::Call { callee, .. }
                    if self.f.lang == Lang::C
                        && matches!(self.callee_name(*callee).as_str(), "free" | "malloc") =>
                {
                    Some("a call to free")
                }
                _ => None,
            };
            if let Some(w) = what {
                return Some((x, format!("{w} inside a `$AD {word}` region")));
            }
            // The adjoint runs the region again: its messages would be sent again, where
            // the partners on other ranks may not repeat theirs (`mpi::communicating`).
            let mpi = self.f.adjoint
                && self.g.communicating.contains(&self.f.p)
                && (self.g.info.callgraph.sites_of(self.f.p).iter()).any(|c| {
                    c.stmt == x
                        && crate::mpi::calls_mpi(self.prog(), &self.g.communicating, &c.callee)
                });
            if mpi {
                return Some((x, format!("an MPI call (itself or in the procedure it calls) inside a `$AD {word}` region (the adjoint runs the region again: its messages would be sent again, where their partners on other ranks may not send or receive theirs again)")));
            }
            let mut kids = Vec::new();
            radtap_il::visit::stmt_children(&st.kind, &mut |_| {}, &mut |k| kids.push(k));
            todo.extend(kids.into_iter().rev());
        }
        None
    }
}

impl ProcGen<'_, '_> {
    /// Whether `e` names a C pointer variable, in adjoint mode (the tangent runs a region
    /// once: a DO-NOT-DIFF region moving a pointer is fine there).
    fn c_pointer_var(&self, e: ExprId) -> bool {
        self.f.adjoint
            && self.f.lang == Lang::C
            && matches!(self.f.src.exprs[e], Expr::Name(v)
                if self.prog().symbols[v].ty.as_ref().is_some_and(|t| t.pointers > 0 && t.dims.is_empty()))
    }
}

/// Replaces the blocks of a statement, in the order of
/// [`radtap_il::directives::child_blocks`].
fn set_child_blocks(k: &mut StmtKind, mut blocks: Vec<Block>) {
    blocks.reverse();
    let mut next = || blocks.pop().unwrap_or_default();
    match k {
        StmtKind::If {
            arms, else_block, ..
        } => {
            for (_, b) in arms.iter_mut() {
                *b = next();
            }
            if let Some(b) = else_block {
                *b = next();
            }
        }
        StmtKind::Do { body, .. }
        | StmtKind::While { body, .. }
        | StmtKind::DoWhile { body, .. }
        | StmtKind::Loop { body }
        | StmtKind::CFor { body, .. } => *body = next(),
        StmtKind::Select { cases, .. } => {
            for c in cases.iter_mut() {
                c.body = next();
            }
        }
        _ => {}
    }
}
