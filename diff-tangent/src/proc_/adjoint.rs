//! Adjoint mode (paper §4.4–4.5, §4.8–4.11, §5.4): the body of `f_b` is a *forward sweep*
//! (the primal statements that the derivatives need, each preceded by the recording of the
//! to-be-recorded values it overwrites, and the control flow recorded where flow merges)
//! followed by a *backward sweep* (the adjoint statements in reverse order, each preceded by
//! the restoration of the values its primal overwrote).
//!
//! Both sweeps are built from the statement tree at once: every rule returns a [`Rev`] pair,
//! and a block's backward sweep is its statements' backward sweeps in reverse order, so the
//! structure of the original stays recognisable in both.
//!
//! The adjoint of an assignment is the *transposition* of its tangent: the tangent
//! `v̇ = Σ cᵢ·ẋᵢ` built by the same rules as tangent mode (one derivative table) is walked
//! from the root to each derivative reference `ẋᵢ`, accumulating the factor `cᵢ`; the
//! adjoint increments `x̄ᵢ += cᵢ·v̄` are then merged per reference (Fig. 11). So tangent and
//! adjoint can never disagree on a partial derivative.
//!
//! Calls are checkpointed (joint mode): the forward sweep runs the original procedure after
//! pushing the snapshot (the values the call overwrites that its adjoint or the adjoint of
//! earlier statements reads: `save` of the dataflow), and the backward sweep restores the
//! snapshot (read twice through a repeat mark), calls `g_b` — which runs its own forward
//! and backward sweeps — and restores the snapshot again for the statements before.

use super::*;

mod jumps;
mod masked;

/// Calls `f` on every statement of the trees rooted at `roots`.
fn subtree(src: &UnitData, roots: &[StmtId], f: &mut dyn FnMut(StmtId)) {
    let mut stack: Vec<StmtId> = roots.to_vec();
    while let Some(x) = stack.pop() {
        f(x);
        radtap_il::visit::stmt_children(&src.stmts[x].kind, &mut |_| {}, &mut |k| stack.push(k));
    }
}

/// The two sweeps of a piece of code, each in execution order.
#[derive(Default)]
pub(super) struct Rev {
    pub(super) fwd: Vec<StmtId>,
    pub(super) bwd: Vec<StmtId>,
}

/// What an assignment writes: a primal reference, or a C variable initialised in its
/// declaration.
#[derive(Clone, Copy)]
enum Target {
    Expr(ExprId),
    Sym(SymbolId),
}

/// How a recorded value is pushed: the runtime type suffix and, for arrays, the element
/// count.
struct Slot {
    /// The reference (built in the output unit; duplicated for each use).
    primal: ExprId,
    /// `Real8`, `Integer4`, …
    suffix: &'static str,
    /// Element count of an array (built in the output unit).
    count: Option<ExprId>,
}

impl<'a> ProcGen<'_, 'a> {
    /// The body of the adjoint procedure.
    pub(super) fn adjoint_body(&mut self) -> Block {
        let mut w = self.pi.zones.empty();
        for e in &self.pi.effects {
            w.union_with(&e.writes);
        }
        self.written_anywhere = w;
        fn walk(src: &UnitData, b: &[StmtId], in_loop: bool, out: &mut HashSet<StmtId>) {
            for &x in b {
                if in_loop {
                    out.insert(x);
                }
                let lp = matches!(
                    src.stmts[x].kind,
                    StmtKind::Do { .. }
                        | StmtKind::While { .. }
                        | StmtKind::DoWhile { .. }
                        | StmtKind::CFor { .. }
                        | StmtKind::Loop { .. }
                );
                let mut kids = Vec::new();
                radtap_il::visit::stmt_children(&src.stmts[x].kind, &mut |_| {}, &mut |k| {
                    kids.push(k)
                });
                walk(src, &kids, in_loop || lp, out);
            }
        }
        let mut in_loop = HashSet::new();
        walk(self.src, &self.src.body, false, &mut in_loop);
        self.in_loop = in_loop;
        // Local pointers freed at the top level: their frees move to the allocation.
        let mut freed = HashSet::new();
        for &st in &self.src.body {
            if let StmtKind::Call { callee, args, .. } = &self.src.stmts[st].kind {
                if self.lang == Lang::C && self.callee_name(*callee) == "free" {
                    if let [a] = args.as_slice() {
                        if let Expr::Name(w) = self.src.exprs[a.value] {
                            freed.insert(w);
                        }
                    }
                }
            }
        }
        self.freed_locals = freed;
        let body = &self.src.body;
        let r = if self.body_has_jumps() {
            self.lower_region(body, true)
        } else {
            self.rev_block(body)
        };
        match self.sweep {
            Sweep::Joint => {
                let mut out = r.fwd;
                let pro = self.bwd_prologue();
                out.extend(pro);
                out.extend(r.bwd);
                let epi = self.bwd_epilogue();
                out.extend(epi);
                out
            }
            Sweep::Fwd => {
                let (push, _) = self.exit_record();
                let mut out = r.fwd;
                out.extend(push);
                if let Some(v) = self.c_return_value.take() {
                    out.push(stmt(&mut self.u, StmtKind::Return(Some(v))));
                }
                out
            }
            Sweep::Bwd => {
                let (_, pop) = self.exit_record();
                let mut out = pop;
                let pro = self.bwd_prologue();
                out.extend(pro);
                out.extend(r.bwd);
                let epi = self.bwd_epilogue();
                out.extend(epi);
                out
            }
        }
    }

    /// Split mode: what the backward sweep reads that may be lost between the sweeps —
    /// locals, and values the procedure writes and does not read first (its callers only
    /// keep the values it reads on entry).
    fn exit_record(&mut self) -> (Vec<StmtId>, Vec<StmtId>) {
        let mut need = self.pi.zones.empty();
        for u in &self.act.deriv_uses {
            need.union_with(u);
        }
        let mut keep = self.pi.summary.writes.clone();
        keep.subtract(&self.pi.summary.reads);
        for (k, o) in &self.pi.zones.objects {
            if let ObjKey::Sym(x) = k {
                if self.own_local(*x) && !self.prog().symbols[*x].attrs.pointer {
                    keep.union_with(&self.pi.zones.obj_set(o));
                }
            }
        }
        need.intersect_with(&keep);
        let sp = self.src.source_map.header.unwrap_or_default();
        self.snapshot_at(sp, &need)
    }

    fn rev_block(&mut self, b: &[StmtId]) -> Rev {
        let mut fwd = Vec::new();
        let mut parts = Vec::new();
        for &s in b {
            let r = self.rev_stmt(s);
            fwd.extend(r.fwd);
            parts.push(r.bwd);
        }
        let bwd = parts.into_iter().rev().flatten().collect();
        Rev { fwd, bwd }
    }

    fn unsupported(&mut self, s: StmtId, what: &str) -> Rev {
        let msg = format!("{what} is not supported in adjoint mode yet");
        self.error(s, Code::Unsupported, &msg);
        Rev::default()
    }

    fn fwd_only(&mut self, s: StmtId) -> Rev {
        Rev {
            fwd: vec![self.copy_stmt(s)],
            bwd: Vec::new(),
        }
    }

    fn rev_stmt(&mut self, s: StmtId) -> Rev {
        let st: &'a Stmt = &self.src.stmts[s];
        if self.needs_lowering(s) {
            return self.lower_region(std::slice::from_ref(&s), false);
        }
        if crate::gen::has_nocheckpoint(&st.directives) {
            let call = match &st.kind {
                StmtKind::Call { .. } => true,
                StmtKind::Assign { rhs, .. } => self.has_active_user_call(*rhs),
                StmtKind::Expr(e) | StmtKind::Return(Some(e)) => self.has_active_user_call(*e),
                _ => false,
            };
            if !call {
                self.warn(s, Code::Directive, "$AD NOCHECKPOINT applies to the call it precedes, and this statement calls no differentiated procedure: it is ignored");
            }
        }
        let mut r = match &st.kind {
            StmtKind::Assign { lhs, op, rhs } => {
                self.adj_assign(s, Target::Expr(*lhs), *op, *rhs, Part::Whole)
            }
            StmtKind::Call { callee, args, .. }
                if self.lang == Lang::C && self.callee_name(*callee) == "free" =>
            {
                self.adj_free(s, args)
            }
            StmtKind::Call { callee, args, .. } => self.adj_call(s, *callee, args),
            StmtKind::If {
                arms, else_block, ..
            } => self.adj_if(s, arms, else_block.as_ref()),
            StmtKind::Select { selector, cases } => self.adj_select(s, *selector, cases),
            StmtKind::Do {
                var,
                start,
                end,
                step,
                body,
                ..
            } => {
                let r = self.adj_do(s, *var, *start, *end, *step, body);
                let pid = self.pi.point_id(Point {
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
            StmtKind::CFor {
                init,
                cond,
                step,
                body,
                ..
            } => self.adj_cfor(s, *init, *cond, *step, body),
            StmtKind::Decl(d) => self.adj_decl(s, d),
            StmtKind::Block { body, decls, .. } if self.lang == Lang::C && decls.is_empty() => {
                self.rev_block(body)
            }
            StmtKind::Return(v) => {
                if Some(&s) != self.src.body.last() {
                    return self.unsupported(s, "a RETURN before the end of the procedure");
                }
                match v {
                    Some(e) if self.lang == Lang::C => self.adj_c_return(s, *e),
                    _ => Rev::default(),
                }
            }
            StmtKind::Expr(e) => self.adj_expr_stmt(s, *e),
            StmtKind::PointerAssign { lhs, .. } if self.lang == Lang::Fortran => {
                self.adj_fortran_pointer_assign(s, *lhs)
            }
            StmtKind::PointerAssign { lhs, rhs } => {
                let mut fwd = vec![self.copy_stmt(s)];
                if let (Some(dl), Some(dr)) =
                    (self.dref(*lhs, Dir::Omit), self.dref(*rhs, Dir::All))
                {
                    fwd.push(stmt(
                        &mut self.u,
                        StmtKind::PointerAssign { lhs: dl, rhs: dr },
                    ));
                }
                Rev {
                    fwd,
                    bwd: Vec::new(),
                }
            }
            StmtKind::Memory { op, items, .. } => self.adj_memory(s, *op, items),
            StmtKind::Io { kind, items, .. } => {
                let mut r = self.fwd_only(s);
                if *kind == IoKind::Read {
                    if let Some(i) = self.pid(s) {
                        for &it in items {
                            if self.active_ref(it, &self.act.active_before[i].clone())
                                || self.active_ref(it, &self.act.active_after[i].clone())
                            {
                                self.warn(s, Code::ActiveIo, "this READ overwrites an active variable: the value read is taken as a constant");
                            }
                            if self.has_dvar_ref(it) {
                                let k = self.real_kind(it);
                                if let Some(d) = self.dref(it, Dir::Nd) {
                                    let z = self.b().zero(k);
                                    r.bwd.push(assign(&mut self.u, d, z));
                                }
                            }
                        }
                    }
                }
                r
            }
            StmtKind::Comment(_)
            | StmtKind::Continue
            | StmtKind::Empty
            | StmtKind::Format(_)
            | StmtKind::Stop { .. } => self.fwd_only(s),
            StmtKind::Where {
                arms, else_block, ..
            } => self.adj_where(s, arms, else_block.as_ref()),
            StmtKind::Forall {
                specs, mask, body, ..
            } => self.adj_forall(s, specs, *mask, body),
            StmtKind::Block { .. } => self.unsupported(s, "a BLOCK construct with declarations"),
            StmtKind::Switch { .. } => self.unsupported(s, "a C switch"),
            StmtKind::Loop { .. } => self.unsupported(s, "a loop without a condition"),
            StmtKind::Exit(_) | StmtKind::Break => self.unsupported(s, "EXIT/break"),
            StmtKind::Cycle(_) | StmtKind::CContinue => self.unsupported(s, "CYCLE/continue"),
            StmtKind::Goto(_) | StmtKind::ComputedGoto { .. } | StmtKind::ArithIf { .. } => {
                self.unsupported(s, "GOTO")
            }
            StmtKind::Entry { .. } => self.unsupported(s, "ENTRY"),
            StmtKind::CaseLabel(_) => self.unsupported(s, "a case label outside a switch"),
        };
        self.report_lost_derivative(s);
        r.fwd = self.move_label(st, std::mem::take(&mut r.fwd));
        r
    }

    // ------------------------------------------------------------------ runtime calls

    /// A call statement to a runtime routine: `call pushreal8(x)` / `pushReal8(x);`.
    fn rt(&mut self, c_name: &str, args: Vec<ExprId>) -> StmtId {
        match self.lang {
            Lang::Fortran => {
                let callee = self.b().opaque(&c_name.to_ascii_lowercase());
                let args = args
                    .into_iter()
                    .map(|value| Arg {
                        keyword: None,
                        value,
                    })
                    .collect();
                stmt(
                    &mut self.u,
                    StmtKind::Call {
                        callee,
                        args,
                        no_parens: false,
                    },
                )
            }
            Lang::C => {
                let c = self.b().call(c_name, args);
                stmt(&mut self.u, StmtKind::Expr(c))
            }
        }
    }

    /// A deep copy of an expression of the output unit.
    fn dup(&mut self, e: ExprId) -> ExprId {
        let mut node = self.u.exprs[e].clone();
        expr_slots(&mut node, &mut |slot| *slot = self.dup(*slot));
        self.u.exprs.alloc(node)
    }

    fn addr_of(&mut self, e: ExprId) -> ExprId {
        if let Expr::Unary {
            op: UnOp::Deref,
            arg,
        } = self.u.exprs[e]
        {
            return arg;
        }
        self.b().e(Expr::Unary {
            op: UnOp::AddrOf,
            arg: e,
        })
    }

    /// Push and pop statements of a slot.
    fn push_pop(&mut self, sl: &Slot) -> (StmtId, StmtId) {
        let (p1, p2) = (self.dup(sl.primal), self.dup(sl.primal));
        let arr = if sl.count.is_some() { "Array" } else { "" };
        let (push_args, pop_args) = match (sl.count, self.lang) {
            (Some(n), _) => {
                let (n1, n2) = (self.dup(n), self.dup(n));
                (vec![p1, n1], vec![p2, n2])
            }
            (None, Lang::Fortran) => (vec![p1], vec![p2]),
            (None, Lang::C) => {
                let a = self.addr_of(p2);
                (vec![p1], vec![a])
            }
        };
        let push = self.rt(&format!("push{}{arr}", sl.suffix), push_args);
        let pop = self.rt(&format!("pop{}{arr}", sl.suffix), pop_args);
        (push, pop)
    }

    fn suffix_of(ty: &Type) -> Option<&'static str> {
        Some(match (ty.base, ty.bytes) {
            (BaseClass::Real, Some(4)) => "Real4",
            (BaseClass::Real, _) => "Real8",
            (BaseClass::Integer | BaseClass::Enum, Some(8)) => "Integer8",
            (BaseClass::Integer | BaseClass::Enum, _) => "Integer4",
            (BaseClass::Logical, _) => "Boolean",
            (BaseClass::Character, _) => "Character",
            _ => return None,
        })
    }

    /// The slot of a primal reference being overwritten.
    fn slot_of_target(&mut self, t: Target) -> Result<Slot, String> {
        match t {
            Target::Sym(s) => self.slot_of_sym(s),
            Target::Expr(e) => {
                let base = radtap_dataflow::zones::base_symbol(self.prog(), self.p, e)
                    .ok_or("a value written through an expression radtap cannot name")?;
                let ty = self.prog().symbols[base]
                    .ty
                    .clone()
                    .ok_or("an untyped variable")?;
                let rank = self.rank_of(e);
                let elem_ty = match self.lang {
                    Lang::C => self.c_elem_type(e),
                    Lang::Fortran => None,
                }
                .unwrap_or_else(|| ty.clone());
                let leaf = self.leaf_type(e);
                if let BaseClass::Record(_) = elem_ty.base {
                    if leaf.is_none() {
                        return Err("recording a whole derived-type value".into());
                    }
                }
                let leaf_ty = leaf.unwrap_or(elem_ty);
                let suffix = Self::suffix_of(&leaf_ty).ok_or("recording a value of this type")?;
                let primal = self.cp(e);
                let count = if rank > 0 {
                    let p = self.cp(e);
                    Some(self.b().call("size", vec![p]))
                } else {
                    None
                };
                Ok(Slot {
                    primal,
                    suffix,
                    count,
                })
            }
        }
    }

    /// The type of the element a C reference designates (`a[i]` of `double a[3]` is a double,
    /// `*p` of `double *p` too).
    fn c_elem_type(&self, e: ExprId) -> Option<Type> {
        let base = radtap_dataflow::zones::base_symbol(self.prog(), self.p, e)?;
        let mut t = self.prog().symbols[base].ty.clone()?;
        match &self.src.exprs[e] {
            Expr::Name(_) => Some(t),
            Expr::Index { .. } | Expr::Unary { .. } => {
                t.dims.clear();
                t.pointers = 0;
                Some(t)
            }
            _ => None,
        }
    }

    /// The type of the leaf a component reference designates (`s%x`, `p->v`).
    fn leaf_type(&self, e: ExprId) -> Option<Type> {
        match &self.src.exprs[e] {
            Expr::Field { base, field, .. } => {
                let td = self.record_of(*base)?;
                self.prog().typedefs[td]
                    .fields
                    .iter()
                    .find_map(|f| match f {
                        Decl::Var(v) => v
                            .entities
                            .iter()
                            .find(|x| {
                                self.prog().symbols[x.sym]
                                    .spelling
                                    .eq_ignore_ascii_case(field)
                            })
                            .and_then(|x| self.prog().symbols[x.sym].ty.clone()),
                        _ => None,
                    })
            }
            Expr::Index { base, .. } if self.lang == Lang::Fortran => self.leaf_type(*base),
            // `p->v[i]`: an element of an array component.
            Expr::Index { base, .. } => {
                let mut t = self.leaf_type(*base)?;
                t.dims.clear();
                Some(t)
            }
            _ => None,
        }
    }

    /// The slot of a whole variable (snapshots).
    fn slot_of_sym(&mut self, s: SymbolId) -> Result<Slot, String> {
        let name = self.name_of(s).to_string();
        let ty = self.prog().symbols[s]
            .ty
            .clone()
            .ok_or_else(|| format!("`{name}` has no type"))?;
        if let BaseClass::Record(_) = ty.base {
            if self.lang == Lang::C {
                return self.c_record_bytes(s, &ty);
            }
            return Err(format!("recording the derived-type variable `{name}`"));
        }
        let suffix =
            Self::suffix_of(&ty).ok_or_else(|| format!("recording `{name}` (its type)"))?;
        let primal = self.b().name(s);
        let count = match (self.lang, ty.dims.is_empty(), ty.pointers) {
            (_, true, 0) => None,
            (Lang::Fortran, false, _) => {
                if ty.dims.iter().any(|d| d.upper == DimUpper::Assumed) {
                    return match self.user_size(s) {
                        Some(n) => Ok(Slot {
                            primal,
                            suffix,
                            count: Some(n?),
                        }),
                        None => Err(format!(
                            "recording the assumed-size array `{name}` needs its element count: give -size {}=N (an expression over integer variables visible in `{}`); it",
                            name.to_ascii_lowercase(),
                            crate::gen::unit_name(self.prog(), self.p)
                        )),
                    };
                }
                let p = self.b().name(s);
                Some(self.b().call("size", vec![p]))
            }
            (Lang::C, false, 0) => {
                let owner = radtap_dataflow::zones::unit_of_scope(
                    self.prog(),
                    self.prog().symbols[s].scope,
                )
                .unwrap_or(self.p);
                let mut n: Option<ExprId> = None;
                for d in &ty.dims {
                    let DimUpper::Expr(x) = d.upper else {
                        return Err(format!("recording the C array `{name}` of unknown size"));
                    };
                    let x = Copier {
                        src: &self.g.prog.units[owner],
                    }
                    .expr(&mut self.u, x);
                    let x = self.paren_if_compound(x);
                    n = Some(match n {
                        None => x,
                        Some(m) => self.b().mul(m, x),
                    });
                }
                if ty.dims.len() > 1 {
                    return Err(format!("recording the multi-dimensional C array `{name}`"));
                }
                n
            }
            (Lang::C, _, _) => match self.user_size(s) {
                Some(n) if ty.pointers == 1 && ty.dims.is_empty() => Some(n?),
                _ => {
                    return Err(format!(
                        "recording what the C pointer `{name}` designates needs its element count: give -size {name}=N (an expression over integer variables visible in `{}`); it",
                        crate::gen::unit_name(self.prog(), self.p)
                    ))
                }
            },
            (Lang::Fortran, true, _) => None,
        };
        Ok(Slot {
            primal,
            suffix,
            count,
        })
    }

    /// A C struct, array of structs or (with `-size`) the structs behind a pointer, recorded
    /// as bytes: `pushCharacterArray((char *)&s, sizeof(s))`.
    fn c_record_bytes(&mut self, s: SymbolId, ty: &Type) -> Result<Slot, String> {
        let name = self.name_of(s).to_string();
        let (primal, count) = match (ty.pointers, ty.dims.is_empty()) {
            (0, true) => (
                self.b().opaque(&format!("(char *)&{name}")),
                self.b().opaque(&format!("sizeof({name})")),
            ),
            (0, false) => (
                self.b().opaque(&format!("(char *){name}")),
                self.b().opaque(&format!("sizeof({name})")),
            ),
            (1, true) => {
                let n = match self.user_size(s) {
                    Some(n) => n?,
                    None => {
                        return Err(format!(
                            "recording the structs the C pointer `{name}` designates needs their count: give -size {name}=N (an expression over integer variables visible in `{}`); it",
                            crate::gen::unit_name(self.prog(), self.p)
                        ))
                    }
                };
                let n = self.paren_if_compound(n);
                let each = self.b().opaque(&format!("sizeof(*{name})"));
                (
                    self.b().opaque(&format!("(char *){name}")),
                    self.b().mul(n, each),
                )
            }
            _ => return Err(format!("recording the derived-type variable `{name}`")),
        };
        Ok(Slot {
            primal,
            suffix: "Character",
            count: Some(count),
        })
    }

    /// Push/pop pairs recording the zones `z` before a statement overwrites them: each
    /// variable of this procedure holding one of them is recorded whole.
    fn snapshot(&mut self, s: StmtId, z: &ZoneSet) -> (Vec<StmtId>, Vec<StmtId>) {
        let sp = self.span(s);
        self.snapshot_at(sp, z)
    }

    fn snapshot_at(&mut self, sp: Span, z: &ZoneSet) -> (Vec<StmtId>, Vec<StmtId>) {
        let mut syms: Vec<SymbolId> = Vec::new();
        let mut covered = self.pi.zones.empty();
        for (k, o) in &self.pi.zones.objects {
            let set = self.pi.zones.obj_set(o);
            if !set.intersects(z) {
                continue;
            }
            match k {
                ObjKey::Sym(x) => {
                    let visible = self.visible(*x);
                    if visible && !syms.contains(x) {
                        syms.push(*x);
                        covered.union_with(&set);
                    }
                }
                ObjKey::Pointee(x) => {
                    // `*p` of a pointer whose element count the user gave: recorded whole
                    // as `p[0 .. size)`.
                    if self.lang == Lang::C
                        && self.visible(*x)
                        && self.user_size_text(*x).is_some()
                        && !syms.contains(x)
                    {
                        syms.push(*x);
                        covered.union_with(&set);
                    }
                }
                ObjKey::Heap(..) => {}
            }
        }
        let mut rest = z.clone();
        rest.subtract(&covered);
        if !rest.is_empty() {
            // Name the pointers whose memory is concerned, so the user knows what to size.
            let mut ptrs: Vec<String> = Vec::new();
            for (k, o) in &self.pi.zones.objects {
                if let ObjKey::Pointee(x) = k {
                    if self.pi.zones.obj_set(o).intersects(&rest) && self.visible(*x) {
                        ptrs.push(self.name_of(*x).to_string());
                    }
                }
            }
            let msg = if ptrs.is_empty() {
                "values the adjoint needs here cannot be recorded (memory not visible in this procedure)".to_string()
            } else {
                format!(
                    "values the adjoint needs here are behind {} of unknown size: give {} (an expression over integer variables visible in `{}`) so they can be recorded",
                    ptrs.iter().map(|p| format!("`{p}`")).collect::<Vec<_>>().join(", "),
                    ptrs.iter().map(|p| format!("-size {p}=N")).collect::<Vec<_>>().join(" "),
                    crate::gen::unit_name(self.prog(), self.p)
                )
            };
            self.g
                .diags
                .push(Diagnostic::error(Code::Unsupported, sp, msg));
            return (Vec::new(), Vec::new());
        }
        syms.sort();
        let (mut push, mut pop) = (Vec::new(), Vec::new());
        for x in syms {
            match self.slot_of_sym(x) {
                Ok(sl) => {
                    let (a, b) = self.push_pop(&sl);
                    push.push(a);
                    pop.insert(0, b);
                }
                Err(m) => {
                    let msg = format!("{m} is not supported in adjoint mode yet");
                    self.g
                        .diags
                        .push(Diagnostic::error(Code::Unsupported, sp, msg));
                }
            }
        }
        (push, pop)
    }

    /// The `-size` text given for variable `s` of this procedure (`y` or `proc.y`).
    fn user_size_text(&self, s: SymbolId) -> Option<String> {
        let name = self.prog().symbols[s].spelling.to_ascii_lowercase();
        let qual = format!(
            "{}.{name}",
            crate::gen::unit_name(self.prog(), self.p).to_ascii_lowercase()
        );
        self.g
            .opts
            .sizes
            .iter()
            .rev()
            .find(|(k, _)| *k == qual)
            .or_else(|| self.g.opts.sizes.iter().rev().find(|(k, _)| *k == name))
            .map(|(_, v)| v.clone())
    }

    /// The element count given by `-size` for `s`, built in the output unit.
    fn user_size(&mut self, s: SymbolId) -> Option<Result<ExprId, String>> {
        let text = self.user_size_text(s)?;
        let name = self.name_of(s).to_string();
        Some(
            self.size_expr(&text)
                .map_err(|e| format!("-size {name}={text}: {e}; recording `{name}`")),
        )
    }

    /// Parses an integer expression (names, integers, `+ - * /`, parentheses) with names
    /// resolved in this procedure.
    fn size_expr(&mut self, text: &str) -> Result<ExprId, String> {
        let toks: Vec<String> = {
            let mut v = Vec::new();
            let cs: Vec<char> = text.chars().collect();
            let mut i = 0;
            while i < cs.len() {
                let c = cs[i];
                if c.is_whitespace() {
                    i += 1;
                } else if c.is_ascii_alphanumeric() || c == '_' {
                    let st = i;
                    while i < cs.len() && (cs[i].is_ascii_alphanumeric() || cs[i] == '_') {
                        i += 1;
                    }
                    v.push(cs[st..i].iter().collect());
                } else if "+-*/()".contains(c) {
                    v.push(c.to_string());
                    i += 1;
                } else {
                    return Err(format!("unexpected `{c}`"));
                }
            }
            v
        };
        let mut pos = 0;
        let e = self.size_sum(&toks, &mut pos)?;
        if pos != toks.len() {
            return Err(format!("unexpected `{}`", toks[pos]));
        }
        Ok(e)
    }

    fn size_sum(&mut self, t: &[String], pos: &mut usize) -> Result<ExprId, String> {
        let mut e = self.size_product(t, pos)?;
        while let Some(op) = t.get(*pos).filter(|x| *x == "+" || *x == "-") {
            let op = if op == "+" { BinOp::Add } else { BinOp::Sub };
            *pos += 1;
            let r = self.size_product(t, pos)?;
            e = self.b().bin(op, e, r);
        }
        Ok(e)
    }

    fn size_product(&mut self, t: &[String], pos: &mut usize) -> Result<ExprId, String> {
        let mut e = self.size_atom(t, pos)?;
        while let Some(op) = t.get(*pos).filter(|x| *x == "*" || *x == "/") {
            let op = if op == "*" { BinOp::Mul } else { BinOp::Div };
            *pos += 1;
            let r = self.size_atom(t, pos)?;
            e = self.b().bin(op, e, r);
        }
        Ok(e)
    }

    fn size_atom(&mut self, t: &[String], pos: &mut usize) -> Result<ExprId, String> {
        let tok = t.get(*pos).cloned().ok_or("incomplete expression")?;
        *pos += 1;
        if tok == "(" {
            let e = self.size_sum(t, pos)?;
            if t.get(*pos).map(String::as_str) != Some(")") {
                return Err("missing `)`".into());
            }
            *pos += 1;
            return Ok(self.b().e(Expr::Paren(e)));
        }
        if let Ok(v) = tok.parse::<i64>() {
            return Ok(self.b().int(v));
        }
        if tok
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        {
            let key = crate::gen::key(self.lang, &tok);
            let sym = self
                .prog()
                .lookup(self.src.scope, &key)
                .filter(|s| {
                    self.prog().symbols[*s]
                        .ty
                        .as_ref()
                        .is_some_and(|t| t.base == BaseClass::Integer && t.dims.is_empty())
                })
                .ok_or_else(|| format!("`{tok}` is not an integer variable visible here"))?;
            return Ok(self.b().name(sym));
        }
        Err(format!("unexpected `{tok}`"))
    }

    /// Whether a variable can be named in this procedure: its own, a parameter, a variable
    /// of a module it uses or lives in, a C global.
    fn visible(&self, x: SymbolId) -> bool {
        if self.src.params.contains(&x) {
            return true;
        }
        let Some(owner) =
            radtap_dataflow::zones::unit_of_scope(self.prog(), self.prog().symbols[x].scope)
        else {
            return false;
        };
        if owner == self.p {
            return true;
        }
        match self.prog().units[owner].kind {
            UnitKind::CFile => true,
            UnitKind::Module => {
                self.src.parent == Some(owner)
                    || self
                        .src
                        .decls
                        .iter()
                        .any(|d| matches!(d, Decl::Use(ui, _) if ui.unit == Some(owner)))
            }
            _ => false,
        }
    }

    /// Zones point `i` must record before it runs.
    fn to_record(&self, i: usize) -> ZoneSet {
        if !self.is_live(i) {
            return self.pi.zones.empty();
        }
        let w = &self.pi.effects[i].writes;
        if self.g.opts.tbr {
            // `save` of the dataflow where the point is live for derivatives; the same
            // formula where it runs anyway.
            let mut need = self.act.tbr_before[i].clone();
            need.union_with(&self.act.deriv_uses[i]);
            need.intersect_with(w);
            need
        } else {
            w.clone()
        }
    }

    /// Whether the primal statement at point `i` runs in the forward sweep. Split sweeps
    /// are not sliced: the forward sweep replaces the primal procedure.
    fn is_live(&self, i: usize) -> bool {
        !self.g.opts.slice_dead
            || self.sweep != Sweep::Joint
            || self.act.live[i]
            || !self.pi.effects[i].sliceable
    }

    // ------------------------------------------------------------------ assignments

    fn t_zones(&self, t: Target) -> Option<ZoneSet> {
        match t {
            Target::Expr(e) => self.g.info.ref_zones(self.prog(), self.p, e),
            Target::Sym(s) => self.pi.zones.sym_zones(s),
        }
    }

    fn t_in(&self, t: Target, set: &ZoneSet) -> bool {
        self.t_zones(t).is_some_and(|z| z.intersects(set))
    }

    fn t_base(&self, t: Target) -> Option<SymbolId> {
        match t {
            Target::Expr(e) => radtap_dataflow::zones::base_symbol(self.prog(), self.p, e),
            Target::Sym(s) => Some(s),
        }
    }

    fn t_dref(&mut self, t: Target) -> Option<ExprId> {
        match t {
            Target::Expr(e) => self.dref(e, Dir::Nd),
            Target::Sym(s) => {
                let d = *self.dvar.get(&s)?;
                Some(self.b().name(d))
            }
        }
    }

    fn t_kind(&self, t: Target) -> u32 {
        match t {
            Target::Expr(e) => self.real_kind(e),
            Target::Sym(s) => self.bytes_of_sym(s),
        }
    }

    fn t_rank(&self, t: Target) -> usize {
        match t {
            Target::Expr(e) => self.rank_of(e),
            Target::Sym(_) => 0,
        }
    }

    /// Whether two primal references are the same access path, written alike.
    fn same_src(&self, a: ExprId, b: ExprId) -> bool {
        let (x, y) = (&self.src.exprs[a], &self.src.exprs[b]);
        match (x, y) {
            (Expr::Name(p), Expr::Name(q)) => p == q,
            (Expr::Literal(p), Expr::Literal(q)) => p.text == q.text,
            (Expr::Paren(p), Expr::Paren(q)) => self.same_src(*p, *q),
            (
                Expr::Field {
                    base: b1,
                    field: f1,
                    arrow: a1,
                },
                Expr::Field {
                    base: b2,
                    field: f2,
                    arrow: a2,
                },
            ) => a1 == a2 && f1.eq_ignore_ascii_case(f2) && self.same_src(*b1, *b2),
            (Expr::Unary { op: o1, arg: x1 }, Expr::Unary { op: o2, arg: x2 }) => {
                o1 == o2 && self.same_src(*x1, *x2)
            }
            (
                Expr::Binary {
                    op: o1,
                    lhs: l1,
                    rhs: r1,
                },
                Expr::Binary {
                    op: o2,
                    lhs: l2,
                    rhs: r2,
                },
            ) => o1 == o2 && self.same_src(*l1, *l2) && self.same_src(*r1, *r2),
            (Expr::Index { base: b1, subs: s1 }, Expr::Index { base: b2, subs: s2 }) => {
                self.same_src(*b1, *b2)
                    && s1.len() == s2.len()
                    && s1.iter().zip(s2).all(|(p, q)| match (p, q) {
                        (Subscript::Index(p), Subscript::Index(q)) => self.same_src(*p, *q),
                        (Subscript::Range(a1, b1, c1), Subscript::Range(a2, b2, c2)) => {
                            let same = |x: &Option<ExprId>, y: &Option<ExprId>| match (x, y) {
                                (None, None) => true,
                                (Some(x), Some(y)) => self.same_src(*x, *y),
                                _ => false,
                            };
                            same(a1, a2) && same(b1, b2) && same(c1, c2)
                        }
                        _ => false,
                    })
            }
            _ => false,
        }
    }

    /// Whether two expressions of the output unit are the same, written alike.
    fn same_out(&self, a: ExprId, b: ExprId) -> bool {
        let (x, y) = (&self.u.exprs[a], &self.u.exprs[b]);
        if std::mem::discriminant(x) != std::mem::discriminant(y) {
            return false;
        }
        match (x, y) {
            (Expr::Name(p), Expr::Name(q)) => p == q,
            (Expr::Literal(p), Expr::Literal(q)) => p.text == q.text,
            (Expr::Opaque(p), Expr::Opaque(q)) => p == q,
            (
                Expr::Field {
                    field: f1,
                    arrow: a1,
                    ..
                },
                Expr::Field {
                    field: f2,
                    arrow: a2,
                    ..
                },
            ) if f1 != f2 || a1 != a2 => false,
            (Expr::Unary { op: o1, .. }, Expr::Unary { op: o2, .. }) if o1 != o2 => false,
            (Expr::Binary { op: o1, .. }, Expr::Binary { op: o2, .. }) if o1 != o2 => false,
            (Expr::Index { subs: s1, .. }, Expr::Index { subs: s2, .. })
                if s1.len() != s2.len()
                    || s1
                        .iter()
                        .zip(s2)
                        .any(|(p, q)| std::mem::discriminant(p) != std::mem::discriminant(q)) =>
            {
                false
            }
            (Expr::Literal(_) | Expr::Name(_) | Expr::Opaque(_), _) => true,
            _ => {
                let (mut ka, mut kb) = (Vec::new(), Vec::new());
                radtap_il::visit::expr_children(x, &mut |k| ka.push(k));
                radtap_il::visit::expr_children(y, &mut |k| kb.push(k));
                ka.len() == kb.len() && ka.iter().zip(&kb).all(|(p, q)| self.same_out(*p, *q))
            }
        }
    }

    fn has_marker(&self, e: ExprId, marks: &HashSet<ExprId>) -> bool {
        if marks.contains(&e) {
            return true;
        }
        let mut kids = Vec::new();
        radtap_il::visit::expr_children(&self.u.exprs[e], &mut |k| kids.push(k));
        kids.into_iter().any(|k| self.has_marker(k, marks))
    }

    /// Transposes the linear form `t` (a tangent in the derivative references `marks`):
    /// pushes `(marker, contribution)` for `seed` flowing back into each marker.
    fn transpose(
        &mut self,
        t: ExprId,
        seed: ExprId,
        seed_rank: usize,
        marks: &HashSet<ExprId>,
        out: &mut Vec<(ExprId, ExprId, usize)>,
    ) -> Result<(), String> {
        if marks.contains(&t) {
            out.push((t, seed, seed_rank));
            return Ok(());
        }
        if !self.has_marker(t, marks) {
            return Ok(());
        }
        let node = self.u.exprs[t].clone();
        match node {
            Expr::Paren(a)
            | Expr::Unary {
                op: UnOp::Plus,
                arg: a,
            } => self.transpose(a, seed, seed_rank, marks, out),
            Expr::Unary { op: UnOp::Neg, arg } => {
                let s = self.b().factor(seed);
                let s = self.b().neg(s);
                self.transpose(arg, s, seed_rank, marks, out)
            }
            Expr::Binary { op, lhs, rhs } => {
                let (ml, mr) = (self.has_marker(lhs, marks), self.has_marker(rhs, marks));
                match op {
                    BinOp::Add | BinOp::Sub => {
                        if ml {
                            let s = if mr { self.dup(seed) } else { seed };
                            self.transpose(lhs, s, seed_rank, marks, out)?;
                        }
                        if mr {
                            let s = if op == BinOp::Sub {
                                let s = self.b().factor(seed);
                                self.b().neg(s)
                            } else {
                                seed
                            };
                            self.transpose(rhs, s, seed_rank, marks, out)?;
                        }
                        Ok(())
                    }
                    BinOp::Mul if ml != mr => {
                        let (m, other) = if ml { (lhs, rhs) } else { (rhs, lhs) };
                        let f = self.dup(other);
                        let f = self.paren_if_compound(f);
                        let sd = self.b().factor(seed);
                        let s = self.b().mul(f, sd);
                        self.transpose(m, s, seed_rank, marks, out)
                    }
                    BinOp::Div if ml && !mr => {
                        let d = self.dup(rhs);
                        let d = self.paren_if_compound(d);
                        let sd = self.b().factor(seed);
                        let s = self.b().div(sd, d);
                        self.transpose(lhs, s, seed_rank, marks, out)
                    }
                    _ => Err("a derivative that is not linear in its tangents".into()),
                }
            }
            Expr::Cond { cond, then, else_ } => {
                for (branch, first) in [(then, true), (else_, false)] {
                    if !self.has_marker(branch, marks) {
                        continue;
                    }
                    let c = self.dup(cond);
                    let s = self.dup(seed);
                    let z = self.b().zero(8);
                    let (a, b) = if first { (s, z) } else { (z, s) };
                    let s = self.b().e(Expr::Cond {
                        cond: c,
                        then: a,
                        else_: b,
                    });
                    let s = self.b().e(Expr::Paren(s));
                    self.transpose(branch, s, seed_rank, marks, out)?;
                }
                Ok(())
            }
            Expr::Call { callee, args } => {
                let name = match &self.u.exprs[callee] {
                    Expr::Opaque(n) => n.to_ascii_lowercase(),
                    Expr::Name(s) => self.g.out.symbols[*s].spelling.to_ascii_lowercase(),
                    _ => String::new(),
                };
                match name.as_str() {
                    "real" | "dble" | "float" | "sngl" | "dfloat" if !args.is_empty() => {
                        self.transpose(args[0].value, seed, seed_rank, marks, out)
                    }
                    "sum" if args.len() == 1 => self.transpose(args[0].value, seed, 0, marks, out),
                    // sum(a, dim=k): the seed spread back along dimension k.
                    // sum(a, mask=m): the seed where m holds.
                    "sum"
                        if args.len() == 2
                            && args[1]
                                .keyword
                                .as_deref()
                                .is_some_and(|k| k.eq_ignore_ascii_case("mask")) =>
                    {
                        let a = args[0].value;
                        let m = self.dup(args[1].value);
                        let z = self.b().zero(8);
                        let r = self.out_rank(a);
                        let s = self.b().call("merge", vec![seed, z, m]);
                        self.transpose(a, s, r, marks, out)
                    }
                    "sum" if args.len() == 2 => {
                        let a = args[0].value;
                        let k = self.dup(args[1].value);
                        let (a1, k2) = (self.dup(a), self.dup(k));
                        let n = self.b().call("size", vec![a1, k2]);
                        let r = self.out_rank(a);
                        let s = self.b().call("spread", vec![seed, k, n]);
                        self.transpose(a, s, r, marks, out)
                    }
                    "transpose" if args.len() == 1 => {
                        let s = self.b().call("transpose", vec![seed]);
                        self.transpose(args[0].value, s, 2, marks, out)
                    }
                    "matmul" if args.len() == 2 => {
                        let (a, b) = (args[0].value, args[1].value);
                        let (ra, rb) = (self.out_rank(a), self.out_rank(b));
                        let first = self.has_marker(a, marks);
                        if first && self.has_marker(b, marks) {
                            return Err("the adjoint of `matmul` of two tangents".into());
                        }
                        let other = self.dup(if first { b } else { a });
                        let s = match (first, ra, rb) {
                            // u = A v: Ā += ū vᵀ;  v̄ += Aᵀ ū.
                            (true, 2, 1) => self.outer(seed, other),
                            (false, 2, 1) | (false, 2, 2) => {
                                let t = self.b().call("transpose", vec![other]);
                                self.b().call("matmul", vec![t, seed])
                            }
                            // t = v A: v̄ += A t̄;  Ā += v t̄ᵀ.
                            (true, 1, 2) => self.b().call("matmul", vec![other, seed]),
                            (false, 1, 2) => self.outer(other, seed),
                            // C = A B: Ā += C̄ Bᵀ.
                            (true, 2, 2) => {
                                let t = self.b().call("transpose", vec![other]);
                                self.b().call("matmul", vec![seed, t])
                            }
                            _ => return Err("the adjoint of this `matmul`".into()),
                        };
                        let (m, r) = if first { (a, ra) } else { (b, rb) };
                        self.transpose(m, s, r, marks, out)
                    }
                    "merge" if args.len() == 3 => {
                        for k in 0..2 {
                            let a = args[k].value;
                            if !self.has_marker(a, marks) {
                                continue;
                            }
                            let s = self.dup(seed);
                            let z = self.b().zero(8);
                            let m = self.dup(args[2].value);
                            let s = if k == 0 {
                                self.b().call("merge", vec![s, z, m])
                            } else {
                                self.b().call("merge", vec![z, s, m])
                            };
                            self.transpose(a, s, seed_rank, marks, out)?;
                        }
                        Ok(())
                    }
                    "dot_product" if args.len() == 2 => {
                        let (a, b) = (args[0].value, args[1].value);
                        let (m, other) = if self.has_marker(a, marks) {
                            (a, b)
                        } else {
                            (b, a)
                        };
                        let f = self.dup(other);
                        let sd = self.b().factor(seed);
                        let s = self.b().mul(f, sd);
                        self.transpose(m, s, 1, marks, out)
                    }
                    _ => Err(format!("the adjoint of `{name}`")),
                }
            }
            _ => Err("the adjoint of this expression".into()),
        }
    }

    /// The outer product `p qᵀ` of two rank-1 expressions.
    fn outer(&mut self, p: ExprId, q: ExprId) -> ExprId {
        let (p2, q2) = (self.dup(p), self.dup(q));
        let (two, one) = (self.b().int(2), self.b().int(1));
        let nq = self.b().call("size", vec![q2]);
        let np = self.b().call("size", vec![p2]);
        let sp = self.b().call("spread", vec![p, two, nq]);
        let sq = self.b().call("spread", vec![q, one, np]);
        self.b().mul(sp, sq)
    }

    /// Rank of an expression of the output unit (Fortran).
    fn out_rank(&self, e: ExprId) -> usize {
        match &self.u.exprs[e] {
            Expr::Name(s) => self.g.out.symbols[*s]
                .ty
                .as_ref()
                .map_or(0, |t| t.dims.len()),
            Expr::Index { base, subs } => {
                let r = subs
                    .iter()
                    .filter(|s| matches!(s, Subscript::Range(..)))
                    .count();
                if r > 0 || matches!(self.u.exprs[*base], Expr::Name(_)) {
                    r
                } else {
                    self.out_rank(*base)
                }
            }
            Expr::Paren(a) | Expr::Unary { arg: a, .. } => self.out_rank(*a),
            Expr::Binary { lhs, rhs, .. } => self.out_rank(*lhs).max(self.out_rank(*rhs)),
            Expr::Call { callee, args } => {
                let name = match &self.u.exprs[*callee] {
                    Expr::Opaque(n) => n.to_ascii_lowercase(),
                    Expr::Name(s) => self.g.out.symbols[*s].spelling.to_ascii_lowercase(),
                    _ => String::new(),
                };
                let ra = |k: usize| args.get(k).map_or(0, |a| self.out_rank(a.value));
                match name.as_str() {
                    "transpose" => 2,
                    "matmul" => (ra(0) + ra(1)).saturating_sub(2).max(1),
                    "sum" | "product" | "maxval" | "minval" if args.len() == 1 => 0,
                    "sum" | "product" | "maxval" | "minval" => ra(0).saturating_sub(1),
                    "dot_product" | "size" => 0,
                    "spread" => ra(0) + 1,
                    _ => ra(0),
                }
            }
            _ => 0,
        }
    }

    /// `lhs (op)= rhs` at point `part` of `s`: forward sweep (record, primal), backward sweep
    /// (restore, adjoint increments, reset).
    fn adj_assign(
        &mut self,
        s: StmtId,
        lhs: Target,
        op: Option<BinOp>,
        rhs: ExprId,
        part: Part,
    ) -> Rev {
        let Some(i) = self.pi.point_id(Point { stmt: s, part }) else {
            return self.fwd_only(s);
        };
        if let Target::Expr(l) = lhs {
            if let Some(q) = self.pointer_var(l) {
                return self.adj_pointer_move(s, q, PointerMove::Assign { op, rhs });
            }
        }
        self.cur = self.act.active_before[i].clone();
        self.hoisted.clear();
        let mut h = Hoisted::default();
        self.adj_hoist(s, rhs, &mut h);
        // C chained assignment `a = b = e`: every target receives the value of `e`, so
        // backwards each target's adjoint flows into `e` in turn. `e` must not read a target
        // (then the targets would not all hold the same function of the inputs).
        let mut targets = vec![lhs];
        let mut value = rhs;
        while let Expr::Assign {
            op: inner_op,
            lhs: l2,
            rhs: r2,
        } = self.src.exprs[value]
        {
            if op.is_some() || inner_op.is_some() {
                return self.unsupported(s, "a chained compound C assignment");
            }
            targets.push(Target::Expr(l2));
            value = r2;
        }
        if targets.len() > 1 {
            let bases: Vec<SymbolId> = targets
                .iter()
                .filter_map(|t| match t {
                    Target::Sym(x) => Some(*x),
                    Target::Expr(e) => radtap_dataflow::zones::base_symbol(self.prog(), self.p, *e),
                })
                .collect();
            let mut reads_target = false;
            let mut stack = vec![value];
            while let Some(x) = stack.pop() {
                reads_target |= matches!(self.src.exprs[x], Expr::Name(n) if bases.contains(&n));
                radtap_il::visit::expr_children(&self.src.exprs[x], &mut |k| stack.push(k));
            }
            if reads_target || bases.len() != targets.len() {
                return self.unsupported(
                    s,
                    "a chained C assignment whose value reads one of its targets",
                );
            }
        }
        let mut r = Rev {
            fwd: std::mem::take(&mut h.fwd),
            bwd: Vec::new(),
        };
        let rec = self.to_record(i);
        if !rec.is_empty() {
            for &t in &targets {
                match self.slot_of_target(t) {
                    Ok(sl) => {
                        let (a, b) = self.push_pop(&sl);
                        r.fwd.push(a);
                        r.bwd.insert(0, b);
                    }
                    Err(m) => {
                        let msg = format!("{m} is not supported in adjoint mode yet");
                        self.error(s, Code::Unsupported, &msg);
                    }
                }
            }
        }
        if self.is_live(i) {
            let st = match lhs {
                Target::Expr(l) => self.primal_assign(s, l, op, rhs),
                Target::Sym(sym) => {
                    let l = self.b().name(sym);
                    let rr = self.cp(rhs);
                    assign(&mut self.u, l, rr)
                }
            };
            r.fwd.push(st);
        }
        let mut adj = Vec::new();
        for &t in &targets {
            adj.extend(self.adjoint_increments(s, i, t, op, value));
        }
        if !h.calls.is_empty() && !adj.is_empty() {
            r.bwd.extend(std::mem::take(&mut h.recompute));
            r.bwd.extend(std::mem::take(&mut h.zero));
        }
        let any = !adj.is_empty();
        r.bwd.extend(adj);
        if any {
            r.bwd.extend(std::mem::take(&mut h.calls));
        }
        self.hoisted.clear();
        r
    }

    /// References to differentiated functions in `e` (innermost first): `t = f(a)` runs
    /// before the statement, which reads `t`; backwards, `t` is recomputed, its adjoint
    /// `t̄` collects the statement's contributions, and `f_b(a, ā, t̄)` propagates them.
    fn adj_hoist(&mut self, s: StmtId, e: ExprId, h: &mut Hoisted) {
        let node = &self.src.exprs[e];
        let mut kids = Vec::new();
        radtap_il::visit::expr_children(node, &mut |k| kids.push(k));
        for k in kids {
            self.adj_hoist(s, k, h);
        }
        let Some((c, r)) = self.differentiated_function(s, e) else {
            return;
        };
        let Expr::Call { args, .. } = &self.src.exprs[e] else {
            return;
        };
        let (t, tb, bytes) = self.result_temps(c, r);
        let (mut c1, c2) = (self.cp(e), self.cp(e));
        let split = self.g.split_call(c, &self.src.stmts[s].directives);
        let external = self.prog().units[c].parent.is_none() && c != self.p;
        if let Some(&copy) = self.g.primal_copies.get(&c) {
            let targets = if split.is_some() {
                vec![c2]
            } else {
                vec![c1, c2]
            };
            for x in targets {
                let n = self.b().name(copy);
                if let Expr::Call { callee, .. } = &mut self.u.exprs[x] {
                    *callee = n;
                }
            }
            if self.lang == Lang::Fortran
                && external
                && !self.extern_funcs.iter().any(|x| x.0 == copy)
            {
                self.extern_funcs.push((copy, bytes));
            }
        }
        if let Some((f, _)) = split {
            let fname = self.b().name(f);
            if let Expr::Call { callee, .. } = &mut self.u.exprs[c1] {
                *callee = fname;
            }
            if self.lang == Lang::Fortran && external && !self.extern_funcs.iter().any(|x| x.0 == f)
            {
                self.extern_funcs.push((f, bytes));
            }
            c1 = self.paren_if_compound(c1);
        }
        let (t1, t2) = (self.b().name(t), self.b().name(t));
        h.fwd.push(assign(&mut self.u, t1, c1));
        h.recompute.push(assign(&mut self.u, t2, c2));
        let tbl = self.b().name(tb);
        let z = self.b().zero(bytes);
        h.zero.push(assign(&mut self.u, tbl, z));
        let mut pre = Vec::new();
        let mut post = Vec::new();
        let mut new_args = self.adjoint_args(s, c, args, &mut pre, &mut post);
        let tbn = self.b().name(tb);
        new_args.push(Arg {
            keyword: None,
            value: tbn,
        });
        let callee = {
            let v = split.map_or(self.g.dproc[&c], |x| x.1);
            self.b().name(v)
        };
        let mut calls = pre;
        calls.push(match self.lang {
            Lang::Fortran => stmt(
                &mut self.u,
                StmtKind::Call {
                    callee,
                    args: new_args,
                    no_parens: false,
                },
            ),
            Lang::C => {
                let call = self.b().e(Expr::Call {
                    callee,
                    args: new_args,
                });
                stmt(&mut self.u, StmtKind::Expr(call))
            }
        });
        calls.extend(post);
        // Outermost first backwards.
        calls.append(&mut h.calls);
        h.calls = calls;
        self.hoisted.insert(e, (t, Some(tb)));
    }

    /// Whether `e` references a procedure that has a derivative version.
    fn has_active_user_call(&self, e: ExprId) -> bool {
        let sites = self.g.info.callgraph.sites_of(self.p);
        let mut found = false;
        let mut stack = vec![e];
        while let Some(x) = stack.pop() {
            if let Expr::Call { .. } = self.src.exprs[x] {
                if sites.iter().any(|c| {
                    c.expr == Some(x)
                        && matches!(&c.callee, Callee::Defined(l) if l.iter().any(|u| self.g.active.contains(u)))
                }) {
                    found = true;
                }
            }
            radtap_il::visit::expr_children(&self.src.exprs[x], &mut |k| stack.push(k));
        }
        found
    }

    /// The adjoint statements of `lhs (op)= rhs` at point `i`.
    fn adjoint_increments(
        &mut self,
        s: StmtId,
        i: usize,
        lhs: Target,
        op: Option<BinOp>,
        rhs: ExprId,
    ) -> Vec<StmtId> {
        let has = self.t_base(lhs).is_some_and(|b| self.dvar.contains_key(&b));
        if !has {
            return Vec::new();
        }
        let after = self.act.active_after[i].clone();
        let before = self.act.active_before[i].clone();
        let active = self.t_in(lhs, &after);
        let useful = self.t_in(lhs, &self.act.useful_after[i].clone());
        if !active && !self.t_in(lhs, &before) && !useful {
            return Vec::new();
        }
        let Some(ld) = self.t_dref(lhs) else {
            return Vec::new();
        };
        let k = self.t_kind(lhs);
        let mut out = Vec::new();
        if !active {
            let z = self.b().zero(k);
            out.push(assign(&mut self.u, ld, z));
            return out;
        }
        self.markers = Some(Vec::new());
        let t = match (op, lhs) {
            (None, _) => self.tan(rhs),
            (Some(o), Target::Expr(l)) => self.tan_binary(o, l, rhs, None),
            (Some(_), Target::Sym(_)) => None,
        };
        let marks = self.markers.take().unwrap_or_default();
        let Some(t) = t else {
            let z = self.b().zero(k);
            out.push(assign(&mut self.u, ld, z));
            return out;
        };
        // Self reference (`v = v*x`), or another reference to the same variable that may
        // alias the target (`a(i) = a(j)*x`): then the seed is copied first.
        let lbase = self.t_base(lhs);
        let mut self_marks = HashSet::new();
        let mut alias = false;
        let lz = self.t_zones(lhs);
        for &(m, src_ref) in &marks {
            let same_base =
                radtap_dataflow::zones::base_symbol(self.prog(), self.p, src_ref) == lbase;
            let overlap = match (&lz, self.g.info.ref_zones(self.prog(), self.p, src_ref)) {
                (Some(a), Some(b)) => a.intersects(&b),
                _ => same_base,
            };
            if !overlap {
                continue;
            }
            let identical = match lhs {
                Target::Expr(l) => self.same_src(l, src_ref),
                Target::Sym(sym) => matches!(self.src.exprs[src_ref], Expr::Name(x) if x == sym),
            };
            if identical {
                self_marks.insert(m);
            } else {
                alias = true;
            }
        }
        let rank = self.t_rank(lhs);
        let seed = if alias {
            if rank > 0 {
                self.error(s, Code::Unsupported, "an array assignment whose right side overlaps its left side is not supported in adjoint mode yet");
                return out;
            }
            let tmp = self.temp(
                "tempb",
                TempKind::Real {
                    bytes: k,
                    deriv: true,
                },
            );
            let tn = self.b().name(tmp);
            let l2 = self.dup(ld);
            out.push(assign(&mut self.u, tn, l2));
            let l3 = self.dup(ld);
            let z = self.b().zero(k);
            out.push(assign(&mut self.u, l3, z));
            self_marks.clear();
            self.b().name(tmp)
        } else {
            self.dup(ld)
        };
        let Some((incs, self_group)) = self.scatter(s, t, seed, rank, &marks, &self_marks) else {
            return out;
        };
        out.extend(incs);
        match self_group {
            Some(cs) => {
                // v̄ = (∂v/∂v)·v̄, skipped when it is the identity (`v += x`).
                let identity = cs.len() == 1 && self.same_out(cs[0], ld);
                if !identity {
                    let mut sum = None;
                    for c in cs {
                        sum = self.b().add_opt(sum, Some(c));
                    }
                    if let Some(v) = sum {
                        let l = self.dup(ld);
                        out.push(assign(&mut self.u, l, v));
                    }
                }
            }
            None if !alias => {
                let z = self.b().zero(k);
                out.push(assign(&mut self.u, ld, z));
            }
            None => {}
        }
        out
    }

    /// The adjoint increments of the tangent `t` (with derivative references `marks`) for
    /// `seed` of rank `seed_rank`: `x̄ = x̄ + Σ cᵢ·seed`, merged per reference in order of
    /// first appearance. The contributions to a reference in `self_marks` (the assigned
    /// variable itself) are returned instead. `None` (and an error) when the tangent cannot
    /// be transposed.
    #[allow(clippy::type_complexity)]
    fn scatter(
        &mut self,
        s: StmtId,
        t: ExprId,
        seed: ExprId,
        seed_rank: usize,
        marks: &[(ExprId, ExprId)],
        self_marks: &HashSet<ExprId>,
    ) -> Option<(Vec<StmtId>, Option<Vec<ExprId>>)> {
        let mset: HashSet<ExprId> = marks.iter().map(|m| m.0).collect();
        let mut contribs = Vec::new();
        if let Err(what) = self.transpose(t, seed, seed_rank, &mset, &mut contribs) {
            let msg = format!("{what} is not supported in adjoint mode yet");
            self.error(s, Code::Unsupported, &msg);
            return None;
        }
        let mut groups: Vec<(ExprId, Vec<ExprId>, bool)> = Vec::new();
        for (m, c, srank) in contribs {
            // An array seed flowing into a scalar: summed.
            let src_ref = marks.iter().find(|x| x.0 == m).map(|x| x.1);
            let mrank = src_ref.map_or(0, |r| self.rank_of(r));
            let c = if self.lang == Lang::Fortran && srank > 0 && mrank == 0 {
                self.b().call("sum", vec![c])
            } else {
                c
            };
            match groups.iter_mut().find(|g| self.same_out(g.0, m)) {
                Some(g) => g.1.push(c),
                None => groups.push((m, vec![c], self_marks.contains(&m))),
            }
        }
        let mut incs = Vec::new();
        let mut self_group = None;
        for (m, cs, is_self) in groups {
            if is_self {
                self_group = Some(cs);
                continue;
            }
            let target = self.dup(m);
            let mut sum = self.dup(m);
            for c in cs {
                sum = self.b().add(sum, c);
            }
            incs.push(assign(&mut self.u, target, sum));
        }
        Some((incs, self_group))
    }

    /// C `return e` at the end of a function: the adjoint of `f = e` with the result
    /// adjoint as seed.
    fn adj_c_return(&mut self, s: StmtId, e: ExprId) -> Rev {
        if self.sweep == Sweep::Fwd {
            self.c_return_value = Some(self.cp(e));
        }
        let Some(r) = self.src.result else {
            return Rev::default();
        };
        if !self.dvar.contains_key(&r) {
            return Rev::default();
        }
        let Some(i) = self.pid(s) else {
            return Rev::default();
        };
        self.cur = self.act.active_before[i].clone();
        self.hoisted.clear();
        let mut h = Hoisted::default();
        self.adj_hoist(s, e, &mut h);
        self.markers = Some(Vec::new());
        let t = self.tan(e);
        let marks = self.markers.take().unwrap_or_default();
        let mut bwd = Vec::new();
        if let Some(t) = t {
            let seed = {
                let d = self.dvar[&r];
                self.b().name(d)
            };
            if let Some((incs, _)) = self.scatter(s, t, seed, 0, &marks, &HashSet::new()) {
                bwd = incs;
            }
        }
        self.hoisted.clear();
        let mut all = h.recompute;
        all.extend(h.zero);
        all.extend(bwd);
        all.extend(h.calls);
        Rev {
            fwd: Vec::new(),
            bwd: all,
        }
    }

    /// A C expression statement (`i++;`, `f(x);` without a result).
    fn adj_expr_stmt(&mut self, s: StmtId, e: ExprId) -> Rev {
        self.check_side_effects(s);
        if let Some(r) = self.adj_c_effects(s, e, Part::Whole) {
            return r;
        }
        let Some(i) = self.pid(s) else {
            return self.fwd_only(s);
        };
        if self.act.has_derivative[i] {
            return self.unsupported(s, "an expression statement with an active side effect");
        }
        let mut r = Rev::default();
        let rec = self.to_record(i);
        if !rec.is_empty() {
            let target = match &self.src.exprs[e] {
                Expr::IncDec { arg, .. } => Some(*arg),
                Expr::Assign { lhs, .. } => Some(*lhs),
                _ => None,
            };
            match target.map(|t| self.slot_of_target(Target::Expr(t))) {
                Some(Ok(sl)) => {
                    let (a, b) = self.push_pop(&sl);
                    r.fwd.push(a);
                    r.bwd.push(b);
                }
                _ => {
                    self.error(s, Code::Unsupported, "recording the value this expression overwrites is not supported in adjoint mode yet");
                }
            }
        }
        if self.is_live(i) {
            r.fwd.push(self.copy_stmt(s));
        }
        r
    }

    /// C side effects on pointers, alone or in a comma expression (`p++`, `q += 2`,
    /// `p = x, q = y`): each pointer move is run on the pointer and its derivative, both
    /// recorded before. `None` when `e` moves no pointer.
    fn adj_c_effects(&mut self, s: StmtId, e: ExprId, part: Part) -> Option<Rev> {
        if self.lang != Lang::C {
            return None;
        }
        let parts: Vec<ExprId> = match &self.src.exprs[e] {
            Expr::Comma(v) => v.clone(),
            _ => vec![e],
        };
        let moves: Vec<Option<(SymbolId, PointerMove)>> = parts
            .iter()
            .map(|&x| match self.src.exprs[x] {
                Expr::IncDec { inc, prefix, arg } => self
                    .pointer_var(arg)
                    .map(|q| (q, PointerMove::Step { inc, prefix })),
                Expr::Assign { op, lhs, rhs } => self
                    .pointer_var(lhs)
                    .map(|q| (q, PointerMove::Assign { op, rhs })),
                _ => None,
            })
            .collect();
        if moves.iter().all(|m| m.is_none()) {
            return None;
        }
        let rec = match self.pi.point_id(Point { stmt: s, part }) {
            Some(i) => self.to_record(i),
            None => self.pi.zones.empty(),
        };
        let mut r = Rev::default();
        for (x, m) in parts.into_iter().zip(moves) {
            let mut p = Rev::default();
            match m {
                Some((q, mv)) => p = self.adj_pointer_move(s, q, mv),
                None => {
                    // An integer it overwrites is recorded like any other; a real value
                    // would need its adjoint, which a comma expression does not get.
                    let target = match self.src.exprs[x] {
                        Expr::IncDec { arg, .. } | Expr::Assign { lhs: arg, .. } => Some(arg),
                        _ => None,
                    };
                    if let Some(t) = target {
                        let ty = self.leaf_type(t).or_else(|| self.c_elem_type(t));
                        if !ty.is_some_and(|t| t.base == BaseClass::Integer) {
                            return Some(self.unsupported(
                                s,
                                "a comma expression that moves pointers and overwrites values",
                            ));
                        }
                        if self.t_in(Target::Expr(t), &rec) {
                            match self.slot_of_target(Target::Expr(t)) {
                                Ok(sl) => {
                                    let (a, b) = self.push_pop(&sl);
                                    p.fwd.push(a);
                                    p.bwd.push(b);
                                }
                                Err(m) => {
                                    let msg = format!("{m} is not supported in adjoint mode yet");
                                    return Some(self.unsupported(s, &msg));
                                }
                            }
                        }
                    }
                    let c = self.cp(x);
                    p.fwd.push(stmt(&mut self.u, StmtKind::Expr(c)));
                }
            }
            r.fwd.extend(p.fwd);
            let mut b = p.bwd;
            b.append(&mut r.bwd);
            r.bwd = b;
        }
        Some(r)
    }

    /// The C pointer variable `e` names, if it does.
    fn pointer_var(&self, e: ExprId) -> Option<SymbolId> {
        let Expr::Name(q) = self.src.exprs[e] else {
            return None;
        };
        if self.lang != Lang::C {
            return None;
        }
        let t = self.prog().symbols[q].ty.as_ref()?;
        (t.pointers > 0 && t.dims.is_empty()).then_some(q)
    }

    /// `p = e`, `p += k`, `p++` on a C pointer: forwards, the pointer and its derivative
    /// are recorded, then both move; backwards, both are restored.
    fn adj_pointer_move(&mut self, s: StmtId, q: SymbolId, mv: PointerMove) -> Rev {
        let mut r = Rev::default();
        let dq = self.dvar.get(&q).copied();
        let mut ptrs = vec![q];
        ptrs.extend(dq);
        // A declaration's initialiser outside loops gives the pointer its first value:
        // there is nothing to restore.
        let first = matches!(self.src.stmts[s].kind, StmtKind::Decl(_)) && !self.enclosing_loop(s);
        for &v in ptrs.iter().filter(|_| !first) {
            let name = self.g.out.symbols[v].spelling.clone();
            let a = self.b().opaque(&format!("(void *){name}"));
            r.fwd.push(self.rt("pushPointer8", vec![a]));
            let b = self.b().opaque(&format!("(void **)&{name}"));
            r.bwd.insert(0, self.rt("popPointer8", vec![b]));
        }
        // `q = malloc(…)` of a pointer the procedure frees: the backward sweep frees both
        // blocks where it passes the allocation again (the free itself is left out).
        if let PointerMove::Assign { op: None, rhs } = mv {
            if self.is_allocation(rhs) && self.freed_locals.contains(&q) {
                let mut frees = Vec::new();
                for &v in &ptrs {
                    let f = self.b().opaque("free");
                    let a = self.b().name(v);
                    frees.push(stmt(
                        &mut self.u,
                        StmtKind::Call {
                            callee: f,
                            args: vec![Arg {
                                keyword: None,
                                value: a,
                            }],
                            no_parens: false,
                        },
                    ));
                }
                frees.append(&mut r.bwd);
                r.bwd = frees;
            }
        }
        let make = |pg: &mut Self, v: SymbolId, deriv: bool| -> Option<ExprId> {
            let n = pg.b().name(v);
            Some(match mv {
                PointerMove::Step { inc, prefix } => pg.b().e(Expr::IncDec {
                    inc,
                    prefix,
                    arg: n,
                }),
                PointerMove::Assign { op, rhs } => {
                    let rhs = if deriv && op.is_none() {
                        let d = pg.dptr(rhs)?;
                        // Adjoints accumulate: the derivative block starts at zero.
                        pg.zeroed_allocation(d);
                        d
                    } else {
                        pg.cp(rhs)
                    };
                    pg.b().e(Expr::Assign { op, lhs: n, rhs })
                }
            })
        };
        if let Some(e) = make(self, q, false) {
            r.fwd.push(stmt(&mut self.u, StmtKind::Expr(e)));
        }
        if let Some(d) = dq {
            match make(self, d, true) {
                Some(e) => r.fwd.push(stmt(&mut self.u, StmtKind::Expr(e))),
                None => {
                    self.error(
                        s,
                        Code::Unsupported,
                        "pointing a derivative pointer at this expression is not supported in adjoint mode yet",
                    );
                }
            }
        }
        r
    }

    // ------------------------------------------------------------------ control

    fn int_temp(&mut self, base: &str) -> SymbolId {
        self.temp(base, TempKind::Int)
    }

    fn eq_test(&mut self, v: SymbolId, k: i64) -> ExprId {
        let n = self.b().name(v);
        let c = self.b().int(k);
        self.b().bin(BinOp::Eq(RelSpell::Symbol), n, c)
    }

    /// `if (branch == k) …` chain over the backward sweeps of the codes that have one.
    fn branch_chain(&mut self, branch: SymbolId, bwds: Vec<Vec<StmtId>>) -> Vec<StmtId> {
        let total = bwds.len();
        let nonempty: Vec<(usize, Vec<StmtId>)> = bwds
            .into_iter()
            .enumerate()
            .filter(|(_, b)| !b.is_empty())
            .collect();
        if nonempty.is_empty() {
            return Vec::new();
        }
        let all = nonempty.len() == total;
        let mut arms = Vec::new();
        let mut else_block = None;
        let n = nonempty.len();
        for (j, (code, b)) in nonempty.into_iter().enumerate() {
            if all && j == n - 1 && n > 1 {
                else_block = Some(b);
            } else {
                let c = self.eq_test(branch, code as i64);
                arms.push((c, b));
            }
        }
        vec![stmt(
            &mut self.u,
            StmtKind::If {
                arms,
                else_block,
                logical: false,
                braces: Vec::new(),
            },
        )]
    }

    fn control_bits(n: usize) -> u32 {
        let mut b = 1;
        while (1usize << b) < n {
            b += 1;
        }
        b
    }

    fn push_control(&mut self, bits: u32, k: usize) -> StmtId {
        let c = self.b().int(k as i64);
        self.rt(&format!("pushControl{bits}b"), vec![c])
    }

    fn pop_control(&mut self, bits: u32, v: SymbolId) -> StmtId {
        let n = self.b().name(v);
        let a = match self.lang {
            Lang::C => self.addr_of(n),
            Lang::Fortran => n,
        };
        self.rt(&format!("popControl{bits}b"), vec![a])
    }

    fn adj_if(
        &mut self,
        s: StmtId,
        arms: &'a [(ExprId, Block)],
        else_block: Option<&'a Block>,
    ) -> Rev {
        let st = &self.src.stmts[s];
        let mut conds = Vec::new();
        let mut revs = Vec::new();
        for (c, b) in arms {
            conds.push(self.cp(*c));
            revs.push(self.rev_block(b));
        }
        let else_r = else_block.map(|b| self.rev_block(b)).unwrap_or_default();
        revs.push(else_r);
        let any_bwd = revs.iter().any(|r| !r.bwd.is_empty());
        let any_fwd = revs.iter().any(|r| !r.fwd.is_empty());
        if !any_bwd && !any_fwd {
            return Rev::default();
        }
        let n = revs.len();
        if n > 256 {
            return self.unsupported(s, "an IF with more than 255 branches");
        }
        let bits = Self::control_bits(n);
        let mut fwd_blocks = Vec::new();
        let mut bwds = Vec::new();
        for (k, r) in revs.into_iter().enumerate() {
            let mut f = r.fwd;
            if any_bwd {
                f.push(self.push_control(bits, k));
            }
            fwd_blocks.push(f);
            bwds.push(r.bwd);
        }
        let else_fwd = fwd_blocks.pop().unwrap_or_default();
        let new_arms: Vec<(ExprId, Block)> = conds.into_iter().zip(fwd_blocks).collect();
        let fwd_if = self.new_like(
            st,
            StmtKind::If {
                arms: new_arms,
                else_block: (!else_fwd.is_empty()).then_some(else_fwd),
                logical: false,
                braces: Vec::new(),
            },
        );
        let mut bwd = Vec::new();
        if any_bwd {
            let branch = self.branch_var();
            bwd.push(self.pop_control(bits, branch));
            bwd.extend(self.branch_chain(branch, bwds));
        }
        Rev {
            fwd: vec![fwd_if],
            bwd,
        }
    }

    fn branch_var(&mut self) -> SymbolId {
        if let Some(b) = self.branch {
            return b;
        }
        let b = self.int_temp("branch");
        self.branch = Some(b);
        b
    }

    fn adj_select(&mut self, s: StmtId, selector: ExprId, cases: &'a [Case]) -> Rev {
        let st = &self.src.stmts[s];
        let sel = self.cp(selector);
        let mut revs = Vec::new();
        let mut values = Vec::new();
        let mut has_default = false;
        for c in cases {
            let vs: Vec<CaseValue> = c
                .values
                .iter()
                .map(|v| match v {
                    CaseValue::Value(e) => CaseValue::Value(self.cp(*e)),
                    CaseValue::Range(a, b) => {
                        CaseValue::Range(a.map(|x| self.cp(x)), b.map(|x| self.cp(x)))
                    }
                })
                .collect();
            has_default |= vs.is_empty();
            values.push(vs);
            revs.push(self.rev_block(&c.body));
        }
        if !has_default {
            values.push(Vec::new());
            revs.push(Rev::default());
        }
        let any_bwd = revs.iter().any(|r| !r.bwd.is_empty());
        let n = revs.len();
        let bits = Self::control_bits(n);
        let mut new_cases = Vec::new();
        let mut bwds = Vec::new();
        for (k, (r, vs)) in revs.into_iter().zip(values).enumerate() {
            let mut f = r.fwd;
            if any_bwd {
                f.push(self.push_control(bits, k));
            }
            if !f.is_empty() || k < cases.len() {
                new_cases.push(Case {
                    values: vs,
                    body: f,
                });
            }
            bwds.push(r.bwd);
        }
        let fwd = self.new_like(
            st,
            StmtKind::Select {
                selector: sel,
                cases: new_cases,
            },
        );
        let mut bwd = Vec::new();
        if any_bwd {
            let branch = self.branch_var();
            bwd.push(self.pop_control(bits, branch));
            bwd.extend(self.branch_chain(branch, bwds));
        }
        Rev {
            fwd: vec![fwd],
            bwd,
        }
    }

    /// Whether the loop-control point of `s` reads only values nothing in the procedure
    /// writes (besides the loop variable): its bounds can be re-evaluated backwards.
    fn static_bounds(&self, s: StmtId, part: Part, var_zones: &ZoneSet) -> bool {
        let Some(i) = self.pi.point_id(Point { stmt: s, part }) else {
            return false;
        };
        let mut r = self.pi.effects[i].reads.clone();
        r.subtract(var_zones);
        !r.intersects(&self.written_anywhere)
    }

    fn int_push(&mut self, e: ExprId) -> StmtId {
        self.rt("pushInteger4", vec![e])
    }

    fn int_pop(&mut self, v: SymbolId) -> StmtId {
        let n = self.b().name(v);
        let a = match self.lang {
            Lang::C => self.addr_of(n),
            Lang::Fortran => n,
        };
        self.rt("popInteger4", vec![a])
    }

    /// A loop reversed with its own variable (counted DO, simple C `for`) leaves the
    /// variable at another value than the forward sweep did: when the adjoint of the code
    /// before the loop reads it, it is recorded before the loop and restored after the
    /// reversed loop.
    fn keep_loop_var(&mut self, s: StmtId, mut r: Rev, pid: Option<usize>, var: Target) -> Rev {
        let Some(i) = pid else { return r };
        let rec = self.to_record(i);
        if !self.t_in(var, &rec) {
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
                self.error(s, Code::Unsupported, &msg);
            }
        }
        r
    }

    /// Counted DO: the backward sweep runs the iterations in reverse order, with the bounds
    /// re-evaluated when nothing can have changed them, else recorded.
    fn adj_do(
        &mut self,
        s: StmtId,
        var: ExprId,
        start: ExprId,
        end: ExprId,
        step: Option<ExprId>,
        body: &'a [StmtId],
    ) -> Rev {
        let st = &self.src.stmts[s];
        let r = self.rev_block(body);
        let v = self.cp(var);
        if r.bwd.is_empty() {
            if r.fwd.is_empty() {
                return Rev::default();
            }
            let (a, b) = (self.cp(start), self.cp(end));
            let c = step.map(|x| self.cp(x));
            let lp = self.new_like(
                st,
                StmtKind::Do {
                    var: v,
                    start: a,
                    end: b,
                    step: c,
                    body: r.fwd,
                    term_label: None,
                },
            );
            return Rev {
                fwd: vec![lp],
                bwd: Vec::new(),
            };
        }
        let var_zones = self
            .g
            .info
            .ref_zones(self.prog(), self.p, var)
            .unwrap_or_else(|| self.pi.zones.empty());
        let unit_step = step.is_none_or(|x| self.const_value(x) == Some(1.0));
        let mut fwd = Vec::new();
        let mut bwd = Vec::new();
        if unit_step && self.static_bounds(s, Part::LoopInit, &var_zones) {
            let (a, b) = (self.cp(start), self.cp(end));
            if !r.fwd.is_empty() {
                fwd.push(self.new_like(
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
            let v2 = self.cp(var);
            let (a, b) = (self.cp(end), self.cp(start));
            let m1 = self.b().int(1);
            let m1 = self.b().neg(m1);
            bwd.push(stmt(
                &mut self.u,
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
        let a = self.cp(start);
        let fl = self.b().name(from);
        fwd.push(assign(&mut self.u, fl, a));
        let step_sym = match step {
            Some(x) if self.const_value(x).is_none() => {
                let t = self.int_temp("ad_step");
                let c = self.cp(x);
                let tl = self.b().name(t);
                fwd.push(assign(&mut self.u, tl, c));
                Some(t)
            }
            _ => None,
        };
        let step_expr = |pg: &mut Self| -> Option<ExprId> {
            match (step_sym, step) {
                (Some(t), _) => Some(pg.b().name(t)),
                (None, Some(x)) => Some(pg.cp(x)),
                (None, None) => None,
            }
        };
        let fa = self.b().name(from);
        let b = self.cp(end);
        let c = step_expr(self);
        fwd.push(self.new_like(
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
        let v2 = self.cp(var);
        let last = match step_expr(self) {
            Some(x) => {
                let x = self.paren_if_compound(x);
                self.b().bin(BinOp::Sub, v2, x)
            }
            None => {
                let one = self.b().int(1);
                self.b().bin(BinOp::Sub, v2, one)
            }
        };
        fwd.push(self.int_push(last));
        let fa = self.b().name(from);
        fwd.push(self.int_push(fa));
        if let Some(t) = step_sym {
            let n = self.b().name(t);
            fwd.push(self.int_push(n));
            bwd.push(self.int_pop(t));
        }
        bwd.push(self.int_pop(from));
        bwd.push(self.int_pop(to));
        let v3 = self.cp(var);
        let (ta, fa) = (self.b().name(to), self.b().name(from));
        let neg_step = match step_expr(self) {
            Some(x) => {
                let x = self.paren_if_compound(x);
                self.b().neg(x)
            }
            None => {
                let one = self.b().int(1);
                self.b().neg(one)
            }
        };
        bwd.push(stmt(
            &mut self.u,
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
    fn adj_counted(
        &mut self,
        s: StmtId,
        init: Option<StmtId>,
        cond: Option<ExprId>,
        body: &'a [StmtId],
        step: Option<ExprId>,
        test_after: bool,
    ) -> Rev {
        let st = &self.src.stmts[s];
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
        let cond = cond.map(|c| self.cp(c));
        if r.bwd.is_empty() {
            let lp = self.loop_stmt(st, cond, r.fwd, test_after);
            fwd.push(lp);
            bwd.extend(init_r.bwd);
            return Rev { fwd, bwd };
        }
        let count = self.int_temp("ad_count");
        let cl = self.b().name(count);
        let z = self.b().int(0);
        fwd.push(assign(&mut self.u, cl, z));
        let mut body_f = r.fwd;
        let (c1, c2) = (self.b().name(count), self.b().name(count));
        let one = self.b().int(1);
        let inc = self.b().bin(BinOp::Add, c2, one);
        body_f.push(assign(&mut self.u, c1, inc));
        let lp = self.loop_stmt(st, cond, body_f, test_after);
        fwd.push(lp);
        let cn = self.b().name(count);
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
        let cond = cond.unwrap_or_else(|| self.b().int(1));
        if test_after {
            self.new_like(st, StmtKind::DoWhile { body, cond })
        } else {
            self.new_like(
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
        match self.lang {
            Lang::Fortran => {
                let v = self.b().name(i);
                let a = self.b().int(1);
                let b = self.b().name(n);
                stmt(
                    &mut self.u,
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
                let (v, z) = (self.b().name(i), self.b().int(0));
                let init_e = self.b().e(Expr::Assign {
                    op: None,
                    lhs: v,
                    rhs: z,
                });
                let init = stmt(&mut self.u, StmtKind::Expr(init_e));
                let (v2, nn) = (self.b().name(i), self.b().name(n));
                let cond = self.b().bin(BinOp::Lt(RelSpell::Symbol), v2, nn);
                let v3 = self.b().name(i);
                let step = self.b().e(Expr::IncDec {
                    inc: true,
                    prefix: true,
                    arg: v3,
                });
                stmt(
                    &mut self.u,
                    StmtKind::CFor {
                        init: Some(init),
                        cond: Some(cond),
                        step: Some(step),
                        body,
                        braced: true,
                    },
                )
            }
        }
    }

    /// The step expression of a C `for` as a statement of its own.
    fn adj_step(&mut self, s: StmtId, e: ExprId) -> Rev {
        if let Some(r) = self.adj_c_effects(s, e, Part::LoopStep) {
            return r;
        }
        let Some(i) = self.pi.point_id(Point {
            stmt: s,
            part: Part::LoopStep,
        }) else {
            let c = self.cp(e);
            return Rev {
                fwd: vec![stmt(&mut self.u, StmtKind::Expr(c))],
                bwd: Vec::new(),
            };
        };
        if self.act.has_derivative[i] {
            return self.unsupported(s, "a `for` step with an active side effect");
        }
        let mut r = Rev::default();
        if !self.to_record(i).is_empty() {
            let target = match &self.src.exprs[e] {
                Expr::IncDec { arg, .. } => Some(*arg),
                Expr::Assign { lhs, .. } => Some(*lhs),
                _ => None,
            };
            match target.map(|t| self.slot_of_target(Target::Expr(t))) {
                Some(Ok(sl)) => {
                    let (a, b) = self.push_pop(&sl);
                    r.fwd.push(a);
                    r.bwd.push(b);
                }
                _ => {
                    self.error(s, Code::Unsupported, "recording the value this `for` step overwrites is not supported in adjoint mode yet");
                }
            }
        }
        let c = self.cp(e);
        r.fwd.push(stmt(&mut self.u, StmtKind::Expr(c)));
        r
    }

    /// C `for`: a counted loop `for (i = a; i < b; i++)` (or `<=`, `--`, `>`, `>=`) whose
    /// variable the body does not write runs backwards with its bounds; anything else counts
    /// its iterations.
    fn adj_cfor(
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
            let pid = init.and_then(|i| self.pid(i));
            return self.keep_loop_var(s, r, pid, Target::Sym(var));
        }
        self.adj_counted(s, init, cond, body, step, false)
    }

    /// `(var, from, to_inclusive_expr, up)` of a simple counted C loop.
    fn canonical_for(
        &self,
        init: Option<StmtId>,
        cond: Option<ExprId>,
        step: Option<ExprId>,
        body: &[StmtId],
    ) -> Option<CanonFor> {
        let src = self.src;
        let init = init?;
        let (var, from) = match &src.stmts[init].kind {
            StmtKind::Assign {
                lhs, op: None, rhs, ..
            } => match src.exprs[*lhs] {
                Expr::Name(v) => (v, *rhs),
                _ => return None,
            },
            StmtKind::Expr(e) => match src.exprs[*e] {
                Expr::Assign {
                    op: None, lhs, rhs, ..
                } => match src.exprs[lhs] {
                    Expr::Name(v) => (v, rhs),
                    _ => return None,
                },
                _ => return None,
            },
            // `for (int i = a; …)`
            StmtKind::Decl(Decl::Var(v)) if v.entities.len() == 1 => match v.entities[0].init {
                Some(Init::Expr(x)) if !matches!(src.exprs[x], Expr::ArrayCtor { .. }) => {
                    (v.entities[0].sym, x)
                }
                _ => return None,
            },
            _ => return None,
        };
        let ty = self.prog().symbols[var].ty.as_ref()?;
        if ty.base != BaseClass::Integer || ty.pointers > 0 || !ty.dims.is_empty() {
            return None;
        }
        let up = match src.exprs[step?] {
            Expr::IncDec { inc, arg, .. } if matches!(src.exprs[arg], Expr::Name(v) if v == var) => {
                inc
            }
            Expr::Assign {
                op: Some(op @ (BinOp::Add | BinOp::Sub)),
                lhs,
                rhs,
            } if matches!(src.exprs[lhs], Expr::Name(v) if v == var)
                && self.const_value(rhs) == Some(1.0) =>
            {
                op == BinOp::Add
            }
            _ => return None,
        };
        let (cop, bound) = match src.exprs[cond?] {
            Expr::Binary { op, lhs, rhs } if matches!(src.exprs[lhs], Expr::Name(v) if v == var) => {
                (op, rhs)
            }
            _ => return None,
        };
        let inclusive = match (cop, up) {
            (BinOp::Lt(_), true) | (BinOp::Gt(_), false) => false,
            (BinOp::Le(_), true) | (BinOp::Ge(_), false) => true,
            _ => return None,
        };
        // The body must not write the variable.
        let vz = self.pi.zones.sym_zones(var)?;
        let mut inside = HashSet::new();
        subtree(src, body, &mut |x| {
            inside.insert(x);
        });
        for (id, pt) in self.pi.point.iter().enumerate() {
            if inside.contains(&pt.stmt) && self.pi.effects[id].writes.intersects(&vz) {
                return None;
            }
        }
        let static_ = {
            let reads_ok = |e: ExprId| -> bool {
                let mut ok = true;
                let mut st = vec![e];
                while let Some(x) = st.pop() {
                    if let Expr::Name(v) = src.exprs[x] {
                        if let Some(z) = self.pi.zones.sym_zones(v) {
                            if z.intersects(&self.written_anywhere) {
                                ok = false;
                            }
                        }
                    }
                    if matches!(
                        src.exprs[x],
                        Expr::Call { .. }
                            | Expr::Unary {
                                op: UnOp::Deref,
                                ..
                            }
                            | Expr::Index { .. }
                            | Expr::Field { .. }
                    ) {
                        ok = false;
                    }
                    radtap_il::visit::expr_children(&src.exprs[x], &mut |k| st.push(k));
                }
                ok
            };
            reads_ok(from) && reads_ok(bound)
        };
        Some(CanonFor {
            var,
            from,
            bound,
            inclusive,
            up,
            static_,
        })
    }

    fn adj_counted_for(&mut self, s: StmtId, c: CanonFor, body: &'a [StmtId]) -> Rev {
        let st = &self.src.stmts[s];
        let r = self.rev_block(body);
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
        let init = match init.map(|i| (i, &self.src.stmts[i].kind)) {
            Some((i, StmtKind::Decl(d))) => {
                before = self.adj_decl(i, d);
                if before.bwd.is_empty() {
                    before.fwd.clear();
                    let (v, a) = (self.b().name(c.var), self.cp(c.from));
                    let e = self.b().e(Expr::Assign {
                        op: None,
                        lhs: v,
                        rhs: a,
                    });
                    Some(stmt(&mut self.u, StmtKind::Expr(e)))
                } else {
                    None
                }
            }
            Some((i, _)) => Some(self.copy_stmt(i)),
            None => None,
        };
        let (cond, step) = (cond.map(|x| self.cp(x)), step.map(|x| self.cp(x)));
        if r.bwd.is_empty() {
            if r.fwd.is_empty() {
                return Rev::default();
            }
            let lp = self.new_like(
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
        let mut fwd = std::mem::take(&mut before.fwd);
        let mut bwd = Vec::new();
        // Backward: for (var = last; var >= first; --var) (mirrored when counting down).
        let (first, last): (ExprId, ExprId);
        if c.static_ {
            first = self.cp(c.from);
            let b = self.cp(c.bound);
            last = if c.inclusive {
                b
            } else {
                let one = self.b().int(1);
                let b = self.paren_if_compound(b);
                self.b()
                    .bin(if c.up { BinOp::Sub } else { BinOp::Add }, b, one)
            };
            if !r.fwd.is_empty() {
                fwd.push(self.new_like(
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
            let a = self.cp(c.from);
            let fl = self.b().name(from);
            fwd.push(assign(&mut self.u, fl, a));
            let (v, fa) = (self.b().name(c.var), self.b().name(from));
            let init_e = self.b().e(Expr::Assign {
                op: None,
                lhs: v,
                rhs: fa,
            });
            let init2 = stmt(&mut self.u, StmtKind::Expr(init_e));
            fwd.push(self.new_like(
                st,
                StmtKind::CFor {
                    init: Some(init2),
                    cond,
                    step,
                    body: r.fwd,
                    braced: true,
                },
            ));
            let (v, one) = (self.b().name(c.var), self.b().int(1));
            let lastv = self
                .b()
                .bin(if c.up { BinOp::Sub } else { BinOp::Add }, v, one);
            fwd.push(self.int_push(lastv));
            let fa = self.b().name(from);
            fwd.push(self.int_push(fa));
            bwd.push(self.int_pop(from));
            bwd.push(self.int_pop(to));
            first = self.b().name(from);
            last = self.b().name(to);
        }
        let v = self.b().name(c.var);
        let init_e = self.b().e(Expr::Assign {
            op: None,
            lhs: v,
            rhs: last,
        });
        let init = stmt(&mut self.u, StmtKind::Expr(init_e));
        let v2 = self.b().name(c.var);
        let first = self.paren_if_compound(first);
        let cond = if c.up {
            self.b().bin(BinOp::Ge(RelSpell::Symbol), v2, first)
        } else {
            self.b().bin(BinOp::Le(RelSpell::Symbol), v2, first)
        };
        let v3 = self.b().name(c.var);
        let step = self.b().e(Expr::IncDec {
            inc: !c.up,
            prefix: true,
            arg: v3,
        });
        bwd.push(stmt(
            &mut self.u,
            StmtKind::CFor {
                init: Some(init),
                cond: Some(cond),
                step: Some(step),
                body: r.bwd,
                braced: true,
            },
        ));
        bwd.append(&mut before.bwd);
        Rev { fwd, bwd }
    }

    // ------------------------------------------------------------------ declarations, memory

    /// A C declaration: moved to the top of the function (its block may be left and
    /// re-entered by the backward sweep), its initialisers becoming assignments.
    fn adj_decl(&mut self, s: StmtId, d: &'a Decl) -> Rev {
        let Decl::Var(v) = d else {
            return self.fwd_only(s);
        };
        if v.entities.iter().any(|e| {
            self.prog().symbols[e.sym].ty.as_ref().is_some_and(|t| {
                t.dims.iter().any(|dd| match dd.upper {
                    DimUpper::Expr(x) => self.const_value(x).is_none(),
                    _ => false,
                })
            })
        }) {
            return self.unsupported(s, "a C variable-length array");
        }
        // Variables of sibling blocks may share a name; at the top of the body they cannot.
        if self.c_hoisted_names.is_empty() {
            for &p in &self.src.params {
                let n = self.g.out.symbols[p].spelling.clone();
                self.c_hoisted_names.insert(n);
            }
        }
        for e in &v.entities {
            let name = self.g.out.symbols[e.sym].spelling.clone();
            if self.c_hoisted_names.contains(&name) {
                let n = self.fresh(&name);
                self.g.out.symbols[e.sym].spelling = n.clone();
                self.c_hoisted_names.insert(n);
                if let Some(&d) = self.dvar.get(&e.sym) {
                    let dn = self.g.out.symbols[d].spelling.clone();
                    let dn = self.fresh(&dn);
                    self.g.out.symbols[d].spelling = dn;
                }
            } else {
                self.c_hoisted_names.insert(name);
            }
        }
        let c = Copier { src: self.src };
        let mut hv = v.clone();
        hv.spec.qualifiers.retain(|q| q != "const");
        let mut inits = Vec::new();
        let in_loop = self.enclosing_loop(s);
        for e in hv.entities.iter_mut() {
            match e.init {
                Some(Init::Expr(x))
                    if in_loop && matches!(self.src.exprs[x], Expr::ArrayCtor { .. }) =>
                {
                    return self.unsupported(s, "a C brace initialiser inside a loop");
                }
                // A constant table: initialised once at the top.
                Some(Init::Expr(x)) if matches!(self.src.exprs[x], Expr::ArrayCtor { .. }) => {}
                Some(Init::Expr(x)) => {
                    inits.push((e.sym, x));
                    e.init = None;
                }
                Some(_) => return self.unsupported(s, "this C initialiser"),
                None => {}
            }
        }
        let hdecl = c.decl(&mut self.u, &Decl::Var(hv));
        self.c_local_decls.push(hdecl);
        if let Some(mut dv) = self.derivative_decl(v, &c) {
            dv.spec.qualifiers.retain(|q| q != "const");
            for e in dv.entities.iter_mut() {
                let z = if matches!(e.derived.first(), Some(DeclOp::Pointer(_))) {
                    Init::Expr(self.b().int(0))
                } else if e.derived.iter().any(|o| matches!(o, DeclOp::Array(_))) {
                    let z = self.b().zero(8);
                    Init::Expr(self.b().e(Expr::ArrayCtor {
                        items: vec![z],
                        old_style: false,
                        type_spec: None,
                    }))
                } else if matches!(dv.spec.class, BaseClass::Record(_)) {
                    let z = self.b().int(0);
                    Init::Expr(self.b().e(Expr::ArrayCtor {
                        items: vec![z],
                        old_style: false,
                        type_spec: None,
                    }))
                } else {
                    let z = self.b().zero(8);
                    Init::Expr(z)
                };
                e.init = Some(z);
            }
            self.c_local_decls.push(Decl::Var(dv));
        }
        let mut r = Rev::default();
        for (sym, x) in inits {
            let is_ptr = self.lang == Lang::C
                && self.prog().symbols[sym]
                    .ty
                    .as_ref()
                    .is_some_and(|t| t.pointers > 0 && t.dims.is_empty());
            let a = if is_ptr {
                self.adj_pointer_move(s, sym, PointerMove::Assign { op: None, rhs: x })
            } else {
                self.adj_assign(s, Target::Sym(sym), None, x, Part::Whole)
            };
            r.fwd.extend(a.fwd);
            let mut b = a.bwd;
            b.extend(r.bwd);
            r.bwd = b;
        }
        r
    }

    /// ALLOCATE: the derivative is allocated (and zeroed) with the primal; both live until
    /// the backward sweep has passed the ALLOCATE again. DEALLOCATE is delayed to that point.
    fn adj_memory(&mut self, s: StmtId, op: MemOp, items: &'a [ExprId]) -> Rev {
        let in_loop = self.enclosing_loop(s);
        match op {
            MemOp::Allocate => {
                if in_loop {
                    return self.unsupported(s, "ALLOCATE inside a loop");
                }
                let mut r = self.fwd_only(s);
                let mut ditems = Vec::new();
                let mut zero = Vec::new();
                let mut prim = Vec::new();
                for &it in items {
                    let base = match &self.src.exprs[it] {
                        Expr::Index { base, .. } => *base,
                        _ => it,
                    };
                    let owner_local =
                        radtap_dataflow::zones::base_symbol(self.prog(), self.p, base)
                            .is_some_and(|b| self.own_local(b));
                    if owner_local {
                        prim.push(self.cp(base));
                    }
                    if let Some(d) = self.alloc_item(it, MemOp::Allocate) {
                        ditems.push(d);
                        if let Some(db) = self.dref(base, Dir::Nd) {
                            let k = self.real_kind(base);
                            let z = self.b().zero(k);
                            zero.push(assign(&mut self.u, db, z));
                        }
                        if owner_local {
                            if let Some(db) = self.dref(base, Dir::Nd) {
                                prim.push(db);
                            }
                        }
                    }
                }
                if !ditems.is_empty() {
                    r.fwd.push(stmt(
                        &mut self.u,
                        StmtKind::Memory {
                            op: MemOp::Allocate,
                            items: ditems,
                            options: Vec::new(),
                        },
                    ));
                }
                r.fwd.extend(zero);
                if !prim.is_empty() {
                    r.bwd.push(stmt(
                        &mut self.u,
                        StmtKind::Memory {
                            op: MemOp::Deallocate,
                            items: prim,
                            options: Vec::new(),
                        },
                    ));
                }
                r
            }
            MemOp::Deallocate => {
                // Local arrays stay allocated until the backward sweep frees them at their
                // ALLOCATE; others are freed as in the primal.
                let all_local = items.iter().all(|&it| {
                    radtap_dataflow::zones::base_symbol(self.prog(), self.p, it)
                        .is_some_and(|b| self.own_local(b))
                });
                if all_local && !in_loop {
                    let text = match self.lang {
                        Lang::Fortran => "! DEALLOCATE delayed to the backward sweep",
                        Lang::C => "// free delayed to the backward sweep",
                    };
                    let c = stmt(&mut self.u, StmtKind::Comment(text.into()));
                    Rev {
                        fwd: vec![c],
                        bwd: Vec::new(),
                    }
                } else {
                    self.unsupported(s, "DEALLOCATE of a non-local array (or inside a loop)")
                }
            }
            MemOp::Nullify if self.lang == Lang::Fortran => {
                // The backward sweep needs the associations the forward sweep ends with:
                // NULLIFY of local pointers is left out (they die with the procedure).
                let all_local = items.iter().all(
                    |&it| matches!(self.src.exprs[it], Expr::Name(p) if self.local_pointer(p)),
                );
                if all_local {
                    let c = stmt(
                        &mut self.u,
                        StmtKind::Comment(
                            "! NULLIFY left out: the backward sweep uses the pointers".into(),
                        ),
                    );
                    Rev {
                        fwd: vec![c],
                        bwd: Vec::new(),
                    }
                } else {
                    self.fwd_only(s)
                }
            }
            MemOp::Nullify => self.fwd_only(s),
        }
    }

    /// Whether `e` is `malloc(…)`/`calloc(…)`, possibly cast.
    fn is_allocation(&self, e: ExprId) -> bool {
        match &self.src.exprs[e] {
            Expr::Cast { arg, .. } | Expr::Paren(arg) => self.is_allocation(*arg),
            Expr::Call { callee, .. } => {
                matches!(self.callee_name(*callee).as_str(), "malloc" | "calloc")
            }
            _ => false,
        }
    }

    /// Turns the `malloc(n)` inside a built derivative allocation into `calloc(1, n)`.
    fn zeroed_allocation(&mut self, d: ExprId) {
        let mut x = d;
        loop {
            match self.u.exprs[x].clone() {
                Expr::Cast { arg, .. } | Expr::Paren(arg) => x = arg,
                Expr::Call { callee, args } => {
                    let is_malloc = matches!(&self.u.exprs[callee], Expr::Name(s) if self.g.out.symbols[*s].spelling == "malloc")
                        || matches!(&self.u.exprs[callee], Expr::Opaque(t) if t == "malloc");
                    if is_malloc && args.len() == 1 {
                        let c = self.b().opaque("calloc");
                        let one = self.b().int(1);
                        let mut a = vec![Arg {
                            keyword: None,
                            value: one,
                        }];
                        a.extend(args);
                        self.u.exprs[x] = Expr::Call { callee: c, args: a };
                    }
                    return;
                }
                _ => return,
            }
        }
    }

    /// C `free(w)` of a local pointer at the top level: the backward sweep still reads the
    /// memory, so the free (of `w` and of its derivative `wb`) happens where the backward
    /// sweep passes `w = malloc(…)` again (`freed_locals`, collected from the same
    /// top-level statements).
    fn adj_free(&mut self, s: StmtId, args: &[Arg]) -> Rev {
        let local = match args {
            [a] => match self.src.exprs[a.value] {
                Expr::Name(w) => {
                    let sd = &self.prog().symbols[w];
                    sd.ty.as_ref().is_some_and(|t| t.pointers > 0)
                        && !sd.attrs.save
                        && self.own_local(w)
                        && self.src.body.contains(&s)
                }
                _ => false,
            },
            _ => false,
        };
        if !local {
            return self.unsupported(
                s,
                "free() of memory that is not a local pointer's, or inside a loop or branch (the backward sweep still needs it)",
            );
        }
        let c = stmt(
            &mut self.u,
            StmtKind::Comment("// free delayed to the backward sweep".into()),
        );
        Rev {
            fwd: vec![c],
            bwd: Vec::new(),
        }
    }

    /// Whether `x` is declared in this procedure and is not one of its dummies.
    fn own_local(&self, x: SymbolId) -> bool {
        !self.src.params.contains(&x)
            && radtap_dataflow::zones::unit_of_scope(self.prog(), self.prog().symbols[x].scope)
                == Some(self.p)
    }

    /// Whether `p` is a local (not dummy, not SAVE'd, not module) pointer of this procedure.
    fn local_pointer(&self, p: SymbolId) -> bool {
        let sd = &self.prog().symbols[p];
        sd.attrs.pointer && !sd.attrs.save && self.own_local(p)
    }

    /// Fortran `p => e` of a local pointer at the top level of the body. Forward: the
    /// association and the derivative's (`pb => eb`). Backward: the statements before this
    /// one need the previous association, which is re-established by repeating the previous
    /// `p => e'` (none before the first). Sound when every association of `p` is at the top
    /// level and `e` selects its target with variables the procedure never writes.
    fn adj_fortran_pointer_assign(&mut self, s: StmtId, lhs: ExprId) -> Rev {
        let Expr::Name(p) = self.src.exprs[lhs] else {
            return self.unsupported(s, "a pointer assignment to a component or element");
        };
        if !self.local_pointer(p) {
            return self.unsupported(
                s,
                "a pointer assignment to a dummy, SAVE'd or module pointer (its association on entry cannot be restored)",
            );
        }
        // Every association of `p`, in order; all must be top-level statements.
        let mut assocs = Vec::new();
        let mut nested = false;
        let top: Vec<StmtId> = self.src.body.clone();
        subtree(self.src, &top, &mut |x| {
            if let StmtKind::PointerAssign { lhs: l, .. } = self.src.stmts[x].kind {
                if matches!(self.src.exprs[l], Expr::Name(q) if q == p) {
                    if top.contains(&x) {
                        assocs.push(x);
                    } else {
                        nested = true;
                    }
                }
            }
        });
        if nested {
            return self.unsupported(
                s,
                "a pointer associated inside a loop or branch (its associations would have to be recorded)",
            );
        }
        // The target must be selected by variables nothing in the procedure writes.
        let mut written = self.pi.zones.empty();
        for e in &self.pi.effects {
            written.union_with(&e.writes);
        }
        for &a in &assocs {
            let StmtKind::PointerAssign { rhs: r, .. } = self.src.stmts[a].kind else {
                continue;
            };
            let mut stack = Vec::new();
            radtap_il::visit::expr_children(&self.src.exprs[r], &mut |k| stack.push(k));
            if let Expr::Name(_) = self.src.exprs[r] {
                stack.clear();
            }
            let mut bad = false;
            while let Some(x) = stack.pop() {
                if let Expr::Name(v) = self.src.exprs[x] {
                    let is_base =
                        radtap_dataflow::zones::base_symbol(self.prog(), self.p, r) == Some(v);
                    if !is_base {
                        if let Some(o) = self.pi.zones.objects.get(&ObjKey::Sym(v)) {
                            bad |= self.pi.zones.obj_set(o).intersects(&written);
                        }
                    }
                }
                radtap_il::visit::expr_children(&self.src.exprs[x], &mut |k| stack.push(k));
            }
            if bad {
                return self.unsupported(
                    s,
                    "a pointer whose target is selected by variables the procedure changes",
                );
            }
        }
        let assoc = |me: &mut Self, a: StmtId| -> Vec<StmtId> {
            let StmtKind::PointerAssign { lhs: l, rhs: r } = me.src.stmts[a].kind else {
                return Vec::new();
            };
            let mut out = vec![me.copy_stmt(a)];
            if let (Some(dl), Some(dr)) = (me.dref(l, Dir::Omit), me.dref(r, Dir::All)) {
                out.push(stmt(
                    &mut me.u,
                    StmtKind::PointerAssign { lhs: dl, rhs: dr },
                ));
            }
            out
        };
        let fwd = assoc(self, s);
        let k = assocs.iter().position(|&x| x == s).unwrap_or(0);
        let bwd = if k > 0 {
            assoc(self, assocs[k - 1])
        } else {
            Vec::new()
        };
        Rev { fwd, bwd }
    }

    /// Whether statement `s` is inside a loop.
    fn enclosing_loop(&self, s: StmtId) -> bool {
        self.in_loop.contains(&s)
    }

    // ------------------------------------------------------------------ calls

    /// A call: checkpointed (joint mode) when it carries derivatives, else primal with the
    /// values it overwrites recorded when the adjoint needs them.
    fn adj_call(&mut self, s: StmtId, _callee: ExprId, args: &'a [Arg]) -> Rev {
        let Some(i) = self.pid(s) else {
            return self.fwd_only(s);
        };
        self.cur = self.act.active_before[i].clone();
        self.hoisted.clear();
        for a in args {
            if self.has_active_user_call(a.value) {
                return self
                    .unsupported(s, "a reference to a differentiated function in an argument");
            }
        }
        let site = self
            .g
            .info
            .callgraph
            .sites_of(self.p)
            .iter()
            .find(|c| c.stmt == s && c.expr.is_none());
        let active_point = self.act.has_derivative[i];
        let dirs = &self.src.stmts[s].directives;
        let split = site.and_then(|x| match &x.callee {
            Callee::Defined(l) if l.len() == 1 && active_point => self.g.split_call(l[0], dirs),
            _ => None,
        });
        let mut rec = self.to_record(i);
        if split.is_some() {
            // g_bwd restores what it reads itself: only the values the statements before
            // need are recorded.
            rec.intersect_with(&self.act.tbr_before[i].clone());
        }
        let (push, pop) = self.snapshot(s, &rec);
        let callee = match site.map(|x| &x.callee) {
            Some(Callee::Defined(list))
                if active_point && list.iter().any(|c| self.g.active.contains(c)) =>
            {
                if list.len() != 1 {
                    return self.unsupported(
                        s,
                        "a generic call that resolves to several specific procedures",
                    );
                }
                Some(list[0])
            }
            Some(Callee::External(name)) if active_point => {
                let msg = format!("`{name}` has no body in the input files and no derivative: the derivative through this call would be wrong; add its source file");
                self.error(s, Code::NoDerivative, &msg);
                None
            }
            _ => None,
        };
        let mut r = Rev {
            fwd: push,
            bwd: Vec::new(),
        };
        let primal = self.copy_stmt(s);
        if let Some((f, _)) = split {
            let fname = self.b().name(f);
            if let StmtKind::Call { callee, .. } = &mut self.u.stmts[primal].kind {
                *callee = fname;
            }
        }
        r.fwd.push(primal);
        let Some(c) = callee else {
            r.bwd = pop;
            return r;
        };
        if let Some((_, b)) = split {
            let mut pre = Vec::new();
            let mut post = Vec::new();
            let new_args = self.adjoint_args(s, c, args, &mut pre, &mut post);
            r.bwd.extend(pre);
            let callee = self.b().name(b);
            let call = stmt(
                &mut self.u,
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
        if !pop.is_empty() {
            r.bwd.push(self.rt("adStack_startRepeat", Vec::new()));
            for &p in &pop {
                let d = self.dup_stmt(p);
                r.bwd.push(d);
            }
            r.bwd.push(self.rt("adStack_resetRepeat", Vec::new()));
            r.bwd.push(self.rt("adStack_endRepeat", Vec::new()));
        }
        let mut pre = Vec::new();
        let mut post = Vec::new();
        let new_args = self.adjoint_args(s, c, args, &mut pre, &mut post);
        r.bwd.extend(pre);
        let callee = {
            let v = self.g.dproc[&c];
            self.b().name(v)
        };
        let st = &self.src.stmts[s];
        let call = self.new_like(
            st,
            StmtKind::Call {
                callee,
                args: new_args,
                no_parens: false,
            },
        );
        self.u.stmts[call].label = None;
        r.bwd.push(call);
        r.bwd.extend(post);
        r.bwd.extend(pop);
        r
    }

    fn dup_stmt(&mut self, s: StmtId) -> StmtId {
        let mut st = self.u.stmts[s].clone();
        if let StmtKind::Call { args, .. } = &mut st.kind {
            for a in args.iter_mut() {
                a.value = self.dup(a.value);
            }
        }
        if let StmtKind::Expr(e) = &mut st.kind {
            *e = self.dup(*e);
        }
        self.u.stmts.alloc(st)
    }

    /// The argument list of a call to `c`'s adjoint: each actual followed by its adjoint
    /// when the formal has one. An active expression actual gets a temporary adjoint that is
    /// propagated into its references after the call (`post`); an inactive one a zero
    /// temporary.
    fn adjoint_args(
        &mut self,
        s: StmtId,
        c: UnitId,
        args: &'a [Arg],
        pre: &mut Vec<StmtId>,
        post: &mut Vec<StmtId>,
    ) -> Vec<Arg> {
        let cu = &self.prog().units[c];
        let flags = self.g.dparams[&c].clone();
        let mut out = Vec::new();
        for (k, a) in args.iter().enumerate() {
            let fi = match &a.keyword {
                Some(kw) => cu
                    .params
                    .iter()
                    .position(|&p| self.prog().symbols[p].spelling.eq_ignore_ascii_case(kw))
                    .unwrap_or(k),
                None => k,
            };
            let v = self.cp(a.value);
            out.push(Arg {
                keyword: a.keyword.clone(),
                value: v,
            });
            if !flags.get(fi).copied().unwrap_or(false) {
                continue;
            }
            let formal = cu.params[fi];
            let formal_ty = self.prog().symbols[formal].ty.clone();
            let formal_array = formal_ty.as_ref().is_some_and(|t| !t.dims.is_empty());
            let c_by_value = self.lang == Lang::C
                && formal_ty
                    .as_ref()
                    .is_some_and(|t| t.pointers == 0 && t.dims.is_empty());
            let kw = a
                .keyword
                .as_ref()
                .map(|k| pattern(&self.g.opts.var_pattern, k));
            let d = if self.lang == Lang::C && !c_by_value {
                // An address: the adjoint address, or a zero temporary like the variable.
                match self.dptr(a.value) {
                    Some(d) => d,
                    None => {
                        let base =
                            radtap_dataflow::zones::base_symbol(self.prog(), self.p, a.value);
                        let Some(like) = base else {
                            self.error(s, Code::Unsupported, "this pointer argument designates no variable but the callee's adjoint needs one; pass a variable");
                            continue;
                        };
                        let t = self.temp(
                            "dummyzerob",
                            TempKind::Like {
                                sym: like,
                                deriv: true,
                            },
                        );
                        let tn = self.b().name(t);
                        let scalar = self.prog().symbols[like]
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
                    .g
                    .info
                    .ref_zones(self.prog(), self.p, a.value)
                    .is_some();
                let has = self.has_dvar_ref(a.value);
                let dr = if is_ref && has {
                    self.dref(a.value, Dir::Nd)
                } else {
                    None
                };
                match dr {
                    Some(d) => d,
                    None => {
                        let kd = self.real_kind(a.value);
                        self.markers = Some(Vec::new());
                        let tan = if formal_array {
                            None
                        } else {
                            self.tan(a.value)
                        };
                        let marks = self.markers.take().unwrap_or_default();
                        let base =
                            radtap_dataflow::zones::base_symbol(self.prog(), self.p, a.value);
                        let kind = match base {
                            Some(b) if formal_array && is_ref => TempKind::Like {
                                sym: b,
                                deriv: true,
                            },
                            _ => TempKind::Real {
                                bytes: kd,
                                deriv: true,
                            },
                        };
                        if formal_array && !matches!(self.src.exprs[a.value], Expr::Name(_)) {
                            self.error(s, Code::Unsupported, "an inactive array element or section passed to an array dummy that has an adjoint is not supported yet; pass a whole array");
                        }
                        let t = self.temp(if tan.is_some() { "argb" } else { "dummyzerob" }, kind);
                        let tl = self.b().name(t);
                        let z = self.b().zero(kd);
                        pre.push(assign(&mut self.u, tl, z));
                        if let Some(tn) = tan {
                            let seed = self.b().name(t);
                            if let Some((incs, _)) =
                                self.scatter(s, tn, seed, 0, &marks, &HashSet::new())
                            {
                                post.extend(incs);
                            }
                        }
                        self.b().name(t)
                    }
                }
            };
            let d = if c_by_value { self.addr_of(d) } else { d };
            out.push(Arg {
                keyword: kw,
                value: d,
            });
        }
        out
    }

    // ------------------------------------------------------------------ prologue, epilogue

    /// Start of the backward sweep: local adjoints and the head's pure-input adjoints are
    /// zero.
    fn bwd_prologue(&mut self) -> Vec<StmtId> {
        let mut out = Vec::new();
        let mut syms: Vec<(SymbolId, SymbolId)> = self.dvar.iter().map(|(a, b)| (*a, *b)).collect();
        syms.sort();
        for (s, d) in syms {
            if self.g.dglobal.contains_key(&s) || self.prog().symbols[s].common.is_some() {
                continue;
            }
            if Some(s) == self.src.result {
                continue;
            }
            let sd = &self.prog().symbols[s];
            let Some(ty) = sd.ty.clone() else { continue };
            if ty.pointers > 0 || sd.attrs.pointer {
                continue;
            }
            let param = self.src.params.contains(&s);
            let zero_it = if param {
                // The head's pure inputs: their adjoints are outputs.
                let z = self
                    .pi
                    .zones
                    .sym_zones(s)
                    .unwrap_or_else(|| self.pi.zones.empty());
                self.input_adjoint_overwritten(s)
                    && !self.c_by_value(s)
                    && !z.intersects(&self.pi.summary.writes)
            } else {
                self.lang == Lang::Fortran && !sd.attrs.allocatable
            };
            if !zero_it {
                continue;
            }
            match ty.base {
                BaseClass::Real | BaseClass::Complex => {
                    let k = ty.bytes.unwrap_or(4);
                    let l = self.b().name(d);
                    let z = self.b().zero(k);
                    out.push(assign(&mut self.u, l, z));
                }
                BaseClass::Record(td) => {
                    let mut paths = Vec::new();
                    self.real_leaves(td, &mut Vec::new(), &mut paths, 0);
                    for (path, k) in paths {
                        let mut e = self.b().name(d);
                        for f in path {
                            e = self.b().e(Expr::Field {
                                base: e,
                                field: f,
                                arrow: false,
                            });
                        }
                        let z = self.b().zero(k);
                        out.push(assign(&mut self.u, e, z));
                    }
                }
                _ => {}
            }
        }
        out
    }

    /// Whether the adjoint of input parameter `p` is overwritten (set, not incremented):
    /// in a head, for Fortran arguments of known size (zeroed first) and C by-value
    /// arguments (stored through their pointer at the end). Elsewhere adjoints of inputs are
    /// incremented, as the chain rule across a call needs.
    pub(super) fn input_adjoint_overwritten(&self, p: SymbolId) -> bool {
        let is_head = self.g.info.heads.iter().any(|h| h.head == self.p);
        let assumed_size = self.prog().symbols[p]
            .ty
            .as_ref()
            .is_some_and(|t| t.dims.iter().any(|d| d.upper == DimUpper::Assumed));
        is_head && (self.c_by_value(p) || (self.lang == Lang::Fortran && !assumed_size))
    }

    /// The active real leaves of a record type (component paths, with their bytes).
    fn real_leaves(
        &self,
        td: TypeDefId,
        path: &mut Vec<String>,
        out: &mut Vec<(Vec<String>, u32)>,
        depth: u32,
    ) {
        if depth > 8 {
            return;
        }
        let active = self.g.active_fields.get(&td);
        for f in &self.prog().typedefs[td].fields {
            let Decl::Var(v) = f else { continue };
            for e in &v.entities {
                let name = self.prog().symbols[e.sym].spelling.clone();
                if !active.is_some_and(|a| a.iter().any(|x| x.eq_ignore_ascii_case(&name))) {
                    continue;
                }
                let Some(t) = self.prog().symbols[e.sym].ty.clone() else {
                    continue;
                };
                path.push(name);
                match t.base {
                    BaseClass::Real => out.push((path.clone(), t.bytes.unwrap_or(4))),
                    BaseClass::Record(inner) => self.real_leaves(inner, path, out, depth + 1),
                    _ => {}
                }
                path.pop();
            }
        }
    }

    /// End of the backward sweep: C by-value scalars hand their adjoint back through the
    /// pointer argument (overwritten in a head, incremented elsewhere).
    fn bwd_epilogue(&mut self) -> Vec<StmtId> {
        let mut out = Vec::new();
        let is_head = self.g.info.heads.iter().any(|h| h.head == self.p);
        for (ptr, local) in self.adj_by_ptr.clone() {
            let p = self.b().name(ptr);
            let target = self.b().e(Expr::Unary {
                op: UnOp::Deref,
                arg: p,
            });
            let l = self.b().name(local);
            let v = if is_head {
                l
            } else {
                let p2 = self.b().name(ptr);
                let cur = self.b().e(Expr::Unary {
                    op: UnOp::Deref,
                    arg: p2,
                });
                self.b().bin(BinOp::Add, cur, l)
            };
            out.push(assign(&mut self.u, target, v));
        }
        out
    }
}

/// Function references hoisted out of one statement.
#[derive(Default)]
pub(super) struct Hoisted {
    /// `t = f(a)` before the primal statement.
    fwd: Vec<StmtId>,
    /// The same, recomputed in the backward sweep.
    recompute: Vec<StmtId>,
    /// `t̄ = 0` before the statement's adjoint.
    zero: Vec<StmtId>,
    /// `f_b(a, ā, t̄)` after it, outermost first.
    calls: Vec<StmtId>,
}

/// How a C pointer moves.
#[derive(Clone, Copy)]
pub(super) enum PointerMove {
    /// `p++`, `--p`, …
    Step { inc: bool, prefix: bool },
    /// `p = e`, `p += k`.
    Assign { op: Option<BinOp>, rhs: ExprId },
}

/// A simple counted C loop.
pub(super) struct CanonFor {
    var: SymbolId,
    from: ExprId,
    bound: ExprId,
    /// `<=` / `>=` rather than `<` / `>`.
    inclusive: bool,
    /// Counting up.
    up: bool,
    /// Its bounds read nothing the procedure writes: re-evaluated backwards.
    static_: bool,
}
