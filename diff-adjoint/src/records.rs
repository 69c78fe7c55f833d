//! C records that own heap memory in adjoint mode (`typedef struct { int rows, cols; double
//! *data; } Matrix;`): the derivative record's pointer member is a shadow block allocated
//! with the primal's and freed with it, like a local pointer's (`memory.rs`).
//!
//! Accepted: `m.data = malloc(…)` (or `m->data = …` through a local pointer `m`) at the top
//! level of the procedure, the member's only assignment, with `free(m.data)` at the top
//! level too, and the record (or the pointer to it) never assigned as a whole. Forwards the
//! primal block and a zeroed shadow block (`mb.data = calloc(…)`: adjoints accumulate) are
//! allocated; the `free` is left out; the backward sweep frees both where it passes the
//! allocation again, after everything that reads them. Everything else that sets or frees
//! such a member is refused at its line (AD020): the adjoint would have to record and
//! restore the pointer, and the blocks it designated.

use crate::*;

impl<'a> Adj<'_, '_, 'a> {
    /// The access path of a C record member `m.data`, `m->data`, `(m).inner.data`, as its
    /// root variable and a key naming the path (parentheses and casts aside); `None` for
    /// anything else (subscripts, calls, dereferences).
    pub(crate) fn member_path(&self, mut e: ExprId) -> Option<(SymbolId, String)> {
        let src = self.pg.f.src;
        loop {
            match &src.exprs[e] {
                Expr::Paren(a) | Expr::Cast { arg: a, .. } => e = *a,
                Expr::Field { base, field, arrow } => {
                    let (root, k) = match &src.exprs[*base] {
                        Expr::Name(r) => (*r, format!("{r:?}")),
                        _ => self.member_path(*base)?,
                    };
                    let sep = if *arrow { "->" } else { "." };
                    return Some((root, format!("{k}{sep}{field}")));
                }
                _ => return None,
            }
        }
    }

    /// The member paths `free(m.data)` frees at the top level of the body, whose record is
    /// a local of this procedure never assigned as a whole (collected once, before the
    /// sweeps are built).
    pub(crate) fn collect_freed_members(&mut self) {
        let src = self.pg.f.src;
        let mut out = HashSet::new();
        for &st in &src.body {
            let StmtKind::Call { callee, args, .. } = &src.stmts[st].kind else {
                continue;
            };
            if self.pg.f.lang != Lang::C || self.pg.callee_name(*callee) != "free" {
                continue;
            }
            let [a] = args.as_slice() else { continue };
            if !self.pg.field_is_pointer(a.value) {
                continue;
            }
            if let Some((root, key)) = self.member_path(a.value) {
                if self.own_local(root) && !self.root_reassigned(root) {
                    out.insert(key);
                }
            }
        }
        self.freed_members = out;
    }

    /// Whether the record variable `root` (or the pointer to a record) is assigned as a
    /// whole, stepped, or has its address taken anywhere in the procedure other than in its
    /// declaration (then a member path may designate another record at the free).
    fn root_reassigned(&self, root: SymbolId) -> bool {
        let src = self.pg.f.src;
        let is_root = |mut e: ExprId| loop {
            match &src.exprs[e] {
                Expr::Paren(a) | Expr::Cast { arg: a, .. } => e = *a,
                Expr::Name(n) => return *n == root,
                _ => return false,
            }
        };
        let pointer = self.pg.prog().symbols[root]
            .ty
            .as_ref()
            .is_some_and(|t| t.pointers > 0);
        src.stmts.iter().any(|(_, st)| {
            matches!(st.kind, StmtKind::Assign { lhs, .. } | StmtKind::PointerAssign { lhs, .. } if is_root(lhs))
        }) || src.exprs.iter().any(|(_, e)| match e {
            Expr::Assign { lhs, .. } | Expr::IncDec { arg: lhs, .. } => is_root(*lhs),
            // `&m` passed to a helper: a differentiated helper that sets the member is
            // refused at its own line; one with no derivative at the call
            // (`heap_records.rs`). The pointer to a record, though, could be re-pointed.
            Expr::Unary {
                op: UnOp::AddrOf,
                arg,
            } => pointer && is_root(*arg),
            _ => false,
        })
    }

    /// `lhs = rhs` where `lhs` is a C record member of pointer type with a derivative twin:
    /// the accepted allocation (module doc), or AD020. `None` when the member has no twin
    /// (the plain rules apply).
    pub(crate) fn adj_member_pointer(
        &mut self,
        s: StmtId,
        lhs: ExprId,
        rhs: ExprId,
    ) -> Option<Rev> {
        if self.pg.f.lang != Lang::C || !self.pg.field_is_pointer(lhs) {
            return None;
        }
        self.pg.dref(lhs, Dir::Omit)?;
        let path = self.member_path(lhs);
        let name = match &self.pg.f.src.exprs[lhs] {
            Expr::Field { field, .. } => field.clone(),
            _ => "member".to_string(),
        };
        let assigned_once = path.as_ref().is_some_and(|(_, key)| {
            let src = self.pg.f.src;
            src.stmts
                .iter()
                .filter(|(_, st)| {
                    matches!(st.kind, StmtKind::Assign { lhs: l, .. }
                        if self.member_path(l).is_some_and(|(_, k)| k == *key))
                })
                .count()
                == 1
        });
        let ok = self.is_allocation(rhs)
            && self.pg.allocator_of(rhs).is_none()
            && self.pg.f.src.body.contains(&s)
            && self.pg.f.sweep == Sweep::Joint
            && assigned_once
            && path
                .as_ref()
                .is_some_and(|(_, key)| self.freed_members.contains(key));
        if !ok {
            return Some(self.adj_member_repointed(s, lhs, rhs, &name));
        }
        let mut r = Rev::default();
        r.fwd.push(self.pg.copy_stmt(s));
        let twin = self.pg.field_pointer_twin(lhs, rhs);
        if twin.is_empty() {
            let msg = format!("a pointer stored in a record member (`{name}`) set here, whose shadow cannot be allocated,");
            return Some(self.unsupported(s, &msg));
        }
        for &t in &twin {
            if let StmtKind::Assign { rhs: d, .. } = self.pg.u.stmts[t].kind {
                self.zeroed_allocation(d);
            }
        }
        r.fwd.extend(twin);
        // Backwards, both blocks are freed where the allocation is passed again.
        let prim = self.pg.cp(lhs);
        let mut blocks = vec![prim];
        blocks.extend(self.pg.dref(lhs, Dir::Omit));
        for b in blocks {
            let f = self.pg.b().opaque("free");
            r.bwd.push(stmt(
                &mut self.pg.u,
                StmtKind::Call {
                    callee: f,
                    args: vec![Arg {
                        keyword: None,
                        value: b,
                    }],
                    no_parens: false,
                },
            ));
        }
        Some(r)
    }

    /// Any other set of a pointer member with a twin (`resize`'s `mat->data = malloc(…)` or
    /// `mat->data = NULL`, in a branch, through a pointer argument, in a loop): forwards,
    /// both pointers are recorded, then set (the twin to a zeroed block or `NULL`);
    /// backwards, the blocks allocated here are freed and the pointers popped. The block the
    /// member designated before is not lost: frees of such members wait for the backward
    /// sweep ([`Self::adj_free_member`]), so its values stay as they were, and the popped
    /// pointer designates them again (the adjoint of `malloc` is `free`; the adjoint of
    /// `free` is the block back, unchanged). Other values (`m->data = other->data`) are
    /// refused at their line.
    fn adj_member_repointed(&mut self, s: StmtId, lhs: ExprId, rhs: ExprId, name: &str) -> Rev {
        let mut inner = rhs;
        while let Expr::Paren(a) | Expr::Cast { arg: a, .. } = self.pg.f.src.exprs[inner] {
            inner = a;
        }
        let null = matches!(&self.pg.f.src.exprs[inner], Expr::Opaque(t) if t == "NULL")
            || matches!(&self.pg.f.src.exprs[inner], Expr::Literal(l) if l.text == "0");
        let fresh = self.is_allocation(rhs) && self.pg.allocator_of(rhs).is_none();
        // A split sweep's local record is another variable in each sweep: `_bwd` could not
        // free nor restore what `_fwd` set.
        let own = self.member_path(lhs).is_some_and(|(root, _)| {
            self.own_local(root)
                && self.pg.prog().symbols[root]
                    .ty
                    .as_ref()
                    .is_some_and(|t| t.pointers == 0)
        });
        if own && self.pg.f.sweep != Sweep::Joint {
            let msg = format!("in a procedure split into forward and backward sweeps, a pointer stored in a member (`{name}`) of a local record");
            return self.unsupported(s, &msg);
        }
        if !(null || fresh) {
            let msg = format!("a pointer stored in a record member (`{name}`) set here to other than a fresh block or `NULL` (only `m.{name} = malloc(…)`, `calloc(…)` or `NULL` is differentiated)");
            return self.unsupported(s, &msg);
        }
        let twin = self.pg.field_pointer_twin(lhs, rhs);
        let Some(dl) = self.pg.dref(lhs, Dir::Omit) else {
            let msg = format!("a pointer stored in a record member (`{name}`) set here, whose shadow cannot be allocated,");
            return self.unsupported(s, &msg);
        };
        if twin.is_empty() {
            let msg = format!("a pointer stored in a record member (`{name}`) set here, whose shadow cannot be allocated,");
            return self.unsupported(s, &msg);
        }
        let mut r = Rev::default();
        let prim = self.pg.cp(lhs);
        for p in [prim, dl] {
            let v = self.void_cast(p, 1);
            r.fwd.push(self.rt("pushPointer8", vec![v]));
        }
        r.fwd.push(self.pg.copy_stmt(s));
        for &t in &twin {
            if let StmtKind::Assign { rhs: d, .. } = self.pg.u.stmts[t].kind {
                self.zeroed_allocation(d);
            }
        }
        r.fwd.extend(twin);
        let prim = self.pg.cp(lhs);
        let dl = self.pg.dref(lhs, Dir::Omit).unwrap_or(dl);
        if fresh {
            for b in [prim, dl] {
                let f = self.pg.b().opaque("free");
                r.bwd.push(stmt(
                    &mut self.pg.u,
                    StmtKind::Call {
                        callee: f,
                        args: vec![Arg {
                            keyword: None,
                            value: b,
                        }],
                        no_parens: false,
                    },
                ));
            }
        }
        let dl = self.pg.dref(lhs, Dir::Omit).unwrap_or(dl);
        let prim = self.pg.cp(lhs);
        for p in [dl, prim] {
            let a = self.pg.b().e(Expr::Unary {
                op: UnOp::AddrOf,
                arg: p,
            });
            let v = self.void_cast(a, 2);
            r.bwd.push(self.rt("popPointer8", vec![v]));
        }
        r
    }

    /// `(void *)e` (`stars` 1) or `(void **)e` (2).
    fn void_cast(&mut self, e: ExprId, stars: usize) -> ExprId {
        let ty = Box::new(CParam {
            spec: TypeSpec {
                class: BaseClass::Void,
                keyword: "void".into(),
                name: None,
                kind: KindSel::Default,
                char_len: None,
                bytes: None,
                qualifiers: Vec::new(),
                inline_def: None,
            },
            name: None,
            derived: vec![DeclOp::Pointer(Vec::new()); stars],
            dims: Vec::new(),
        });
        self.pg.b().e(Expr::Cast { ty, arg: e })
    }

    /// `free(m.data)` of a pointer member with a twin: left out (the backward sweep frees
    /// the blocks where it passes their allocation: at the top level of the procedure for
    /// an accepted local member, in the reversed `m.data = malloc(…)` otherwise,
    /// [`Self::adj_member_repointed`]). `None` when `e` is not such a member.
    pub(crate) fn adj_free_member(&mut self, s: StmtId, e: ExprId) -> Option<Rev> {
        let (_, key) = self.member_path(e)?;
        let local = self.freed_members.contains(&key) && self.pg.f.src.body.contains(&s);
        let twin = self.pg.f.lang == Lang::C
            && self.pg.field_is_pointer(e)
            && self.pg.dref(e, Dir::Omit).is_some();
        if !local && !twin {
            return None;
        }
        let c = stmt(
            &mut self.pg.u,
            StmtKind::Comment("// free delayed to the backward sweep".into()),
        );
        Some(Rev {
            fwd: vec![c],
            bwd: Vec::new(),
        })
    }
}

impl<'a> Adj<'_, '_, 'a> {
    /// The zeroed shadow member blocks of `q = get_new_matrix(…)` (`rhs`), `dq` the shadow.
    pub(crate) fn shadow_members(&mut self, rhs: ExprId, q: SymbolId, dq: SymbolId) -> Vec<StmtId> {
        if self.pg.allocator_of(rhs).is_none() {
            return Vec::new();
        }
        let members = self.pg.allocator_members(rhs, Some(q), dq);
        for &m in &members {
            if let StmtKind::Assign { rhs: d, .. } = self.pg.u.stmts[m].kind {
                self.zeroed_allocation(d);
            }
        }
        members
    }

    /// The backward sweep's end of a block a deallocator frees (`d`, `delete_matrix(m)` at
    /// the top level, left out of the forward sweep): the frees of the shadow, then the
    /// deallocator itself, where the backward sweep passes the allocation (statement `s`).
    pub(crate) fn delayed_deallocation(&mut self, s: StmtId, d: StmtId) -> Vec<StmtId> {
        let StmtKind::Call { callee, args, .. } = &self.pg.f.src.stmts[d].kind else {
            return Vec::new();
        };
        let Some(dl) = self.pg.deallocator_of(*callee) else {
            return Vec::new();
        };
        let frees = match args.as_slice() {
            [a] => self.pg.deallocator_frees(&dl, a.value),
            // The members of each record, then the block (`delete_light_matrix_array(m,
            // count)`, its count unchanged since the call: `sweeps.rs`). The members are
            // the blocks the backward sweep has not freed yet (those of allocations it
            // reversed are `NULL` again).
            [_, ..] => self.pg.deallocator_frees_each(*callee, &dl, args),
            [] => None,
        };
        // A block with no shadow (constants the backward sweep still reads, e.g. through
        // a zero derivative record's extent): only the deallocator, delayed as well.
        let shadowless = args.first().is_some_and(|a| !self.pg.has_shadow(a.value));
        let mut out = match frees {
            Some(f) => f,
            None if shadowless => Vec::new(),
            None => {
                let _ = self.unsupported(
                    s,
                    "a block freed by a deallocator whose shadow cannot be freed",
                );
                return Vec::new();
            }
        };
        out.push(self.pg.copy_stmt(d));
        out
    }

    /// `delete_matrix(m)` at the top level for a block allocated here: left out of the
    /// forward sweep ([`Self::delayed_deallocation`] frees it backwards). `None` when the
    /// call is not such a deallocation.
    pub(crate) fn adj_deallocation(&mut self, s: StmtId) -> Option<Rev> {
        if !self.deallocated.values().any(|&d| d == s) {
            return None;
        }
        let c = stmt(
            &mut self.pg.u,
            StmtKind::Comment("// deallocation delayed to the backward sweep".into()),
        );
        Some(Rev {
            fwd: vec![c],
            bwd: Vec::new(),
        })
    }
}

impl<'a> Adj<'_, '_, 'a> {
    /// The blocks behind the pointer members of record variable `x` whose values are among
    /// the zones `z` a snapshot records: recording `x` as bytes keeps the pointers, not what
    /// they designate (the zone of `v.data` is the data). The block of a member this
    /// procedure allocates (`v.data = malloc(n * sizeof(double))`, accepted above) is
    /// recorded whole, `v.data[0 .. n)`; any other is an error (the adjoint would replay the
    /// callee on values it changed).
    pub(crate) fn member_blocks(&mut self, x: SymbolId, z: &ZoneSet) -> Result<Vec<Slot>, String> {
        let prog = self.pg.prog();
        let Some(ty) = prog.symbols[x].ty.as_ref() else {
            return Ok(Vec::new());
        };
        let BaseClass::Record(td) = ty.base else {
            return Ok(Vec::new());
        };
        // The pointer members of the record, at any depth.
        let mut ptr_members: Vec<String> = Vec::new();
        let mut todo = vec![(td, 0u32)];
        while let Some((t, depth)) = todo.pop() {
            for f in &prog.typedefs[t].fields {
                let Decl::Var(v) = f else { continue };
                for e in &v.entities {
                    let Some(ft) = prog.symbols[e.sym].ty.as_ref() else {
                        continue;
                    };
                    if ft.pointers > 0 {
                        ptr_members.push(prog.symbols[e.sym].spelling.clone());
                    } else if let (BaseClass::Record(inner), true) = (ft.base, depth < 8) {
                        todo.push((inner, depth + 1));
                    }
                }
            }
        }
        if ptr_members.is_empty() {
            return Ok(Vec::new());
        }
        // The record itself, or the records a pointer designates (`-size p=N`).
        let objs: Vec<(u32, u32)> = [ObjKey::Sym(x), ObjKey::Pointee(x)]
            .iter()
            .filter_map(|k| self.pg.f.pi.zones.objects.get(k).map(|o| (o.start, o.len)))
            .collect();
        let xname = prog.symbols[x].spelling.clone();
        let mut out = Vec::new();
        let zones = objs.iter().flat_map(|&(a, n)| a..a + n);
        for zi in zones {
            if !z.contains(radtap_dataflow::ZoneId(zi)) {
                continue;
            }
            let name = self.pg.f.pi.zones.zones[zi as usize].name.clone();
            let rest = name.strip_prefix(xname.as_str()).unwrap_or(&name);
            let last = rest
                .rsplit(['.', '>', '%'])
                .next()
                .unwrap_or(rest)
                .trim_end_matches("[]");
            if !ptr_members.iter().any(|m| m == last) {
                continue;
            }
            // The records a pointer designates: their blocks are recorded by
            // `heap_member_records` (`snapshot_at`).
            if self
                .pg
                .f
                .pi
                .zones
                .objects
                .get(&ObjKey::Pointee(x))
                .is_some_and(|o| zi >= o.start && zi < o.start + o.len)
            {
                continue;
            }
            let slot = (rest == format!(".{last}"))
                .then(|| self.allocated_member_slot(x, last))
                .flatten();
            match slot {
                Some(sl) => out.push(sl),
                None => {
                    return Err(format!(
                        "recording what the record member `{xname}.{last}` points to (only a member this procedure allocates with `malloc(n * sizeof(T))` at its top level, `n` unchanged, is recorded)"
                    ))
                }
            }
        }
        Ok(out)
    }

    /// The pointer members of the records pointer `x` designates whose blocks are among the
    /// zones `z` (`absolutes[k].data`).
    pub(crate) fn pointee_members(&self, x: SymbolId, z: &ZoneSet) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        let Some(o) = self.pg.f.pi.zones.objects.get(&ObjKey::Pointee(x)) else {
            return out;
        };
        for zi in o.start..o.start + o.len {
            if !z.contains(radtap_dataflow::ZoneId(zi)) {
                continue;
            }
            let name = &self.pg.f.pi.zones.zones[zi as usize].name;
            let name = name.split('@').next().unwrap_or(name);
            let f = name
                .rsplit(['.', '>'])
                .next()
                .unwrap_or(name)
                .trim_end_matches("[]");
            if self.pointer_member(x, f) && !out.iter().any(|m| m == f) {
                out.push(f.to_string());
            }
        }
        out
    }

    /// Whether `f` is a pointer member of the record type `x` is or points to.
    pub(crate) fn pointer_member(&self, x: SymbolId, f: &str) -> bool {
        let prog = self.pg.prog();
        let Some(BaseClass::Record(td)) = prog.symbols[x].ty.as_ref().map(|t| t.base) else {
            return false;
        };
        prog.typedefs[td].fields.iter().any(|d| match d {
            Decl::Var(v) => v.entities.iter().any(|e| {
                prog.symbols[e.sym].spelling == f
                    && prog.symbols[e.sym]
                        .ty
                        .as_ref()
                        .is_some_and(|t| t.pointers > 0)
            }),
            _ => false,
        })
    }

    /// Push and pop of the blocks behind pointer member `f` of the records local pointer
    /// `x` designates (`R->data` of `R = get_new_matrix(3, 3)`; each `bones[k].data` of
    /// `bones = get_matrix_array(nb)`, in a loop over the records of its one allocation),
    /// whose counts the records' integer members give wherever a procedure can see them
    /// (`radtap_il::member_count`: `R->nrows * R->ncols`, proven over the program's writes
    /// of those members). The pop runs after the records' bytes are back.
    pub(crate) fn heap_member_records(
        &mut self,
        x: SymbolId,
        f: &str,
        given: Option<ExprId>,
    ) -> Result<(StmtId, StmtId), String> {
        let prog = self.pg.prog();
        let name = prog.symbols[x].spelling.clone();
        let err = || {
            format!("recording the blocks `{name}` points to through its member `{f}` (their element count is not a product of the record's integer members that every procedure keeps, or the records' count is not known)")
        };
        let Some(t) = prog.symbols[x].ty.as_ref() else {
            return Err(err());
        };
        let BaseClass::Record(td) = t.base else {
            return Err(err());
        };
        if t.pointers != 1 || !t.dims.is_empty() {
            return Err(err());
        }
        let bytes = prog.typedefs[td].fields.iter().find_map(|d| match d {
            Decl::Var(v) => v.entities.iter().find_map(|e| {
                (prog.symbols[e.sym].spelling == f)
                    .then(|| prog.symbols[e.sym].ty.as_ref().and_then(|t| t.bytes))
            }),
            _ => None,
        });
        let suffix = match bytes {
            Some(Some(4)) => "Real4",
            Some(Some(8)) => "Real8",
            _ => return Err(err()),
        };
        let Some(counts) = self.member_counts(td, f) else {
            return Err(err());
        };
        // The records' count: given (`-size`, or from the callers), or the allocation's.
        let n = match given {
            Some(g) => Some(g),
            None => match self.malloc_extent(x) {
                Some((_, Count::One)) => None,
                Some((_, c)) => match self.count_expr(c) {
                    Some(e) => Some(e),
                    None => return Err(err()),
                },
                None => return Err(err()),
            },
        };
        let one = n.is_none();
        let k = if one {
            None
        } else {
            Some(self.pg.temp("k", TempKind::Int))
        };
        let mut sides = Vec::new();
        for (dir, rt) in [(false, "push"), (true, "pop")] {
            // The record: `*x`, `x[k]`, or `x[n - 1 - k]` (pops in reverse).
            let rec = |a: &mut Self| -> Option<ExprId> {
                let xn = a.pg.b().name(x);
                Some(match k {
                    None => xn,
                    Some(k) => {
                        let kn = a.pg.b().name(k);
                        let idx = if dir {
                            let n = a.dup(n?);
                            let one = a.pg.b().int(1);
                            let m = a.pg.b().bin(BinOp::Sub, n, one);
                            a.pg.b().bin(BinOp::Sub, m, kn)
                        } else {
                            kn
                        };
                        a.pg.b().e(Expr::Index {
                            base: xn,
                            subs: vec![Subscript::Index(idx)],
                        })
                    }
                })
            };
            let member = |a: &mut Self, m: &str| -> Option<ExprId> {
                let base = rec(a)?;
                Some(a.pg.b().e(Expr::Field {
                    base,
                    field: m.to_string(),
                    arrow: k.is_none(),
                }))
            };
            let Some(primal) = member(self, f) else {
                return Err(err());
            };
            let mut count = None;
            for c in &counts {
                let Some(m) = member(self, c) else {
                    return Err(err());
                };
                count = Some(match count {
                    None => m,
                    Some(acc) => self.pg.b().mul(acc, m),
                });
            }
            let count = match count {
                Some(c) => self.pg.paren_if_compound(c),
                None => return Err(err()),
            };
            let call = self.rt(&format!("{rt}{suffix}Array"), vec![primal, count]);
            let st = match k {
                None => call,
                Some(k) => {
                    let Some(n) = n else {
                        return Err(err());
                    };
                    let n = self.dup(n);
                    self.pg.c_count_loop(k, n, vec![call], true)
                }
            };
            sides.push(st);
        }
        Ok((sides[0], sides[1]))
    }

    /// [`radtap_il::member_count::member_count`], computed once per record type and member.
    pub(crate) fn member_counts(&self, td: TypeDefId, f: &str) -> Option<Vec<String>> {
        let key = (td, f.to_string());
        let mut cache = self.pg.g.member_counts.borrow_mut();
        cache
            .entry(key)
            .or_insert_with(|| radtap_il::member_count::member_count(self.pg.prog(), td, f))
            .clone()
    }

    /// The slot `x.f[0 .. n)` of member `f` of local record `x` when this procedure
    /// allocates it as accepted by [`Self::adj_member_pointer`], from
    /// `malloc(n * sizeof(T))`/`calloc(n, sizeof(T))` with `n` unchanged.
    fn allocated_member_slot(&mut self, x: SymbolId, f: &str) -> Option<Slot> {
        let key = format!("{x:?}.{f}");
        if !self.freed_members.contains(&key) {
            return None;
        }
        let src = self.pg.f.src;
        let (lhs, rhs) = src.body.iter().find_map(|&s| match src.stmts[s].kind {
            StmtKind::Assign { lhs, rhs, op: None }
                if self.member_path(lhs).is_some_and(|(_, k)| k == key) =>
            {
                Some((lhs, rhs))
            }
            _ => None,
        })?;
        let ty = self.leaf_type(lhs)?;
        let suffix = match (ty.base, ty.bytes, ty.pointers) {
            (BaseClass::Real, Some(4), 1) => "Real4",
            (BaseClass::Real, _, 1) => "Real8",
            _ => return None,
        };
        let count = crate::base::alloc_count(self.pg.prog(), src, rhs, &ty)?;
        if !self.bound_is_fixed(count) {
            return None;
        }
        let n = Copier { src }.expr(&mut self.pg.u, count);
        let n = self.pg.paren_if_compound(n);
        let primal = self.pg.cp(lhs);
        Some(Slot {
            primal,
            suffix,
            count: Some(n),
        })
    }
}
