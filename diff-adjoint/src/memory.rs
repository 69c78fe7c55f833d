//! Declarations and memory: C declarations with initialisers, ALLOCATE/DEALLOCATE,
//! `malloc`/`free`, Fortran pointer association.

mod bounds;

use crate::*;

impl<'a> Adj<'_, '_, 'a> {
    pub(crate) fn adj_decl(&mut self, s: StmtId, d: &'a Decl) -> Rev {
        let Decl::Var(v) = d else {
            return self.fwd_only(s);
        };
        if let Some(msg) = self.pg.pointer_array_refusal(v) {
            return self.unsupported(s, &msg);
        }
        if v.entities.iter().any(|e| {
            self.pg.prog().symbols[e.sym].ty.as_ref().is_some_and(|t| {
                t.dims.iter().any(|dd| match dd.upper {
                    DimUpper::Expr(x) => {
                        self.pg.const_value(x).is_none() && !self.bound_is_fixed(x)
                    }
                    _ => false,
                })
            })
        }) {
            // Hoisted to the top of the function, the array would take another extent.
            return self.unsupported(
                s,
                "a C variable-length array whose bound reads a variable this function changes, or a local not initialised once at the top level from parameters",
            );
        }
        // Variables of sibling blocks may share a name; at the top of the body they cannot.
        if self.c_hoisted_names.is_empty() {
            for &p in &self.pg.f.src.params {
                let n = self.pg.g.out.symbols[p].spelling.clone();
                self.c_hoisted_names.insert(n);
            }
        }
        // Nor may they shadow a file-scope name (a typedef, global or function) that the
        // rest of the body uses: `(real) - y` would become a subtraction.
        let outer = self.pg.prog().scopes[self.pg.f.src.scope].parent;
        for e in &v.entities {
            let name = self.pg.g.out.symbols[e.sym].spelling.clone();
            let shadows = outer.is_some_and(|o| self.pg.prog().lookup(o, &name).is_some());
            if shadows || self.c_hoisted_names.contains(&name) {
                let n = self.pg.fresh(&name);
                self.pg.g.out.symbols[e.sym].spelling = n.clone();
                self.c_hoisted_names.insert(n);
                if let Some(&d) = self.pg.dvar.get(&e.sym) {
                    let dn = self.pg.g.out.symbols[d].spelling.clone();
                    let dn = self.pg.fresh(&dn);
                    self.pg.g.out.symbols[d].spelling = dn;
                }
            } else {
                self.c_hoisted_names.insert(name);
            }
        }
        let c = Copier { src: self.pg.f.src };
        let mut hv = v.clone();
        // Declared at the top and assigned later: not const, unless the const is the
        // pointees' (`const double *p`), which stays.
        let pointers = hv
            .entities
            .iter()
            .all(|e| matches!(e.derived.first(), Some(DeclOp::Pointer(_))));
        if !pointers {
            hv.spec.qualifiers.retain(|q| q != "const");
        }
        let mut inits = Vec::new();
        let in_loop = self.enclosing_loop(s);
        for e in hv.entities.iter_mut() {
            match e.init {
                // A `static` local is initialised once, before the first call: its
                // initialiser (a constant) stays (as an assignment it restarted the state at
                // each call: a call counter always read 1).
                Some(_) if self.pg.prog().symbols[e.sym].attrs.save => {}
                Some(Init::Expr(x))
                    if in_loop && matches!(self.pg.f.src.exprs[x], Expr::ArrayCtor { .. }) =>
                {
                    return self.unsupported(s, "a C brace initialiser inside a loop");
                }
                // A brace list of variables hoisted to the top would read them before they
                // are set, and its adjoint would be lost.
                Some(Init::Expr(x))
                    if matches!(self.pg.f.src.exprs[x], Expr::ArrayCtor { .. })
                        && !self.constant_braces(x) =>
                {
                    return self.unsupported(s, "a C brace initialiser with non-constant values");
                }
                // A constant table: initialised once at the top.
                Some(Init::Expr(x)) if matches!(self.pg.f.src.exprs[x], Expr::ArrayCtor { .. }) => {
                }
                // `char dir[32] = "out";`: an array takes a string only as an initialiser
                // (`dir = "out";` did not compile), so it stays one, like a constant table.
                Some(Init::Expr(x)) if self.string_into_array(x, e) && in_loop => {
                    return self.unsupported(s, "a C string initialiser of an array inside a loop");
                }
                Some(Init::Expr(x)) if self.string_into_array(x, e) => {}
                Some(Init::Expr(x)) => {
                    inits.push((e.sym, x));
                    e.init = None;
                }
                Some(_) => return self.unsupported(s, "this C initialiser"),
                None => {}
            }
        }
        // A real scalar declared in a nested block is set on some paths of the forward sweep and
        // may be read on the matching ones of the backward sweep, a correlation gcc does not
        // see ("may be used uninitialized"): zeroed at the start like the recorded locals.
        if !self.pg.f.src.body.contains(&s) {
            for e in &hv.entities {
                let scalar = self.pg.prog().symbols[e.sym].ty.as_ref().is_some_and(|t| {
                    t.pointers == 0 && t.dims.is_empty() && t.base == BaseClass::Real
                });
                if scalar && e.derived.is_empty() {
                    self.recorded_locals.insert(e.sym);
                }
            }
        }
        let hdecl = c.decl(&mut self.pg.u, &Decl::Var(hv));
        self.fixed_bounds_of(&hdecl);
        self.pg.c_local_decls.push(hdecl);
        // The variable-length derivatives, zeroed by a loop (a VLA takes no initialiser).
        let mut vla_zero = Vec::new();
        if let Some(mut dv) = self.pg.derivative_decl(v, &c) {
            dv.spec.qualifiers.retain(|q| q != "const");
            for e in dv.entities.iter_mut() {
                let primal = v
                    .entities
                    .iter()
                    .find(|p| self.pg.dvar.get(&p.sym) == Some(&e.sym))
                    .map(|p| p.sym);
                let vla_dims: Option<Vec<ExprId>> = primal.and_then(|p| {
                    let t = self.pg.prog().symbols[p].ty.as_ref()?;
                    let dyn_dim = t.dims.iter().any(|d| match d.upper {
                        DimUpper::Expr(x) => self.pg.const_value(x).is_none(),
                        _ => false,
                    });
                    dyn_dim.then(|| {
                        t.dims
                            .iter()
                            .filter_map(|d| match d.upper {
                                DimUpper::Expr(x) => Some(x),
                                _ => None,
                            })
                            .collect()
                    })
                });
                if let Some(dims) = vla_dims {
                    if dims.len() != 1 || !matches!(dv.spec.class, BaseClass::Real) {
                        return self.unsupported(
                            s,
                            "a multi-dimensional C variable-length array, or one of structs",
                        );
                    }
                    if self.pg.f.sweep == Sweep::Fwd {
                        // No derivative is read in `f_fwd`: nothing to zero.
                        e.init = None;
                        continue;
                    }
                    let bound = Copier { src: self.pg.f.src }.expr(&mut self.pg.u, dims[0]);
                    self.fixed_bound(bound);
                    let bound = self.pg.paren_if_compound(bound);
                    let i = self.pg.temp("i", TempKind::Int);
                    let (dn, iv) = (self.pg.b().name(e.sym), self.pg.b().name(i));
                    let elem = self.pg.b().index(dn, vec![Subscript::Index(iv)]);
                    let z = self.pg.b().zero(8);
                    let body = vec![assign(&mut self.pg.u, elem, z)];
                    vla_zero.push(self.pg.c_count_loop(i, bound, body, false));
                    e.init = None;
                    continue;
                }
                // The rank of the primal's type: its declarator's and its typedef's
                // (`vec3 d` is an array).
                let rank_of_type = primal
                    .and_then(|p| self.pg.prog().symbols[p].ty.as_ref())
                    .map_or(0, |t| t.dims.len());
                let pointer_type = primal
                    .and_then(|p| self.pg.prog().symbols[p].ty.as_ref())
                    .is_some_and(|t| t.pointers > 0 && t.dims.is_empty());
                let z = if matches!(e.derived.first(), Some(DeclOp::Pointer(_))) || pointer_type {
                    Init::Expr(self.pg.b().int(0))
                } else if rank_of_type > 0 {
                    // `{0}`: the universal zero initialiser, for arrays of structs too;
                    // `{{0.0}}` for `double a[3][4]` (-Wmissing-braces).
                    let z = if matches!(dv.spec.class, BaseClass::Record(_)) {
                        self.pg.b().int(0)
                    } else {
                        self.pg.b().zero(8)
                    };
                    let rank = if matches!(dv.spec.class, BaseClass::Record(_)) {
                        1
                    } else {
                        rank_of_type
                    };
                    let mut z = z;
                    for _ in 0..rank {
                        z = self.pg.b().e(Expr::ArrayCtor {
                            items: vec![z],
                            old_style: false,
                            type_spec: None,
                        });
                    }
                    Init::Expr(z)
                } else if matches!(dv.spec.class, BaseClass::Record(_)) {
                    let z = self.pg.b().int(0);
                    Init::Expr(self.pg.b().e(Expr::ArrayCtor {
                        items: vec![z],
                        old_style: false,
                        type_spec: None,
                    }))
                } else {
                    let z = self.pg.b().zero(8);
                    Init::Expr(z)
                };
                e.init = Some(z);
            }
            let dv = Decl::var(dv);
            self.fixed_bounds_of(&dv);
            self.pg.c_local_decls.push(dv);
        }
        // Joint mode zeroes the derivatives where the forward sweep passes the declaration;
        // split mode at the start of `f_bwd`, where they live (`f_fwd` has none to zero).
        let vla_zero = match self.pg.f.sweep {
            Sweep::Joint => vla_zero,
            Sweep::Bwd => {
                self.bwd_zeros.extend(vla_zero);
                Vec::new()
            }
            Sweep::Fwd => vla_zero,
        };
        let mut r = Rev {
            fwd: vla_zero,
            ..Rev::default()
        };
        for (sym, x) in inits {
            let is_ptr = self.pg.f.lang == Lang::C
                && self.pg.prog().symbols[sym]
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
    pub(crate) fn adj_memory(&mut self, s: StmtId, op: MemOp, items: &'a [ExprId]) -> Rev {
        let in_loop = self.enclosing_loop(s);
        match op {
            MemOp::Allocate => {
                if in_loop {
                    return self.unsupported(s, "ALLOCATE inside a loop");
                }
                // In split mode the forward and backward sweeps are two procedures: a local
                // array allocated by one is not the other's. The backward sweep allocates it
                // again, with its adjoint, with the bounds the forward sweep hands over
                // (`split_local_arrays`); a SAVE one would stay allocated: refused.
                if self.pg.f.sweep != Sweep::Joint && self.pg.f.lang == Lang::Fortran {
                    for &it in items {
                        let base = match &self.pg.f.src.exprs[it] {
                            Expr::Index { base, .. } => *base,
                            _ => it,
                        };
                        let Some(b) =
                            radtap_dataflow::zones::base_symbol(self.pg.prog(), self.pg.f.p, base)
                                .filter(|&b| self.own_local(b))
                        else {
                            continue;
                        };
                        let sd = &self.pg.prog().symbols[b];
                        if sd.attrs.save || !sd.attrs.allocatable || sd.attrs.pointer {
                            return self.unsupported(
                                s,
                                "ALLOCATE of a SAVE or pointer local array in a procedure differentiated in split mode (-nocheckpoint)",
                            );
                        }
                        if !self.split_allocs.contains(&b) {
                            self.split_allocs.push(b);
                        }
                    }
                }
                // Allocated again after a DEALLOCATE, which waits for the backward sweep.
                for &it in items {
                    let Some(b) = self.memory_item_var(it) else {
                        continue;
                    };
                    if self.own_local(b) && self.reallocated_at(b, s) {
                        let n = self.pg.name_of(b).to_string();
                        let msg = format!("a second ALLOCATE of the local `{n}` (the adjoint delays its DEALLOCATE to the backward sweep: use a second array)");
                        return self.unsupported(s, &msg);
                    }
                }
                let mut r = self.fwd_only(s);
                let mut ditems = Vec::new();
                let mut zero = Vec::new();
                let mut prim = Vec::new();
                for &it in items {
                    let base = match &self.pg.f.src.exprs[it] {
                        Expr::Index { base, .. } => *base,
                        _ => it,
                    };
                    let owner_local =
                        radtap_dataflow::zones::base_symbol(self.pg.prog(), self.pg.f.p, base)
                            .is_some_and(|b| self.own_local(b) || self.paired_here(b));
                    if owner_local {
                        prim.push(self.pg.cp(base));
                    }
                    // A record component (`allocate(a%x(n))`) has its derivative allocated
                    // as in the tangent (`ab%x(n)`).
                    let d = match self.pg.alloc_item(it, MemOp::Allocate) {
                        Some(d) => Some(d),
                        None => self.pg.component_alloc_item(it, MemOp::Allocate),
                    };
                    // A dummy's array (or component) allocated here: the adjoint runs this
                    // ALLOCATE again in its forward sweep, on an array the primal run left
                    // allocated, and clears the adjoint the caller hands in (a crash, or a
                    // zero derivative).
                    let head = self.pg.g.info.heads.iter().any(|h| h.head == self.pg.f.p);
                    let dummy =
                        radtap_dataflow::zones::base_symbol(self.pg.prog(), self.pg.f.p, base)
                            .filter(|b| self.pg.f.src.params.contains(b) && !self.paired_here(*b));
                    if let (Some(b), Some(_), false) = (dummy, d, head) {
                        let n = self.pg.name_of(b).to_string();
                        let msg = format!("an ALLOCATE of the dummy argument `{n}` (or of its component) with a derivative, in a procedure called from the head, is not supported in adjoint mode yet: allocate it in the caller and pass it allocated");
                        self.pg.error(s, Code::Unsupported, &msg);
                        return Rev::default();
                    }
                    if let Some(d) = d {
                        ditems.push(d);
                        if let Some(db) = self.pg.dref(base, Dir::Nd) {
                            let records = match self.pg.record_of(base) {
                                Some(td) if self.pg.f.lang == Lang::Fortran => {
                                    Some((td, self.pg.rank_of(base)))
                                }
                                _ => None,
                            };
                            match records {
                                // An array of records: zeroed leaf by leaf, element by
                                // element (a real zero assigned to it does not compile).
                                Some((td, rank)) if rank > 0 => {
                                    let lp = self.pg.zero_record_array_leaves(db, rank, td);
                                    zero.push(lp);
                                }
                                Some((td, _)) => zero.extend(self.pg.zero_record_leaves(db, td)),
                                None => {
                                    let k = self.pg.real_kind(base);
                                    let z = self.pg.b().zero(k);
                                    zero.push(assign(&mut self.pg.u, db, z));
                                }
                            }
                        }
                        if owner_local {
                            if let Some(db) = self.pg.dref(base, Dir::Nd) {
                                prim.push(db);
                            }
                        }
                    }
                }
                if !ditems.is_empty() {
                    r.fwd.push(stmt(
                        &mut self.pg.u,
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
                        &mut self.pg.u,
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
                    radtap_dataflow::zones::base_symbol(self.pg.prog(), self.pg.f.p, it)
                        .is_some_and(|b| self.own_local(b) || self.paired_here(b))
                });
                if all_local && !in_loop {
                    let text = match self.pg.f.lang {
                        Lang::Fortran => "! DEALLOCATE delayed to the backward sweep",
                        Lang::C => "// free delayed to the backward sweep",
                    };
                    let c = stmt(&mut self.pg.u, StmtKind::Comment(text.into()));
                    Rev {
                        fwd: vec![c],
                        bwd: Vec::new(),
                    }
                } else {
                    self.unsupported(s, "DEALLOCATE of a non-local array (or inside a loop)")
                }
            }
            MemOp::Nullify if self.pg.f.lang == Lang::Fortran => {
                // The backward sweep needs the associations the forward sweep ends with:
                // NULLIFY of local pointers is left out (they die with the procedure).
                let all_local = items.iter().all(
                    |&it| matches!(self.pg.f.src.exprs[it], Expr::Name(p) if self.local_pointer(p)),
                );
                if all_local {
                    let c = stmt(
                        &mut self.pg.u,
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

    /// C `free(w)` of a local pointer at the top level: the backward sweep still reads the
    /// memory, so the free (of `w` and of its derivative `wb`) happens where the backward
    /// sweep passes `w = malloc(…)` again (`freed_locals`, collected from the same
    /// top-level statements).
    pub(crate) fn adj_free(&mut self, s: StmtId, args: &[Arg]) -> Rev {
        if let [a] = args {
            if let Some(r) = self.adj_free_member(s, a.value) {
                return r;
            }
        }
        let local = match args {
            [a] => match self.freed_pointer(a.value) {
                Some(w) => {
                    let sd = &self.pg.prog().symbols[w];
                    sd.ty.as_ref().is_some_and(|t| t.pointers > 0)
                        && !sd.attrs.save
                        && self.own_local(w)
                        && self.pg.f.src.body.contains(&s)
                }
                None => false,
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
            &mut self.pg.u,
            StmtKind::Comment("// free delayed to the backward sweep".into()),
        );
        Rev {
            fwd: vec![c],
            bwd: Vec::new(),
        }
    }

    /// The pointer variable `free(e)` frees: `w`, `(w)`, `(void *)w`.
    pub(crate) fn freed_pointer(&self, mut e: ExprId) -> Option<SymbolId> {
        loop {
            match &self.pg.f.src.exprs[e] {
                Expr::Paren(a) | Expr::Cast { arg: a, .. } => e = *a,
                Expr::Name(w) => return Some(*w),
                _ => return None,
            }
        }
    }

    /// Whether `x` is declared in this procedure and is not one of its dummies.
    /// A COMMON member, or a local equivalenced into a COMMON block (whose zones are the
    /// block's): its storage, adjoint included, outlives the procedure.
    pub(crate) fn in_global_storage(&self, x: SymbolId) -> bool {
        let z = &self.pg.f.pi.zones;
        self.pg.prog().symbols[x].common.is_some()
            || z.objects
                .get(&radtap_dataflow::zones::ObjKey::Sym(x))
                .is_some_and(|o| o.start >= z.global_base)
    }

    /// Whether the ALLOCATE `s` of `v` follows (in source order) a DEALLOCATE of `v` that
    /// follows another ALLOCATE of it: the array is allocated again in one run (exclusive
    /// branches allocating it once each are fine).
    fn reallocated_at(&self, v: SymbolId, s: StmtId) -> bool {
        let Some(first) = self.first_allocation_of(v) else {
            return false;
        };
        self.pg.f.src.stmts.iter().any(|(id, st)| match &st.kind {
            StmtKind::Memory {
                op: MemOp::Deallocate,
                items,
                ..
            } if first < id && id < s => {
                items.iter().any(|&it| self.memory_item_var(it) == Some(v))
            }
            _ => false,
        })
    }

    /// A Fortran allocatable array of a module (or a dummy) that this procedure allocates
    /// once and deallocates once, both at the top level of its body, ALLOCATE first, and
    /// nowhere else: handled like a local array (the DEALLOCATE waits for the backward sweep,
    /// which frees the array and its derivative where it passes the ALLOCATE), since the
    /// backward sweep needs the values and the derivative the forward sweep left there.
    pub(crate) fn paired_here(&self, x: SymbolId) -> bool {
        let src = self.pg.f.src;
        if self.pg.f.lang != Lang::Fortran
            || !self.pg.prog().symbols[x].attrs.allocatable
            || self.own_local(x)
        {
            return false;
        }
        let names = |items: &[ExprId]| {
            items.iter().any(|&it| {
                radtap_dataflow::zones::base_symbol(self.pg.prog(), self.pg.f.p, it) == Some(x)
            })
        };
        let (mut allocs, mut deallocs) = (0, 0);
        for (_, st) in src.stmts.iter() {
            if let StmtKind::Memory { op, items, .. } = &st.kind {
                if names(items) {
                    match op {
                        MemOp::Allocate => allocs += 1,
                        MemOp::Deallocate => deallocs += 1,
                        _ => return false,
                    }
                }
            }
        }
        if (allocs, deallocs) != (1, 1) {
            return false;
        }
        let at = |want: MemOp| {
            src.body.iter().position(|&b| {
                matches!(&src.stmts[b].kind, StmtKind::Memory { op, items, .. } if *op == want && names(items))
            })
        };
        matches!((at(MemOp::Allocate), at(MemOp::Deallocate)), (Some(a), Some(d)) if a < d)
    }

    /// Whether `p` is a local (not dummy, not SAVE'd, not module) pointer of this procedure.
    fn local_pointer(&self, p: SymbolId) -> bool {
        let sd = &self.pg.prog().symbols[p];
        sd.attrs.pointer && !sd.attrs.save && self.own_local(p)
    }

    /// Fortran `p => e` of a local pointer at the top level of the body. Forward: the
    /// association and the derivative's (`pb => eb`). Backward: the statements before this
    /// one need the previous association, which is re-established by repeating the previous
    /// `p => e'` (none before the first). Sound when every association of `p` is at the top
    /// level and `e` selects its target with variables the procedure never writes.
    pub(crate) fn adj_fortran_pointer_assign(&mut self, s: StmtId, lhs: ExprId) -> Rev {
        let Expr::Name(p) = self.pg.f.src.exprs[lhs] else {
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
        let top: Vec<StmtId> = self.pg.f.src.body.clone();
        subtree(self.pg.f.src, &top, &mut |x| {
            if let StmtKind::PointerAssign { lhs: l, .. } = self.pg.f.src.stmts[x].kind {
                if matches!(self.pg.f.src.exprs[l], Expr::Name(q) if q == p) {
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
        // In statement order (the walk above need not visit them in order): the backward
        // sweep of one association re-establishes the one before it.
        assocs.sort_by_key(|x| top.iter().position(|t| t == x));
        // The target must be selected by variables nothing in the procedure writes.
        let mut written = self.pg.f.pi.zones.empty();
        for e in &self.pg.f.pi.effects {
            written.union_with(&e.writes);
        }
        for &a in &assocs {
            let StmtKind::PointerAssign { rhs: r, .. } = self.pg.f.src.stmts[a].kind else {
                continue;
            };
            let mut stack = Vec::new();
            radtap_il::visit::expr_children(&self.pg.f.src.exprs[r], &mut |k| stack.push(k));
            if let Expr::Name(_) = self.pg.f.src.exprs[r] {
                stack.clear();
            }
            let mut bad = false;
            while let Some(x) = stack.pop() {
                if let Expr::Name(v) = self.pg.f.src.exprs[x] {
                    let is_base =
                        radtap_dataflow::zones::base_symbol(self.pg.prog(), self.pg.f.p, r)
                            == Some(v);
                    if !is_base {
                        if let Some(o) = self.pg.f.pi.zones.objects.get(&ObjKey::Sym(v)) {
                            bad |= self.pg.f.pi.zones.obj_set(o).intersects(&written);
                        }
                    }
                }
                radtap_il::visit::expr_children(&self.pg.f.src.exprs[x], &mut |k| stack.push(k));
            }
            if bad {
                return self.unsupported(
                    s,
                    "a pointer whose target is selected by variables the procedure changes",
                );
            }
        }
        let assoc = |me: &mut Self, a: StmtId| -> Vec<StmtId> {
            let StmtKind::PointerAssign { lhs: l, rhs: r } = me.pg.f.src.stmts[a].kind else {
                return Vec::new();
            };
            let mut out = vec![me.pg.copy_stmt(a)];
            if let (Some(dl), Some(dr)) = (me.pg.dref(l, Dir::Omit), me.pg.dref(r, Dir::All)) {
                out.push(stmt(
                    &mut me.pg.u,
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

    // ------------------------------------------------------------------ calls
}
