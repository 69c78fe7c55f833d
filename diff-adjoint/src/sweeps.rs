//! The adjoint body: both sweeps of a procedure, the split-mode sweeps, the statement
//! dispatch, and the prologue and epilogue of the backward sweep.

use crate::*;

impl<'a> Adj<'_, '_, 'a> {
    /// The body of the adjoint procedure.
    pub(crate) fn adjoint_body(&mut self) -> Block {
        self.reserve_hoisted_renames();
        let mut w = self.pg.f.pi.zones.empty();
        for e in &self.pg.f.pi.effects {
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
        walk(self.pg.f.src, &self.pg.f.src.body, false, &mut in_loop);
        self.in_loop = in_loop;
        // Local pointers freed at the top level: their frees move to the allocation.
        let mut freed = HashSet::new();
        for &st in &self.pg.f.src.body {
            if let StmtKind::Call { callee, args, .. } = &self.pg.f.src.stmts[st].kind {
                if self.pg.f.lang == Lang::C && self.pg.callee_name(*callee) == "free" {
                    if let [a] = args.as_slice() {
                        if let Some(w) = self.freed_pointer(a.value) {
                            freed.insert(w);
                        }
                    }
                }
                // `delete_matrix(m)`: its call moves to the allocation too (`records.rs`).
                // `delete_light_matrix_array(m, count)` too, when its count is the same
                // where the backward sweep passes the allocation.
                let dl = self.pg.deallocator_of(*callee);
                let first = match (&dl, args.as_slice()) {
                    (Some(d), [a]) if d.each.is_none() => Some(a),
                    (Some(d), [a, rest @ ..]) if d.each.is_some() => rest
                        .iter()
                        .all(|x| self.bound_is_fixed(x.value))
                        .then_some(a),
                    _ => None,
                };
                if let Some(a) = first {
                    if let Some(w) = self.freed_pointer(a.value) {
                        if self.own_local(w) {
                            freed.insert(w);
                            self.deallocated.insert(w, st);
                        }
                    }
                }
            }
        }
        self.freed_locals = freed;
        self.collect_freed_members();
        let body = &self.pg.f.src.body;
        let r = if self.body_has_jumps() {
            self.warn_regions_ignored(body);
            self.lower_region(body, true)
        } else {
            self.rev_block(body)
        };
        let mut body = match self.pg.f.sweep {
            Sweep::Joint => {
                let mut out = self.recorded_local_zeros();
                out.extend(self.jump_local_zeros());
                let pro = self.bwd_prologue();
                let joint = self.join_at_turn(r.fwd, pro, r.bwd);
                out.extend(joint);
                let epi = self.bwd_epilogue();
                out.extend(epi);
                if self.control_pops == 0 {
                    if let Some(b) = self.branch.take() {
                        self.pg.forget_temp(b);
                    }
                }
                out
            }
            Sweep::Fwd => {
                let (push, _) = self.exit_record();
                let mut out = self.recorded_local_zeros();
                out.extend(r.fwd);
                out.extend(push);
                if let Some(v) = self.c_return_value.take() {
                    out.push(stmt(&mut self.pg.u, StmtKind::Return(Some(v))));
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
        };
        self.records_in_locals(&mut body);
        self.keep_formats(&mut body);
        body
    }

    /// C block-scoped locals renamed when an earlier sweep of this procedure hoisted them
    /// (`f_fwd` named the second `for (int i …)`'s `i` `i0`): the symbol keeps that name in
    /// this sweep too, so no temporary of this one may take it (`int i0; int i0 = 0;` in
    /// `f_bwd` did not compile).
    fn reserve_hoisted_renames(&mut self) {
        if self.pg.f.lang != Lang::C {
            return;
        }
        let src = self.pg.f.src;
        let mut todo: Vec<StmtId> = src.body.clone();
        while let Some(s) = todo.pop() {
            if let StmtKind::Decl(Decl::Var(v)) = &src.stmts[s].kind {
                for e in &v.entities {
                    let now = &self.pg.g.out.symbols[e.sym].spelling;
                    if *now != self.pg.prog().symbols[e.sym].spelling {
                        let now = now.clone();
                        self.pg.reserve(&now);
                        self.c_hoisted_names.insert(now);
                    }
                }
            }
            radtap_il::visit::stmt_children(&src.stmts[s].kind, &mut |_| {}, &mut |c| todo.push(c));
        }
    }

    /// Fortran: the FORMAT statements of the primal, with their labels, at the end of the
    /// body (the sweeps leave them out: one after a final RETURN was dropped, one between
    /// statements lost its label to the next statement), where a WRITE kept in the forward
    /// sweep finds them (the output did not compile).
    fn keep_formats(&mut self, body: &mut Vec<StmtId>) {
        if self.pg.f.lang != Lang::Fortran {
            return;
        }
        let mut have = HashSet::new();
        let mut todo: Vec<StmtId> = body.clone();
        while let Some(s) = todo.pop() {
            let st = &self.pg.u.stmts[s];
            if let (StmtKind::Format(_), Some(l)) = (&st.kind, &st.label) {
                have.insert(l.clone());
            }
            radtap_il::visit::stmt_children(&st.kind, &mut |_| {}, &mut |c| todo.push(c));
        }
        let src = self.pg.f.src;
        let mut formats: Vec<StmtId> = src
            .stmts
            .iter()
            .filter(|(_, st)| matches!(st.kind, StmtKind::Format(_)))
            .filter(|(_, st)| st.label.as_ref().is_some_and(|l| !have.contains(l)))
            .map(|(s, _)| s)
            .collect();
        formats.sort();
        for f in formats {
            let c = self.pg.copy_stmt(f);
            body.push(c);
        }
    }

    /// Split mode, the local allocatable arrays the forward sweep allocated (`split_allocs`):
    /// at its end `if (allocated(w)) then push lbound/ubound of each dimension, 1 else 0`;
    /// at the start of the backward sweep, popped and, when allocated,
    /// `allocate(w(l1:u1, ...), wb(l1:u1, ...)); wb = 0`. The backward sweep deallocates
    /// both where it passes the ALLOCATE, as in joint mode.
    fn split_local_arrays(&mut self) -> (Vec<StmtId>, Vec<StmtId>) {
        let (mut push, mut pop) = (Vec::new(), Vec::new());
        for x in self.split_allocs.clone() {
            let rank = self.pg.prog().symbols[x]
                .ty
                .as_ref()
                .map_or(0, |t| t.dims.len());
            // Forward: the bounds, then the flag.
            let mut fwd_then = Vec::new();
            for k in 1..=rank as i64 {
                for f in ["lbound", "ubound"] {
                    let (n, kk) = (self.pg.b().name(x), self.pg.b().int(k));
                    let c = self.pg.b().call(f, vec![n, kk]);
                    fwd_then.push(self.int_push(c));
                }
            }
            let one = self.pg.b().int(1);
            fwd_then.push(self.int_push(one));
            let zero = self.pg.b().int(0);
            let fwd_else = vec![self.int_push(zero)];
            let n = self.pg.b().name(x);
            let cond = self.pg.b().call("allocated", vec![n]);
            push.push(stmt(
                &mut self.pg.u,
                StmtKind::If {
                    arms: vec![(cond, fwd_then)],
                    else_block: Some(fwd_else),
                    logical: false,
                    braces: Vec::new(),
                },
            ));
            // Backward: the flag, the bounds in reverse, the allocations.
            let flag = self.pg.temp("ad_alloc", TempKind::Int);
            let mut popped = vec![self.int_pop(flag)];
            let mut bounds = Vec::new();
            for _ in 0..rank {
                let lo = self.pg.temp("ad_lb", TempKind::Int);
                let hi = self.pg.temp("ad_ub", TempKind::Int);
                bounds.push((lo, hi));
            }
            let mut then = Vec::new();
            for &(lo, hi) in bounds.iter().rev() {
                then.push(self.int_pop(hi));
                then.push(self.int_pop(lo));
            }
            let mut arrays = vec![x];
            arrays.extend(self.pg.dvar.get(&x).copied());
            for (j, &a) in arrays.iter().enumerate() {
                let subs = bounds
                    .iter()
                    .map(|&(lo, hi)| {
                        let (l, h) = (self.pg.b().name(lo), self.pg.b().name(hi));
                        Subscript::Range(Some(l), Some(h), None)
                    })
                    .collect();
                let base = self.pg.b().name(a);
                let item = self.pg.b().index(base, subs);
                then.push(stmt(
                    &mut self.pg.u,
                    StmtKind::Memory {
                        op: MemOp::Allocate,
                        items: vec![item],
                        options: Vec::new(),
                    },
                ));
                if j > 0 {
                    let k = self.pg.prog().symbols[x]
                        .ty
                        .as_ref()
                        .and_then(|t| t.bytes)
                        .unwrap_or(8);
                    let (d, z) = (self.pg.b().name(a), self.pg.b().zero(k));
                    then.push(assign(&mut self.pg.u, d, z));
                }
            }
            let (f, one) = (self.pg.b().name(flag), self.pg.b().int(1));
            let cond = self.pg.b().bin(BinOp::Eq(RelSpell::Symbol), f, one);
            popped.push(stmt(
                &mut self.pg.u,
                StmtKind::If {
                    arms: vec![(cond, then)],
                    else_block: None,
                    logical: false,
                    braces: Vec::new(),
                },
            ));
            // Pushed after the arrays before it: popped before them.
            pop.splice(0..0, popped);
        }
        (push, pop)
    }

    /// Whether statement `s` of the unit being built names `x` (in any expression).
    fn stmt_mentions(&self, s: StmtId, x: SymbolId) -> bool {
        let mut exprs = Vec::new();
        radtap_il::visit::stmt_children(
            &self.pg.u.stmts[s].kind,
            &mut |e| exprs.push(e),
            &mut |_| {},
        );
        while let Some(e) = exprs.pop() {
            if matches!(self.pg.u.exprs[e], Expr::Name(y) if y == x) {
                return true;
            }
            radtap_il::visit::expr_children(&self.pg.u.exprs[e], &mut |k| exprs.push(k));
        }
        false
    }

    /// Split mode: what the backward sweep reads that may be lost between the sweeps —
    /// locals, values the procedure writes and does not read first, and values it reads
    /// and writes whose exit value the backward sweep reads (its callers only keep the
    /// values it reads on entry).
    fn exit_record(&mut self) -> (Vec<StmtId>, Vec<StmtId>) {
        let mut need = self.pg.f.pi.zones.empty();
        for u in &self.pg.f.act.deriv_uses {
            need.union_with(u);
        }
        let mut keep = self.pg.f.pi.summary.writes.clone();
        keep.subtract(&self.pg.f.pi.summary.reads);
        for (k, o) in &self.pg.f.pi.zones.objects {
            if let ObjKey::Sym(x) = k {
                let set = self.pg.f.pi.zones.obj_set(o);
                // A C parameter passed by value and changed here (`x /= s`) is a local the
                // caller passes again as it was.
                let changed_copy = self.pg.f.src.params.contains(x)
                    && self.pg.c_by_value(*x)
                    && set.intersects(&self.pg.f.pi.summary.writes);
                if (self.own_local(*x) && !self.pg.prog().symbols[*x].attrs.pointer) || changed_copy
                {
                    keep.union_with(&set);
                }
            }
        }
        need.intersect_with(&keep);
        // Values it reads on entry and overwrites whole, whose exit value the backward sweep
        // reads (`nh = nh + 1; hist(nh) = x`): the caller's TBR takes the call's reads as
        // its own and drops what the call kills, so it keeps only their entry values (what
        // the call writes in part stays to be recorded by the caller).
        let mut exposed = self.pg.f.pi.exit_exposed(&self.pg.f.act.deriv_uses);
        exposed.intersect_with(&self.pg.f.pi.summary.kills);
        exposed.intersect_with(&self.pg.f.pi.summary.reads);
        need.union_with(&exposed);
        // A block this procedure allocates and frees keeps its values until the backward
        // sweep frees it (the free waits, the pointers go over below): nothing else reaches
        // it when only this procedure's own pointers point to it, so neither it nor (as the
        // values behind it) the pointer is recorded.
        for &x in &self.freed_locals {
            let zones = &self.pg.f.pi.zones;
            let Some([key @ ObjKey::Heap(u, _)]) = zones.pts.get(&x).map(|v| &v[..]) else {
                continue;
            };
            let foreign = zones
                .pts
                .iter()
                .any(|(n, ks)| ks.contains(key) && !self.own_local(*n));
            if *u != self.pg.f.p || foreign {
                continue;
            }
            if let Some(o) = zones.objects.get(key) {
                need.subtract(&zones.obj_set(o));
            }
            // The pointer itself goes over with the held pointers below.
            if let Some(z) = zones.sym_zones(x) {
                need.subtract(&z);
            }
        }
        // A loop variable that nothing outside the counted loops over it reads: the backward
        // loops set it before any use, its final value is not needed (`pushInteger4(i)` at
        // the end of every `f_fwd`).
        if self.pg.g.opts.induction && !self.has_any_jump() {
            for x in self.zone_symbols() {
                if !self.own_local(x) {
                    continue;
                }
                let Some(z) = self.pg.f.pi.zones.sym_zones(x) else {
                    continue;
                };
                if !z.intersects(&need) {
                    continue;
                }
                if self.read_only_in_its_loops(x) {
                    need.subtract(&z);
                }
            }
        }
        let sp = self.pg.f.src.source_map.header.unwrap_or_default();
        let (mut push, mut pop) = self.snapshot_at(sp, &need);
        // Local allocatable arrays: allocated again (bounds pushed last, popped first) before
        // anything is popped into them.
        // What is recorded of them (values the backward sweep reads) only when allocated: an
        // early RETURN may have left them unallocated.
        for x in self.split_allocs.clone() {
            for v in [&mut push, &mut pop] {
                for st in v.iter_mut() {
                    if self.stmt_mentions(*st, x) {
                        let n = self.pg.b().name(x);
                        let cond = self.pg.b().call("allocated", vec![n]);
                        *st = stmt(
                            &mut self.pg.u,
                            StmtKind::If {
                                arms: vec![(cond, vec![*st])],
                                else_block: None,
                                logical: false,
                                braces: Vec::new(),
                            },
                        );
                    }
                }
            }
        }
        let (apush, apop) = self.split_local_arrays();
        push.extend(apush);
        pop.splice(0..0, apop);
        // C blocks this procedure allocates and frees: their free waits for the backward
        // sweep, which is another function here, so the pointers to them (and to their
        // adjoints) go over with the rest (the backward sweep read through uninitialised
        // pointers: a crash). Popped first, before what was recorded through them.
        let mut held: Vec<SymbolId> = self.freed_locals.iter().copied().collect();
        // Local C pointers into memory the backward sweep reads through them (`const double
        // *xi = X + i*d;` in a loop): their final value goes over too (the backward sweep
        // read `xi[j]`, and popped what was recorded through `xi`, with an uninitialised
        // `xi`: a crash).
        let mut read = self.pg.f.pi.zones.empty();
        for u in &self.pg.f.act.deriv_uses {
            read.union_with(u);
        }
        for (&p, keys) in &self.pg.f.pi.zones.pts {
            let local_pointer = self.pg.f.lang == Lang::C
                && self.own_local(p)
                && !held.contains(&p)
                && self.pg.prog().symbols[p]
                    .ty
                    .as_ref()
                    .is_some_and(|t| t.pointers > 0 && t.dims.is_empty());
            let reads_through = keys.iter().any(|k| {
                self.pg
                    .f
                    .pi
                    .zones
                    .objects
                    .get(k)
                    .is_some_and(|o| self.pg.f.pi.zones.obj_set(o).intersects(&read))
            });
            if local_pointer && reads_through {
                held.push(p);
            }
        }
        held.sort();
        for x in held {
            let mut ptrs = vec![x];
            ptrs.extend(self.pg.dvar.get(&x).copied());
            for v in ptrs {
                let name = self.pg.g.out.symbols[v].spelling.clone();
                let a = self.pg.b().opaque(&format!("(void *){name}"));
                push.push(self.rt("pushPointer8", vec![a]));
                let b = self.pg.b().opaque(&format!("(void **)&{name}"));
                pop.insert(0, self.rt("popPointer8", vec![b]));
            }
        }
        (push, pop)
    }

    // ------------------------------------------------------------------ runtime calls

    /// Start of the backward sweep: local adjoints and the head's pure-input adjoints are
    /// zero, and in a head the adjoints of the globals that are no dependents (static
    /// storage keeping what a previous run left, `zero_global_derivatives`).
    fn bwd_prologue(&mut self) -> Vec<StmtId> {
        let mut out = std::mem::take(&mut self.bwd_zeros);
        let deps = self
            .pg
            .g
            .info
            .heads
            .iter()
            .find(|h| h.head == self.pg.f.p)
            .map(|h| {
                let mut d = self.pg.f.pi.zones.empty();
                for (_, z) in &h.dependents {
                    d.union_with(z);
                }
                d
            });
        if let Some(deps) = deps {
            out.extend(self.pg.zero_global_derivatives(&deps));
        }
        out.extend(self.pg.reset_saved_derivatives());
        let mut syms: Vec<(SymbolId, SymbolId)> =
            self.pg.dvar.iter().map(|(a, b)| (*a, *b)).collect();
        syms.sort();
        for (s, d) in syms {
            if self.pg.g.dglobal.contains_key(&s) || self.in_global_storage(s) {
                continue;
            }
            if Some(s) == self.pg.f.src.result {
                continue;
            }
            let sd = &self.pg.prog().symbols[s];
            let Some(ty) = sd.ty.clone() else { continue };
            let param = self.pg.f.src.params.contains(&s);
            // C pointers and arrays, Fortran assumed-size arrays: element by element.
            let assumed_size = self.pg.f.lang == Lang::Fortran
                && !sd.attrs.pointer
                && ty.dims.iter().any(|x| x.upper == DimUpper::Assumed);
            if param && (self.pg.c_elements_param(s) || assumed_size) {
                if self.pg.pointee_output_not_dependent(s) {
                    let why = "is written but is not a dependent: its adjoint on entry is no input";
                    out.extend(self.pg.clear_pointee(s, d, why));
                }
                continue;
            }
            if ty.pointers > 0 || sd.attrs.pointer {
                continue;
            }
            let zero_it = if param {
                let z = self
                    .pg
                    .f
                    .pi
                    .zones
                    .sym_zones(s)
                    .unwrap_or_else(|| self.pg.f.pi.zones.empty());
                let written = z.intersects(&self.pg.f.pi.summary.writes);
                // The head's pure inputs: their adjoints are outputs. The head's outputs
                // that are not dependents: their adjoints start at zero whatever the
                // caller passes (only dependents' adjoints are inputs, DESIGN.md).
                (self.pg.input_adjoint_overwritten(s) && !self.pg.c_by_value(s) && !written)
                    || self.pg.output_adjoint_ignored(s)
            } else {
                self.pg.f.lang == Lang::Fortran && !sd.attrs.allocatable
            };
            if !zero_it {
                continue;
            }
            match ty.base {
                BaseClass::Real | BaseClass::Complex => {
                    let k = ty.bytes.unwrap_or(4);
                    let l = self.pg.b().name(d);
                    let z = self.pg.b().zero(k);
                    out.push(assign(&mut self.pg.u, l, z));
                }
                BaseClass::Record(td) if self.pg.f.lang == Lang::Fortran && !ty.dims.is_empty() => {
                    let a = self.pg.b().name(d);
                    let lp = self.pg.zero_record_array_leaves(a, ty.dims.len(), td);
                    out.push(lp);
                }
                BaseClass::Record(td) => {
                    let e = self.pg.b().name(d);
                    out.extend(self.pg.zero_record_leaves(e, td));
                }
                _ => {}
            }
        }
        out
    }

    /// End of the backward sweep: C by-value scalars hand their adjoint back through the
    /// pointer argument (overwritten in a head, incremented elsewhere).
    fn bwd_epilogue(&mut self) -> Vec<StmtId> {
        let mut out = Vec::new();
        let is_head = self.pg.g.info.heads.iter().any(|h| h.head == self.pg.f.p);
        for (ptr, local) in self.pg.adj_by_ptr.clone() {
            // A struct passed by value: member by member (`ab->u = ab->u + ab0.u`).
            let record = self
                .pg
                .dvar
                .iter()
                .find(|(_, d)| **d == local)
                .and_then(
                    |(s, _)| match self.pg.prog().symbols[*s].ty.as_ref()?.base {
                        BaseClass::Record(td) => Some(td),
                        _ => None,
                    },
                );
            // (A head overwrites it: struct assignment, `*ab = ab0`.)
            if let (Some(td), false) = (record, is_head) {
                out.extend(self.record_adjoint_back(ptr, local, td));
                continue;
            }
            let p = self.pg.b().name(ptr);
            let target = self.pg.b().e(Expr::Unary {
                op: UnOp::Deref,
                arg: p,
            });
            let l = self.pg.b().name(local);
            let v = if is_head {
                l
            } else {
                let p2 = self.pg.b().name(ptr);
                let cur = self.pg.b().e(Expr::Unary {
                    op: UnOp::Deref,
                    arg: p2,
                });
                self.pg.b().bin(BinOp::Add, cur, l)
            };
            out.push(assign(&mut self.pg.u, target, v));
        }
        out
    }

    /// `ab->f = ab->f + ab0.f` for each active real member `f` of record type `td`.
    fn record_adjoint_back(
        &mut self,
        ptr: SymbolId,
        local: SymbolId,
        td: TypeDefId,
    ) -> Vec<StmtId> {
        let mut out = Vec::new();
        for (path, _, is_array) in self.pg.real_leaves(td) {
            let member = |pg: &mut ProcGen, base: SymbolId, arrow: bool| {
                let mut e = pg.b().name(base);
                for (k, f) in path.iter().enumerate() {
                    e = pg.b().e(Expr::Field {
                        base: e,
                        field: f.clone(),
                        arrow: arrow && k == 0,
                    });
                }
                e
            };
            if is_array {
                let sp = self.pg.f.src.source_map.header.unwrap_or_default();
                self.pg.g.diags.push(Diagnostic::error(
                    Code::Unsupported,
                    sp,
                    format!(
                        "a struct passed by value with an array member carrying a derivative (`{}`) is not supported in adjoint mode yet; pass a pointer",
                        path.join(".")
                    ),
                ));
                continue;
            }
            let target = member(&mut self.pg, ptr, true);
            let l = member(&mut self.pg, local, false);
            let cur = member(&mut self.pg, ptr, true);
            let v = self.pg.b().bin(BinOp::Add, cur, l);
            out.push(assign(&mut self.pg.u, target, v));
        }
        out
    }
}

impl<'a> Statements<'a> for Adj<'_, '_, 'a> {
    /// The forward and backward statements of `s` ([`Self::rev_stmt_rule`]), each carrying
    /// the span of `s` unless a statement inside it gave it its own: the unparser maps every
    /// generated line back to the primal line it comes from (`-html`, the web page).
    fn rev_stmt(&mut self, s: StmtId) -> Rev {
        let st: &'a Stmt = &self.pg.f.src.stmts[s];
        let r = match st.omp.as_deref() {
            Some(o)
                if matches!(o.kind, radtap_il::omp::OmpKind::Loop(_))
                    && !self.needs_lowering(s) =>
            {
                self.rev_parallel(s, o)
            }
            _ => self.rev_stmt_rule(s),
        };
        if let Some(sp) = self.pg.f.src.source_map.stmt.get(s).copied() {
            for &n in r.fwd.iter().chain(&r.bwd) {
                if self.pg.u.source_map.stmt.get(n).is_none() {
                    self.pg.u.source_map.stmt.insert(n, sp);
                }
            }
        }
        r
    }

    fn rev_stmt_rule(&mut self, s: StmtId) -> Rev {
        let st: &'a Stmt = &self.pg.f.src.stmts[s];
        if self.pg.check_expr_effects(s) {
            return Rev::default();
        }
        // Before lowering: a fixed-point loop may leave by an EXIT the lowering would reverse.
        if let Some(r) = self.try_fp_loop(s) {
            return r;
        }
        // A loop with EXIT/CYCLE/`break`/`continue` keeps its structure when it can
        // (`structjumps.rs`); else it is lowered to basic blocks.
        let structured = self.needs_lowering(s) && self.structured_jump_loop(s);
        if self.needs_lowering(s) && !structured {
            self.warn_regions_ignored(std::slice::from_ref(&s));
            return self.lower_region(std::slice::from_ref(&s), false);
        }
        if structured {
            self.jump_loops += 1;
            let r = self.rev_loop(s);
            self.jump_loops -= 1;
            return r;
        }
        if has_nocheckpoint(&st.directives) {
            let call = match &st.kind {
                StmtKind::Call { .. } => true,
                StmtKind::Assign { rhs, .. } => self.has_active_user_call(*rhs),
                StmtKind::Expr(e) | StmtKind::Return(Some(e)) => self.has_active_user_call(*e),
                _ => false,
            };
            if !call {
                self.pg.warn(s, Code::Directive, "$AD NOCHECKPOINT applies to the call it precedes, and this statement calls no differentiated procedure: it is ignored");
            }
        }
        if let Some(r) = self.try_binomial(s) {
            return r;
        }
        self.mark_ii_loop(s);
        let mut r = match &st.kind {
            StmtKind::Assign { lhs, op, rhs } => {
                self.adj_assign(s, Target::Expr(*lhs), *op, *rhs, Part::Whole)
            }
            StmtKind::Call { callee, args, .. }
                if self.pg.f.lang == Lang::C && self.pg.callee_name(*callee) == "free" =>
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
            StmtKind::CFor {
                init,
                cond,
                step,
                body,
                ..
            } => self.adj_cfor(s, *init, *cond, *step, body),
            StmtKind::Decl(d) => self.adj_decl(s, d),
            StmtKind::Block { body, .. }
                if matches!(st.omp.as_deref(), Some(o) if matches!(o.kind, radtap_il::omp::OmpKind::Critical(_))) =>
            {
                self.rev_critical(s, body)
            }
            StmtKind::Block { body, .. }
                if matches!(st.omp.as_deref(), Some(o) if matches!(o.kind, radtap_il::omp::OmpKind::Sections(_))) =>
            {
                self.rev_sections(s, body)
            }
            StmtKind::Block { body, decls, .. } if self.pg.f.lang == Lang::C && decls.is_empty() => {
                self.rev_block(body)
            }
            StmtKind::Return(v) => {
                // A C value returned before the end reaches here from the lowering to basic
                // blocks (`jumps.rs`): its adjoint is the final return's.
                let early_value = self.pg.f.lang == Lang::C && v.is_some();
                if Some(&s) != self.pg.f.src.body.last() && !early_value {
                    return self.unsupported(s, "a RETURN before the end of the procedure");
                }
                match v {
                    Some(e) if self.pg.f.lang == Lang::C => self.adj_c_return(s, *e),
                    _ => Rev::default(),
                }
            }
            StmtKind::Expr(e) => self.adj_expr_stmt(s, *e),
            StmtKind::PointerAssign { lhs, .. } if self.pg.f.lang == Lang::Fortran => {
                self.adj_fortran_pointer_assign(s, *lhs)
            }
            StmtKind::PointerAssign { lhs, rhs } => {
                let mut fwd = vec![self.pg.copy_stmt(s)];
                if let (Some(dl), Some(dr)) =
                    (self.pg.dref(*lhs, Dir::Omit), self.pg.dref(*rhs, Dir::All))
                {
                    fwd.push(stmt(
                        &mut self.pg.u,
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
                    if let Some(i) = self.pg.pid(s) {
                        for &it in items {
                            if self
                                .pg
                                .active_ref(it, &self.pg.f.act.active_before[i].clone())
                                || self.pg.active_ref(it, &self.pg.f.act.active_after[i].clone())
                                // Varied before: it carried a derivative, even one the
                                // READ makes useless (and so has no derivative variable).
                                || self.pg.ref_in(it, &self.pg.f.act.varied_before[i].clone())
                            {
                                self.pg.warn(s, Code::ActiveIo, "this READ overwrites an active variable: the value read is taken as a constant");
                            }
                            if self.pg.has_dvar_ref(it) {
                                let k = self.pg.real_kind(it);
                                if let Some(d) = self.pg.dref(it, Dir::Nd) {
                                    let z = self.pg.b().zero(k);
                                    r.bwd.push(assign(&mut self.pg.u, d, z));
                                }
                            }
                        }
                    }
                }
                r
            }
            // FORMAT statements go to the end of the body (`keep_formats`), with their label.
            StmtKind::Format(_) => Rev::default(),
            StmtKind::Comment(_) | StmtKind::Continue | StmtKind::Empty | StmtKind::Stop { .. } => {
                self.fwd_only(s)
            }
            StmtKind::Where {
                arms, else_block, ..
            } => self.adj_where(s, arms, else_block.as_ref()),
            StmtKind::Forall {
                specs, mask, body, ..
            } => self.adj_forall(s, specs, *mask, body),
            StmtKind::Block {
                construct, decls, ..
            } => self.unsupported(
                s,
                match construct {
                    BlockKind::Associate => "an ASSOCIATE construct",
                    // `il::blocks` opened the others.
                    BlockKind::Block if !decls.is_empty() => {
                        "a BLOCK construct with ALLOCATABLE, SAVE or initialised locals, automatic arrays sized by variables, or specification statements other than type declarations"
                    }
                    BlockKind::Block => "a BLOCK construct",
                    BlockKind::C => "a compound statement",
                },
            ),
            StmtKind::Switch { .. } => self.unsupported(s, "a C switch"),
            StmtKind::Loop { .. } => self.unsupported(s, "a loop without a condition"),
            // Inside a loop reversed with its jumps: copied forward, guarded backwards
            // (`guard_rest`).
            StmtKind::Exit(_) | StmtKind::Break | StmtKind::Cycle(_) | StmtKind::CContinue
                if self.jump_loops > 0 =>
            {
                self.fwd_only(s)
            }
            // A GOTO acting as EXIT/CYCLE there: written as one, so the forward sweep's
            // pushes after the loop are not jumped over.
            StmtKind::Goto(_) if self.jump_loops > 0 && self.loop_gotos.contains_key(&s) => {
                let leaves = self.loop_gotos[&s].leaves;
                let k = if leaves {
                    StmtKind::Exit(None)
                } else {
                    StmtKind::Cycle(None)
                };
                Rev {
                    fwd: vec![self.pg.new_like(st, k)],
                    bwd: Vec::new(),
                }
            }
            StmtKind::Exit(_) | StmtKind::Break => self.unsupported(s, "EXIT/break"),
            StmtKind::Cycle(_) | StmtKind::CContinue => self.unsupported(s, "CYCLE/continue"),
            StmtKind::Goto(_) | StmtKind::ComputedGoto { .. } | StmtKind::ArithIf { .. } => {
                self.unsupported(s, "GOTO")
            }
            StmtKind::Entry { .. } => self.unsupported(s, "ENTRY"),
            StmtKind::CaseLabel(_) => self.unsupported(s, "a case label outside a switch"),
        };
        self.pg.report_lost_derivative(s);
        r.fwd = self.pg.move_label(st, std::mem::take(&mut r.fwd));
        r
    }
}
