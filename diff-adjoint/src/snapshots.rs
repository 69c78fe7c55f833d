//! Snapshots of checkpointed pieces: the slots of what a checkpointed call or region reads
//! and writes, recorded before it runs and restored before it is run again, component by
//! component for records.

use crate::*;

impl<'a> Adj<'_, '_, 'a> {
    /// Push/pop pairs recording the zones `z` before a statement overwrites them: each
    /// variable of this procedure holding one of them is recorded whole.
    pub(crate) fn snapshot(&mut self, s: StmtId, z: &ZoneSet) -> (Vec<StmtId>, Vec<StmtId>) {
        let sp = self.pg.span(s);
        self.snapshot_at(sp, z)
    }

    pub(crate) fn snapshot_at(&mut self, sp: Span, z: &ZoneSet) -> (Vec<StmtId>, Vec<StmtId>) {
        let mut syms: Vec<SymbolId> = Vec::new();
        let mut heap_members: Vec<(SymbolId, String)> = Vec::new();
        let mut covered = self.pg.f.pi.zones.empty();
        for (k, o) in &self.pg.f.pi.zones.objects {
            let set = self.pg.f.pi.zones.obj_set(o);
            if !set.intersects(z) {
                continue;
            }
            match k {
                ObjKey::Sym(x) if self.mpi_handle(*x) => {
                    // An MPI request or status: radtap's MPI layer knows a request by the
                    // address of its variable, never by its value (issue 46).
                    covered.union_with(&set);
                }
                ObjKey::Sym(x) => {
                    // A callee's COMMON block this procedure does not declare: declared in
                    // the derivative to be recorded; a module variable it does not see:
                    // USEd by name.
                    let visible = self.visible(*x)
                        || self.pg.declare_foreign_common(*x)
                        || self.pg.use_foreign_module_var(*x);
                    if visible && !syms.contains(x) {
                        syms.push(*x);
                        covered.union_with(&set);
                    } else if !visible
                        && (self.save_local_read_by_dead_code_only(*x)
                            || self.save_local_carries_nothing(*x))
                    {
                        // Nothing a derivative needs reads it: its value when the backward
                        // sweep runs the callee again does not matter.
                        covered.union_with(&set);
                    }
                }
                ObjKey::Pointee(x) => {
                    // `*p` of a pointer whose element count the user gave: recorded whole
                    // as `p[0 .. size)`.
                    if self.pg.f.lang == Lang::C
                        && self.visible(*x)
                        && self.user_size_text(*x).is_some()
                        && !syms.contains(x)
                    {
                        syms.push(*x);
                        covered.union_with(&set);
                    }
                }
                ObjKey::Heap(u, at) => {
                    // A block allocated here and held by one local pointer: recorded whole,
                    // its extent the allocation's.
                    if *u != self.pg.f.p {
                        continue;
                    }
                    let holders: Vec<SymbolId> = self
                        .zone_symbols()
                        .into_iter()
                        .filter(|&x| self.malloc_extent(x).is_some_and(|(a, _)| a == *at))
                        .collect();
                    // Two pointers set by one declaration share the site: neither is all.
                    let holder = match holders[..] {
                        [x] => Some(x),
                        _ => None,
                    };
                    // Pointers rotating over their blocks (`tmp = u; u = unew; unew = tmp`):
                    // the block may be any member's now, and the members hold all the
                    // group's blocks between them.
                    let group =
                        holder.and_then(|x| self.pg.f.pi.zones.rotations.iter().find(|r| r.has(x)));
                    let holders: Vec<SymbolId> = match group {
                        Some(r) => r.members.iter().map(|&(m, _)| m).collect(),
                        None => holder.into_iter().collect(),
                    };
                    for &x in &holders {
                        if !syms.contains(&x) {
                            syms.push(x);
                        }
                        // The blocks behind the record's pointer members (`R->data@292`
                        // of `R = get_new_matrix(3, 3)`): recorded by their counts.
                        if self.pg.f.lang == Lang::C && self.record_type_of(x).is_some() {
                            for zi in set.iter() {
                                if !z.contains(zi) {
                                    continue;
                                }
                                let name = &self.pg.f.pi.zones.zones[zi.index()].name;
                                let name = name.split('@').next().unwrap_or(name);
                                let f = name.rsplit(['.', '>']).next().unwrap_or(name);
                                if self.pointer_member(x, f)
                                    && !heap_members.contains(&(x, f.to_string()))
                                {
                                    heap_members.push((x, f.to_string()));
                                }
                            }
                        }
                    }
                    if !holders.is_empty() {
                        covered.union_with(&set);
                    }
                }
            }
        }
        let mut rest = z.clone();
        rest.subtract(&covered);
        if !rest.is_empty() {
            // Name the pointers whose memory is concerned, so the user knows what to size.
            let mut ptrs: Vec<String> = Vec::new();
            for (k, o) in &self.pg.f.pi.zones.objects {
                if let ObjKey::Pointee(x) = k {
                    if self.pg.f.pi.zones.obj_set(o).intersects(&rest) && self.visible(*x) {
                        ptrs.push(self.pg.name_of(*x).to_string());
                    }
                }
            }
            // Or the blocks allocated here whose element count is not fixed.
            let mut blocks: Vec<u32> = Vec::new();
            for (k, o) in &self.pg.f.pi.zones.objects {
                if let ObjKey::Heap(u, at) = k {
                    if *u == self.pg.f.p && self.pg.f.pi.zones.obj_set(o).intersects(&rest) {
                        blocks.extend(self.pg.f.src.source_map.stmt.get(*at).map(|sp| sp.line));
                    }
                }
            }
            // Or the saved locals of other procedures (not visible here).
            let mut saved: Vec<String> = Vec::new();
            for (k, o) in &self.pg.f.pi.zones.objects {
                if let ObjKey::Sym(x) = k {
                    let sd = &self.pg.prog().symbols[*x];
                    let owner = radtap_dataflow::zones::unit_of_scope(self.pg.prog(), sd.scope);
                    if sd.attrs.save
                        && owner.is_some_and(|o| o != self.pg.f.p)
                        && self.pg.f.pi.zones.obj_set(o).intersects(&rest)
                        && !self.visible(*x)
                    {
                        let o = unit_name(self.pg.prog(), owner.unwrap_or(self.pg.f.p));
                        saved.push(format!("`{}` (saved in `{o}`)", sd.spelling));
                    }
                }
            }
            let msg = if !saved.is_empty() && ptrs.is_empty() && blocks.is_empty() {
                let rerun = if self.stepping_rerun {
                    "the BINOMIAL-CKP loop runs its steps again in the backward sweep, and they"
                } else {
                    "the checkpointed call runs again in the backward sweep and"
                };
                format!(
                    "values the adjoint needs here are in {}, which `{}` cannot record: {rerun} would start from the state the forward sweep left; make it a module (or file-scope) variable, or split the call (NOCHECKPOINT)",
                    saved.join(", "),
                    unit_name(self.pg.prog(), self.pg.f.p)
                )
            } else if !blocks.is_empty() && ptrs.is_empty() {
                format!(
                    "values the adjoint needs here are in memory allocated at line {} whose element count radtap cannot fix (one local pointer set once by `malloc(count * sizeof(T))` or `calloc`, with a count over integer arguments, constants and integer macros that do not change)",
                    blocks.iter().map(|l| l.to_string()).collect::<Vec<_>>().join(", ")
                )
            } else if ptrs.is_empty() {
                "values the adjoint needs here cannot be recorded (memory not visible in this procedure)".to_string()
            } else {
                format!(
                    "values the adjoint needs here are behind {} of unknown size: give {} (an expression over integer variables visible in `{}`) so they can be recorded",
                    ptrs.iter().map(|p| format!("`{p}`")).collect::<Vec<_>>().join(", "),
                    ptrs.iter().map(|p| format!("-size {p}=N")).collect::<Vec<_>>().join(" "),
                    unit_name(self.pg.prog(), self.pg.f.p)
                )
            };
            self.pg
                .g
                .diags
                .push(Diagnostic::error(Code::Unsupported, sp, msg));
            return (Vec::new(), Vec::new());
        }
        syms.sort();
        let (mut push, mut pop): (Vec<StmtId>, Vec<StmtId>) = (Vec::new(), Vec::new());
        for x in syms {
            // A C record's bytes hold its pointer members, not the blocks they designate
            // (`records.rs`); a Fortran derived type is recorded by its components.
            let slots = match self.record_type_of(x) {
                Some(td) if self.pg.f.lang == Lang::Fortran => self.component_slots(x, td, z),
                _ if self.pg.f.lang == Lang::C => {
                    // Member blocks first: popped after the records, their members back.
                    let mut err = None;
                    let mut members: Vec<(String, Option<ExprId>)> = heap_members
                        .iter()
                        .filter(|(h, _)| *h == x)
                        .map(|(_, f)| (f.clone(), None))
                        .collect();
                    // Only records this program allocated (their count from the callers'
                    // allocations): a head's records come with blocks nothing here sized.
                    for f in self.pointee_members(x, z) {
                        match self.callers_count(x).map(|t| self.size_expr(&t)) {
                            Some(Ok(n)) => members.push((f, Some(n))),
                            Some(Err(e)) => err = Some(e),
                            None => err = Some(format!("recording what the record member `{}.{f}` points to (only the blocks of records this program allocates and passes here, or of a member this procedure allocates with `malloc(n * sizeof(T))` at its top level, `n` unchanged, are recorded)", self.pg.name_of(x))),
                        }
                    }
                    for (f, n) in members {
                        match self.heap_member_records(x, &f, n) {
                            Ok((a, b)) => {
                                push.push(a);
                                pop.insert(0, b);
                            }
                            Err(e) => err = Some(e),
                        }
                    }
                    match err {
                        Some(e) => Err(e),
                        None => self.slot_of_sym(x).and_then(|sl| {
                            let mut slots = vec![sl];
                            slots.extend(self.member_blocks(x, z)?);
                            Ok(slots)
                        }),
                    }
                }
                _ => self.slot_of_sym(x).map(|sl| vec![sl]),
            };
            // (A split-mode local array's record is guarded by `split_local_arrays`.)
            let allocatable = self.pg.f.lang == Lang::Fortran
                && self.pg.prog().symbols[x].attrs.allocatable
                && self.record_type_of(x).is_none()
                && !self.split_allocs.contains(&x);
            match slots {
                Ok(slots) => {
                    for sl in slots {
                        let (a, b) = self.push_pop(&sl);
                        if allocatable {
                            let (a, b) = self.if_allocated(x, a, b);
                            push.push(a);
                            pop.splice(0..0, b);
                        } else {
                            push.push(a);
                            pop.insert(0, b);
                        }
                    }
                }
                Err(m) => {
                    let msg = format!("{m} is not supported in adjoint mode yet");
                    self.pg
                        .g
                        .diags
                        .push(Diagnostic::error(Code::Unsupported, sp, msg));
                }
            }
        }
        (push, pop)
    }

    /// The push `a` and pop `b` of the Fortran allocatable `x`, run only when `x` is
    /// allocated at the push, its allocation status recorded beside it (a snapshot before the
    /// call that allocates a module array pushed an unallocated array: a crash):
    /// `if (allocated(x)) then; a; pushcontrol1b(1); else; pushcontrol1b(0); end if` and
    /// `popcontrol1b(branch); if (branch == 1) b`.
    fn if_allocated(&mut self, x: SymbolId, a: StmtId, b: StmtId) -> (StmtId, Vec<StmtId>) {
        let n = self.pg.b().name(x);
        let cond = self.pg.b().call("allocated", vec![n]);
        let (yes, no) = (self.push_control(1, 1), self.push_control(1, 0));
        let push = stmt(
            &mut self.pg.u,
            StmtKind::If {
                arms: vec![(cond, vec![a, yes])],
                else_block: Some(vec![no]),
                logical: false,
                braces: vec![true],
            },
        );
        let v = self.branch_var();
        let pop_bit = self.pop_control(1, v);
        let test = self.eq_test(v, 1);
        let pop_if = stmt(
            &mut self.pg.u,
            StmtKind::If {
                arms: vec![(test, vec![b])],
                else_block: None,
                logical: false,
                braces: vec![true],
            },
        );
        (push, vec![pop_bit, pop_if])
    }

    /// The derived type of variable `s`, when it has one.
    fn record_type_of(&self, s: SymbolId) -> Option<TypeDefId> {
        match self.pg.prog().symbols[s].ty.as_ref()?.base {
            BaseClass::Record(td) => Some(td),
            _ => None,
        }
    }

    /// A Fortran derived-type variable recorded by its components, as Tapenade does
    /// (`pushboolean(fc%first)`): one slot per leaf component holding a zone of `z`, in the
    /// layout order of the zones (`radtap_dataflow::zones`, depth first). A whole array of
    /// records records a scalar component as the section `a%f`; an array component of an
    /// array of records, and pointer or allocatable components, are refused.
    fn component_slots(
        &mut self,
        x: SymbolId,
        td: TypeDefId,
        z: &ZoneSet,
    ) -> Result<Vec<Slot>, String> {
        let name = self.pg.name_of(x).to_string();
        let o = self.pg.f.pi.zones.objects[&ObjKey::Sym(x)];
        let mut leaves = Vec::new();
        self.leaf_paths(td, &mut Vec::new(), &mut leaves, 0);
        if leaves.len() != o.len as usize {
            return Err(format!("recording the derived-type variable `{name}`"));
        }
        let whole_rank = self.pg.prog().symbols[x]
            .ty
            .as_ref()
            .map_or(0, |t| t.dims.len());
        let mut out = Vec::new();
        for (j, leaf) in leaves.into_iter().enumerate() {
            if !z.contains(radtap_dataflow::ZoneId(o.start + j as u32)) {
                continue;
            }
            let path = leaf.ok_or_else(|| {
                format!("recording a pointer or allocatable component of the derived-type variable `{name}`")
            })?;
            let Some(&leaf_sym) = path.last() else {
                return Err(format!("recording the derived-type variable `{name}`"));
            };
            let ty = self.pg.prog().symbols[leaf_sym]
                .ty
                .clone()
                .ok_or_else(|| format!("recording the derived-type variable `{name}`"))?;
            if whole_rank > 0 && !ty.dims.is_empty() {
                return Err(format!(
                    "recording an array component of the array of derived type `{name}`"
                ));
            }
            let suffix = Self::suffix_of(&ty)
                .ok_or_else(|| format!("recording a component of `{name}` (its type)"))?;
            let base = self.pg.b().name(x);
            out.push(self.component_slot(base, &path, &ty, whole_rank, suffix));
        }
        Ok(out)
    }

    /// The slot of component `path` (leaf type `ty`) of the record reference `base` (built in
    /// the output unit) of rank `whole_rank`: a string's bytes, an array's `size`.
    pub(crate) fn component_slot(
        &mut self,
        base: ExprId,
        path: &[SymbolId],
        ty: &Type,
        whole_rank: usize,
        suffix: &'static str,
    ) -> Slot {
        let mut primal = base;
        for f in path {
            let field = self.pg.prog().symbols[*f].spelling.clone();
            primal = self.pg.b().e(Expr::Field {
                base: primal,
                field,
                arrow: false,
            });
        }
        let rank = whole_rank + ty.dims.len();
        let count = if ty.base == BaseClass::Character {
            Some(self.string_bytes(primal, rank, None))
        } else if rank > 0 {
            let p = self.dup(primal);
            Some(self.pg.b().call("size", vec![p]))
        } else {
            None
        };
        Slot {
            primal,
            suffix,
            count,
        }
    }

    /// The component paths of the leaves of derived type `td`, in the zones' layout order
    /// (`Layouts::leaves`); `None` for a leaf that is not a plain value (a pointer or
    /// allocatable component, one zone for a whole nested record).
    pub(crate) fn leaf_paths(
        &self,
        td: TypeDefId,
        prefix: &mut Vec<SymbolId>,
        out: &mut Vec<Option<Vec<SymbolId>>>,
        depth: u32,
    ) {
        let prog = self.pg.prog();
        let before = out.len();
        for d in &prog.typedefs[td].fields {
            let Decl::Var(v) = d else { continue };
            for e in &v.entities {
                let sd = &prog.symbols[e.sym];
                let ty = sd.ty.as_ref();
                let by_ref =
                    sd.attrs.pointer || ty.is_some_and(|t| t.pointers > 0) || !e.derived.is_empty();
                prefix.push(e.sym);
                match ty.map(|t| t.base) {
                    Some(BaseClass::Record(inner)) if !by_ref && depth < 16 && inner != td => {
                        if sd.attrs.allocatable || ty.is_some_and(|t| !t.dims.is_empty()) {
                            // An array of records inside a record: its leaves are sections
                            // of sections; not recorded component-wise.
                            let n = out.len();
                            self.leaf_paths(inner, prefix, out, depth + 1);
                            for l in &mut out[n..] {
                                *l = None;
                            }
                        } else {
                            self.leaf_paths(inner, prefix, out, depth + 1);
                        }
                    }
                    Some(BaseClass::Record(_)) | None => out.push(None),
                    Some(_) if sd.attrs.allocatable || sd.attrs.pointer => out.push(None),
                    Some(_) => out.push(Some(prefix.clone())),
                }
                prefix.pop();
            }
        }
        if out.len() == before {
            out.push(None);
        }
    }
}
