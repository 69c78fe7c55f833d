//! The derivative unit's header and declarations: which variables get derivatives, the
//! parameter list, derivative declarations (COMMON and module mirrors, derivative types),
//! the header comment, temporaries.

use super::*;

impl<'g, 'a> ProcGen<'g, 'a> {
    /// Which variables of the procedure carry a derivative.
    pub(crate) fn choose_variables(&mut self) {
        let d = self.g.deriv_zones(self.f.p);
        // Every name of the primal unit is taken inside it.
        for &s in &self.g.prog.scopes[self.f.src.scope].order {
            self.local.insert(key(self.f.lang, self.name_of(s)));
        }
        let mut syms: Vec<SymbolId> = Vec::new();
        for (k, o) in &self.f.pi.zones.objects {
            let s = match k {
                ObjKey::Sym(s) | ObjKey::Pointee(s) => *s,
                ObjKey::Heap(..) => continue,
            };
            if self.f.pi.zones.obj_set(o).intersects(&d) && !syms.contains(&s) {
                syms.push(s);
            }
        }
        // Local pointers whose targets carry derivatives; never a pointer to integers,
        // logicals or characters, whatever the points-to sets say (`const int *verts =
        // triangles[c[i]].verts;`, its targets unknown: it got a derivative, lost at its
        // initialiser).
        let cannot_point_to_reals = |s: SymbolId| {
            self.g.prog.symbols[s].ty.as_ref().is_some_and(|t| {
                matches!(
                    t.base,
                    BaseClass::Integer
                        | BaseClass::Logical
                        | BaseClass::Character
                        | BaseClass::Enum
                )
            })
        };
        for (s, targets) in &self.f.pi.zones.pts {
            if cannot_point_to_reals(*s) {
                continue;
            }
            let reaches = targets.iter().any(|t| {
                self.f
                    .pi
                    .zones
                    .objects
                    .get(t)
                    .is_some_and(|o| self.f.pi.zones.obj_set(o).intersects(&d))
            });
            if reaches
                && !syms.contains(s)
                && self.f.pi.zones.objects.contains_key(&ObjKey::Sym(*s))
            {
                syms.push(*s);
            }
        }
        // Module variables with a derivative that this unit allocates or frees, active here
        // or not: their derivatives are allocated and freed with them.
        for (_, st) in self.f.src.stmts.iter() {
            if let StmtKind::Memory { op, items, .. } = &st.kind {
                if *op == MemOp::Nullify {
                    continue;
                }
                for &it in items {
                    let base = match &self.f.src.exprs[it] {
                        Expr::Index { base, .. } => *base,
                        _ => it,
                    };
                    if let Expr::Name(s) = self.f.src.exprs[base] {
                        if self.g.dglobal.contains_key(&s) && !syms.contains(&s) {
                            syms.push(s);
                        }
                    }
                }
            }
        }
        // The head's -fixinterface and unused-but-listed parameters.
        let flags = self.g.dparams[&self.f.p].clone();
        for (&s, &f) in self.f.src.params.iter().zip(&flags) {
            if f && !syms.contains(&s) {
                syms.push(s);
            }
        }
        syms.sort();
        for s in syms {
            if let Some(&gd) = self.g.dglobal.get(&s) {
                self.dvar.insert(s, gd);
                continue;
            }
            let sd = &self.g.prog.symbols[s];
            let owner = radtap_dataflow::zones::unit_of_scope(self.g.prog, sd.scope);
            if owner != Some(self.f.p) && !self.f.src.params.contains(&s) {
                // A global without a derivative global (SAVE of another unit) is not visible;
                // another unit's COMMON member is reached through this unit's own members.
                continue;
            }
            if let Some(BaseClass::Record(td)) = sd.ty.as_ref().map(|t| t.base) {
                self.g.derivative_type(td);
            }
            let n = self.deriv_name(s);
            let ty = sd.ty.clone();
            let ds = self.new_sym(&n, ty);
            self.dvar.insert(s, ds);
        }
        if let Some(r) = self.f.src.result {
            if self.g.dresult[&self.f.p] && !self.dvar.contains_key(&r) {
                let n = self.deriv_name(r);
                let ty = self.g.prog.symbols[r].ty.clone();
                let ds = self.new_sym(&n, ty);
                self.dvar.insert(r, ds);
            }
        }
    }

    // ------------------------------------------------------------------ header

    pub(crate) fn header(&mut self) {
        let src = self.f.src;
        let ds = match (self.f.sweep, self.g.split_procs.get(&self.f.p)) {
            (Sweep::Fwd, Some(&(f, _))) => f,
            (Sweep::Bwd, Some(&(_, b))) => b,
            _ => self.g.dproc[&self.f.p],
        };
        self.u.name = Some(ds);
        // A recursive procedure's derivative calls itself too.
        if let Some(r) = src
            .attrs
            .prefixes
            .iter()
            .find(|p| p.eq_ignore_ascii_case("recursive"))
        {
            self.u.attrs.prefixes.push(r.clone());
        }
        // The forward sweep keeps the primal interface, but for a procedure that sets or
        // frees a record member with a derivative twin (adjoint mode's `split_setters`,
        // always split): it sets the twins beside the primal members, so it takes the
        // derivative arguments the backward sweep takes.
        let twins = self.g.opts.adjoint && self.g.split_setters.contains(&self.f.p);
        if self.f.sweep == Sweep::Fwd && !twins {
            let c = Copier { src };
            for (i, &s) in src.params.iter().enumerate() {
                self.u.params.push(s);
                if self.f.lang == Lang::C {
                    let cp = c.cparam(&mut self.u, &src.c_params[i]);
                    self.u.c_params.push(cp);
                }
            }
            self.u.header_type = src.header_type.clone();
            self.u.ret_derived = src.ret_derived.clone();
            self.u.result = src.result;
            self.u.explicit_result = src.explicit_result || src.kind == UnitKind::Function;
            self.u.c_void_params = src.c_void_params;
            return;
        }
        self.g.out.symbols[ds].unit = None;
        let flags = self.g.dparams[&self.f.p].clone();
        let c = Copier { src };
        for (i, &s) in src.params.iter().enumerate() {
            self.u.params.push(s);
            if self.f.lang == Lang::C {
                let cp = c.cparam(&mut self.u, &src.c_params[i]);
                self.u.c_params.push(cp);
            }
            if flags[i] {
                let mut d = self.dvar[&s];
                let by_value_written = self.f.vector
                    && self.c_by_value(s)
                    && self
                        .f
                        .pi
                        .zones
                        .sym_zones(s)
                        .is_some_and(|z| z.intersects(&self.f.pi.summary.writes));
                if by_value_written {
                    let n = self.fresh(&format!("{}0", self.g.out.symbols[d].spelling));
                    let din = self.new_sym(&n, None);
                    let record = self.prog().symbols[s]
                        .ty
                        .as_ref()
                        .is_some_and(|t| matches!(t.base, BaseClass::Record(_)));
                    self.entry_copies.push((d, din, record));
                    self.temps.push((
                        d,
                        TempKind::Like {
                            sym: s,
                            deriv: true,
                        },
                    ));
                    d = din;
                }
                let adj_by_ptr = self.f.adjoint && self.c_by_value(s);
                if adj_by_ptr {
                    // The adjoint of a by-value argument goes back through a pointer; the
                    // body accumulates it in a local.
                    let local = d;
                    let pname = self.g.out.symbols[local].spelling.clone();
                    let lname = self.fresh(&format!("{pname}0"));
                    self.g.out.symbols[local].spelling = lname.clone();
                    let ptr = self.new_sym(&pname, None);
                    self.adj_by_ptr.push((ptr, local));
                    let mut spec = c.spec(&mut self.u, &src.c_params[i].spec);
                    spec.qualifiers.retain(|q| q != "const");
                    let is_rec = matches!(spec.class, BaseClass::Record(_));
                    if let BaseClass::Record(td) = spec.class {
                        let (_, n) = self.g.derivative_type(td);
                        spec.keyword = "struct".into();
                        spec.name = Some(n);
                    }
                    let init = if is_rec {
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
                    let mut ent = plain_entity(local);
                    ent.init = Some(init);
                    self.c_local_decls.push(Decl::var(VarDecl {
                        spec,
                        attrs: Vec::new(),
                        entities: vec![ent],
                        double_colon: false,
                    }));
                    d = ptr;
                }
                self.u.params.push(d);
                if self.f.lang == Lang::C {
                    let mut cp = c.cparam(&mut self.u, &src.c_params[i]);
                    cp.name = Some(self.g.out.symbols[d].spelling.clone());
                    if self.f.adjoint {
                        cp.spec.qualifiers.retain(|q| q != "const");
                        if adj_by_ptr {
                            cp.derived.insert(0, DeclOp::Pointer(Vec::new()));
                        }
                    }
                    // A by-value argument's directions arrive as an array the callee only
                    // reads (a written one is copied on entry): const, so a caller may pass
                    // the directions of a const input.
                    let by_value_dirs = self.f.vector && !self.f.adjoint && self.c_by_value(s);
                    if (by_value_written || by_value_dirs)
                        && !cp.spec.qualifiers.iter().any(|q| q == "const")
                    {
                        cp.spec.qualifiers.insert(0, "const".into());
                    }
                    if let BaseClass::Record(td) = cp.spec.class {
                        let (_, n) = self.g.derivative_type(td);
                        cp.spec.keyword = "struct".into();
                        cp.spec.name = Some(n);
                    }
                    if self.f.vector {
                        self.c_vector_param(&mut cp);
                    }
                    self.u.c_params.push(cp);
                }
            } else if self.f.lang == Lang::C && self.dvar.contains_key(&s) {
                // A by-value scalar active inside the head only (Tapenade's interface rule,
                // `gen.rs` `choose_procedures`): its derivative is a local starting at zero.
                self.c_local_derivative_param(i);
            }
        }
        if self.f.lang == Lang::C
            && (src.kind == UnitKind::Subroutine || self.f.vector || self.f.adjoint)
        {
            let mut void = src
                .header_type
                .clone()
                .unwrap_or_else(|| TypeSpec::int(Lang::C));
            void.keyword = "void".into();
            void.class = BaseClass::Void;
            void.name = None;
            void.qualifiers.clear();
            void.inline_def = None;
            self.u.header_type = Some(void);
        }
        let is_function = src.kind == UnitKind::Function;
        if is_function && self.f.adjoint {
            // The result's adjoint is the extra last argument (by value in C).
            let r = src.result.expect("functions have a result");
            if let Some(&rd) = self.dvar.get(&r) {
                self.u.params.push(rd);
                if self.f.lang == Lang::C {
                    let spec = src.header_type.clone().expect("C function type");
                    let spec_c = c.spec(&mut self.u, &spec);
                    self.u.c_params.push(CParam {
                        spec: spec_c,
                        name: Some(self.g.out.symbols[rd].spelling.clone()),
                        derived: Vec::new(),
                        dims: Vec::new(),
                    });
                }
            }
        } else if is_function {
            let r = src.result.expect("functions have a result");
            let rd = self.dvar.get(&r).copied();
            match self.f.lang {
                Lang::Fortran => {
                    self.u.params.push(r);
                    if self.f.vector {
                        if let Some(rd) = rd {
                            self.u.params.push(rd);
                        }
                    } else {
                        // The derivative function returns the result's derivative.
                        let res = match rd {
                            Some(rd) => rd,
                            None => {
                                let n =
                                    self.fresh(&pattern(&self.g.opts.var_pattern, self.name_of(r)));
                                let ty = self.g.prog.symbols[r].ty.clone();
                                let s = self.new_sym(&n, ty);
                                self.dvar.insert(r, s);
                                s
                            }
                        };
                        self.u.result = Some(res);
                        self.u.explicit_result = true;
                    }
                }
                Lang::C => {
                    let spec = src.header_type.clone().expect("C function type");
                    let base = self.name_of(src.name.expect("named"));
                    let rname = if self.g.info.callgraph.is_recursive(self.f.p) {
                        self.fresh(&format!("{base}0"))
                    } else {
                        base.to_string()
                    };
                    let ty = self.g.prog.symbols[r].ty.clone().map(|mut t| {
                        t.pointers += 1;
                        t
                    });
                    let rp = self.new_sym(&rname, ty);
                    self.u.params.push(rp);
                    let spec_c = c.spec(&mut self.u, &spec);
                    let mut ops = c.ops(&mut self.u, &src.ret_derived);
                    ops.insert(0, DeclOp::Pointer(Vec::new()));
                    self.u.c_params.push(CParam {
                        spec: spec_c.clone(),
                        name: Some(rname),
                        derived: ops,
                        dims: Vec::new(),
                    });
                    self.result_ptr = Some(rp);
                    if self.f.vector {
                        if let Some(rd) = rd {
                            self.u.params.push(rd);
                            let mut cp = CParam {
                                spec: spec_c,
                                name: Some(self.g.out.symbols[rd].spelling.clone()),
                                derived: Vec::new(),
                                dims: Vec::new(),
                            };
                            self.c_vector_param(&mut cp);
                            self.u.c_params.push(cp);
                        }
                    } else {
                        self.u.header_type = Some(spec);
                        self.u.ret_derived = src.ret_derived.clone();
                    }
                }
            }
        }
        if self.f.vector {
            let n = self.fresh("nbdirs");
            let ty = Type {
                base: BaseClass::Integer,
                bytes: Some(4),
                dims: Vec::new(),
                pointers: 0,
            };
            let s = self.new_sym(&n, Some(ty.clone()));
            self.u.params.push(s);
            if self.f.lang == Lang::C {
                self.u.c_params.push(CParam {
                    spec: TypeSpec::int(Lang::C),
                    name: Some(n),
                    derived: Vec::new(),
                    dims: Vec::new(),
                });
            }
            self.nbdirs = Some(s);
            let n = self.fresh("nd");
            self.nd = Some(self.new_sym(&n, Some(ty)));
        }
        if self.f.lang == Lang::C && self.u.c_params.is_empty() {
            self.u.c_void_params = true;
        }
    }

    /// Declares the derivative of the `i`th C parameter (a scalar passed by value) as a
    /// local of the body, zero on entry: `double td = 0.0;`, in vector mode
    /// `double td[NBDirsMax] = {0};`.
    fn c_local_derivative_param(&mut self, i: usize) {
        let src = self.f.src;
        let s = src.params[i];
        let local = self.dvar[&s];
        let c = Copier { src };
        let mut spec = c.spec(&mut self.u, &src.c_params[i].spec);
        spec.qualifiers.retain(|q| q != "const");
        let mut ent = plain_entity(local);
        ent.init = Some(if self.f.vector {
            let z = self.b().int(0);
            let n = self.u.exprs.alloc(Expr::Opaque("NBDirsMax".into()));
            ent.derived = vec![DeclOp::Array(Some(n))];
            Init::Expr(self.b().e(Expr::ArrayCtor {
                items: vec![z],
                old_style: false,
                type_spec: None,
            }))
        } else {
            Init::Expr(self.b().zero(8))
        });
        self.c_local_decls.push(Decl::var(VarDecl {
            spec,
            attrs: Vec::new(),
            entities: vec![ent],
            double_colon: false,
        }));
    }

    // ------------------------------------------------------------------ declarations

    pub(crate) fn declarations(&mut self) {
        let src = self.f.src;
        let c = Copier { src };
        let mut decls = Vec::new();
        if self.f.lang == Lang::Fortran {
            // USE of the derivative modules of the modules used (and of the host module).
            let mut uses: Vec<(UnitId, bool)> = Vec::new();
            for d in &src.decls {
                if let Decl::Use(ui, _) = d {
                    if let Some(m) = ui.unit {
                        // `only:` or renames: the derivative USE names what it needs.
                        uses.push((m, ui.only || !ui.names.is_empty()));
                    }
                }
            }
            for d in &src.decls {
                if let Decl::Use(..) = d {
                    decls.push(c.decl(&mut self.u, d));
                }
            }
            for (m, only) in uses {
                if let Some(&dm) = self.g.dmodule.get(&m) {
                    if Some(dm) != self.u.parent {
                        if let Some(d) = self.g.derivative_use(m, dm, only) {
                            decls.push(d);
                        }
                    }
                }
            }
            if self.f.vector
                && self
                    .u
                    .parent
                    .is_none_or(|m| self.g.out.units[m].kind != UnitKind::Module)
            {
                decls.push(diffsizes_use());
            }
        }
        decls.push(Decl::Comment(self.header_comment()));
        let mut declared: HashSet<SymbolId> = HashSet::new();
        for (i, d) in src.decls.iter().enumerate() {
            // Where the copy of `d` goes: a comment that ended its line follows it there.
            let at = decls.len();
            match d {
                // Placed with the declaration it ends, below.
                Decl::TrailingComment(_) => continue,
                Decl::Use(..) => continue,
                Decl::Var(v) => {
                    decls.push(c.decl(&mut self.u, d));
                    for e in &v.entities {
                        declared.insert(e.sym);
                    }
                    // Arguments whose derivative is a local of this unit (neither
                    // independents nor dependents) are declared apart, as locals.
                    let (local, iface): (Vec<Entity>, Vec<Entity>) = v
                        .entities
                        .iter()
                        .cloned()
                        .partition(|e| self.derivative_is_local_param(e.sym));
                    let mut vi = v.clone();
                    vi.entities = iface;
                    if let Some(dv) = self.derivative_decl(&vi, &c) {
                        let value = v
                            .attrs
                            .iter()
                            .any(|a| matches!(a, Attr::Keyword(k) if k == "value"));
                        if self.f.vector && value {
                            // `td(nbdirsmax)` cannot be VALUE, and by reference the callee's
                            // changes to it would reach the caller's derivative.
                            let names: Vec<String> = dv
                                .entities
                                .iter()
                                .map(|e| self.g.out.symbols[e.sym].spelling.clone())
                                .collect();
                            let msg = format!(
                                "the VALUE dummy argument with derivative `{}` is not supported in vector mode yet; drop VALUE and copy it into a local",
                                names.join("`, `")
                            );
                            let sp = src.source_map.header.unwrap_or_default();
                            self.g
                                .diags
                                .push(Diagnostic::error(Code::Unsupported, sp, &msg));
                        }
                        decls.push(Decl::var(dv));
                    }
                    if !local.is_empty() {
                        let mut vl = v.clone();
                        vl.entities = local;
                        vl.attrs.retain(|a| match a {
                            Attr::Intent(_) => false,
                            Attr::Keyword(k) => !matches!(k.as_str(), "optional" | "value"),
                            Attr::Dimension(_) => true,
                        });
                        if let Some(dv) = self.derivative_decl(&vl, &c) {
                            decls.push(Decl::var(dv));
                        }
                    }
                }
                Decl::Common(blocks) => {
                    decls.push(c.decl(&mut self.u, d));
                    for (blk, ents) in blocks {
                        for e in ents {
                            declared.insert(e.sym);
                        }
                        if ents.iter().any(|e| self.dvar.contains_key(&e.sym)) {
                            self.derivative_common(*blk, ents, &c, &mut decls);
                        }
                    }
                }
                // A DIMENSION statement gives no type: the derivative of an implicitly typed
                // array dimensioned there is declared below with the implicitly typed
                // variables (marking it declared here left `xd` undeclared).
                Decl::Attr(a) => {
                    decls.push(c.decl(&mut self.u, d));
                    // `allocatable :: w(:)` after `real(8) :: w`: the derivative takes its
                    // shape in its type statement (derivative_decl) and the attribute here
                    // (`allocatable :: wd`), or it could not be allocated.
                    if matches!(a.keyword.as_str(), "allocatable" | "pointer" | "target") {
                        let items: Vec<AttrItem> = a
                            .items
                            .iter()
                            .filter(|it| !it.common)
                            .filter_map(|it| {
                                let ds = *self.dvar.get(&it.sym)?;
                                let skip = (self.f.sweep == Sweep::Fwd
                                    && self.f.src.params.contains(&it.sym))
                                    || self.g.dglobal.contains_key(&it.sym)
                                    || self.g.prog.symbols[it.sym].common.is_some();
                                (!skip).then_some(AttrItem {
                                    sym: ds,
                                    dims: None,
                                    common: false,
                                })
                            })
                            .collect();
                        if !items.is_empty() {
                            decls.push(Decl::Attr(AttrStmt {
                                keyword: a.keyword.clone(),
                                double_colon: true,
                                items,
                            }));
                        }
                    }
                }
                // A DATA statement on COMMON members (outside BLOCK DATA: an extension old
                // codes use) initialises the block where the original is compiled; repeated
                // here, the block would be defined twice at link time.
                Decl::Data(sets) => {
                    let common = |e: ExprId| {
                        let base = match &src.exprs[e] {
                            Expr::Index { base, .. } => *base,
                            _ => e,
                        };
                        matches!(src.exprs[base], Expr::Name(v)
                            if self.g.prog.symbols[v].common.is_some())
                    };
                    let kept: Vec<DataSet> = sets
                        .iter()
                        .filter(|set| !set.objects.iter().all(|&o| common(o)))
                        .cloned()
                        .collect();
                    if !kept.is_empty() {
                        decls.push(c.decl(&mut self.u, &Decl::Data(kept)));
                    }
                }
                Decl::Equivalence(sets) => {
                    decls.push(c.decl(&mut self.u, d));
                    if let Some(dd) = self.derivative_equivalence(sets) {
                        decls.push(dd);
                    }
                }
                _ => decls.push(c.decl(&mut self.u, d)),
            }
            if let Some(t @ Decl::TrailingComment(_)) = src.decls.get(i + 1) {
                decls.insert(at + 1, t.clone());
            }
        }
        // The primal function result, now a dummy argument of the derivative procedure.
        let mut header_result = None;
        if self.f.src.kind == UnitKind::Function
            && self.f.lang == Lang::Fortran
            && self.f.sweep != Sweep::Fwd
        {
            let r = self.f.src.result.expect("function result");
            if !declared.contains(&r) {
                if let Some(t) = &self.f.src.header_type {
                    let spec = c.spec(&mut self.u, t);
                    decls.push(Decl::var(VarDecl {
                        spec,
                        attrs: if self.f.adjoint {
                            Vec::new()
                        } else {
                            vec![Attr::Intent(Intent::Out)]
                        },
                        entities: vec![plain_entity(r)],
                        double_colon: true,
                    }));
                    declared.insert(r);
                    header_result = Some(r);
                }
            }
        }
        // Derivatives of implicitly typed variables, and of a result typed in the header.
        let mut missing: Vec<SymbolId> = self
            .dvar
            .keys()
            .copied()
            .filter(|s| {
                (!declared.contains(s) || Some(*s) == header_result)
                    && !self.g.dglobal.contains_key(s)
                    && !(self.f.sweep == Sweep::Fwd
                        && (self.f.src.params.contains(s) || Some(*s) == self.f.src.result))
            })
            .collect();
        missing.sort();
        if self.f.lang == Lang::C {
            missing.clear(); // C declarations are statements of the body
        }
        for s in missing {
            if self.f.lang == Lang::C && Some(s) == self.f.src.result {
                continue;
            }
            let ds = self.dvar[&s];
            let spec = match (&self.g.prog.symbols[s].ty, &self.f.src.header_type) {
                (_, Some(t)) if Some(s) == self.f.src.result => c.spec(&mut self.u, t),
                (Some(t), _) => spec_of_type(self.f.lang, t),
                (None, _) => continue,
            };
            let mut v = VarDecl {
                spec,
                attrs: Vec::new(),
                entities: vec![plain_entity(ds)],
                double_colon: true,
            };
            if let Some(t) = &self.g.prog.symbols[s].ty {
                if !t.dims.is_empty() {
                    let dims = c.dims(&mut self.u, &t.dims);
                    v.entities[0].dims = Some(dims);
                }
            }
            if self.f.vector && Some(s) != self.f.src.result.filter(|_| !self.f.vector) {
                add_direction_dim(&mut self.u, &mut v);
            }
            // No INTENT for the derivative of an implicitly typed dummy, as its primal has
            // none: INTENT(INOUT) did not compile where a caller passes the derivative of
            // its own INTENT(IN) dummy (msise00's `GTD7` calling the F77 `GTS7`). The
            // adjoint of a function's result is an argument written and read.
            if self.f.adjoint && Some(s) == self.f.src.result {
                v.attrs.push(Attr::Intent(Intent::InOut));
            }
            decls.push(Decl::var(v));
        }
        if let Some(nb) = self.nbdirs {
            if self.f.lang == Lang::Fortran {
                decls.push(Decl::var(VarDecl {
                    spec: TypeSpec::int(Lang::Fortran),
                    attrs: vec![Attr::Intent(Intent::In)],
                    entities: vec![plain_entity(nb)],
                    double_colon: true,
                }));
            }
        }
        if let Some(nd) = self.nd {
            let v = VarDecl {
                spec: TypeSpec::int(self.f.lang),
                attrs: Vec::new(),
                entities: vec![plain_entity(nd)],
                double_colon: true,
            };
            match self.f.lang {
                Lang::Fortran => decls.push(Decl::var(v)),
                Lang::C => self.c_local_decls.push(Decl::var(v)),
            }
        }
        decls.extend(self.saved_derivative_decls());
        // C functions keep their declarations in the body.
        match self.f.lang {
            Lang::Fortran => self.u.decls = decls,
            Lang::C => {
                for d in decls {
                    if let Decl::Comment(text) = d {
                        // The header comment goes above the function.
                        self.u.directives.push(Directive::comment(text));
                    }
                }
            }
        }
    }
}

impl<'a> ProcGen<'_, 'a> {
    /// `! f_d: tangent of f. Dependents: y. Independents: x. x:in xd:in y:out yd:out`.
    fn header_comment(&self) -> String {
        let lead = match self.f.lang {
            Lang::Fortran => "!",
            Lang::C => "//",
        };
        let mode = if self.f.adjoint && self.f.sweep == Sweep::Fwd {
            "reverse (adjoint) split mode: forward sweep of"
        } else if self.f.adjoint && self.f.sweep == Sweep::Bwd {
            "reverse (adjoint) split mode: backward sweep of"
        } else if self.f.adjoint {
            "reverse (adjoint)"
        } else if self.f.vector {
            "vector tangent (forward)"
        } else {
            "tangent (forward)"
        };
        let fname = crate::gen::unit_name(self.g.prog, self.f.p);
        let mut s = if self.f.sweep == Sweep::Joint {
            format!("{lead} Differentiation of {fname} in {mode} mode.")
        } else {
            format!("{lead} Differentiation of {fname}: {mode} {fname}_b.")
        };
        if let Some(h) = self.g.info.heads.iter().find(|h| h.head == self.f.p) {
            let deps: Vec<&str> = h.dependents.iter().map(|(n, _)| n.as_str()).collect();
            let inds: Vec<&str> = h.independents.iter().map(|(n, _)| n.as_str()).collect();
            s.push_str(&format!(
                "\n{lead}   dependents:   {}\n{lead}   independents: {}",
                deps.join(" "),
                inds.join(" ")
            ));
        }
        // Read/write status of each derivative argument.
        let mut st = Vec::new();
        let dz = self.g.deriv_zones(self.f.p);
        for (&p, &f) in self.f.src.params.iter().zip(&self.g.dparams[&self.f.p]) {
            if !f {
                continue;
            }
            let d = self.dvar[&p];
            let z = self
                .f
                .pi
                .zones
                .objects
                .get(&ObjKey::Pointee(p))
                .map(|o| self.f.pi.zones.obj_set(o))
                .or_else(|| self.f.pi.zones.sym_zones(p));
            let Some(mut z) = z else { continue };
            // Only the parts that carry derivatives (a record's active components).
            if z.intersects(&dz) {
                z.intersect_with(&dz);
            }
            // INTENT(OUT) arguments are undefined on entry, whatever the calling contexts say.
            let read = z.intersects(&self.f.act.varied_in)
                && self.g.prog.symbols[p].attrs.intent != Some(Intent::Out);
            let written =
                !self.c_by_value(p) && z.iter().any(|zz| self.f.pi.summary.writes.contains(zz));
            let status = match (read, written, self.f.adjoint) {
                // A head's output that is not a dependent: its adjoint on entry is ignored.
                (true, true, true) if self.output_adjoint_ignored(p) => "out",
                (false, true, true) if self.output_adjoint_ignored(p) => "zero",
                (true, true, _) => "in-out",
                (true, false, false) => "in",
                (false, true, false) => "out",
                // Adjoints flow backwards: inputs' adjoints are results, outputs' are
                // read and reset to zero.
                (true, false, true) if self.input_adjoint_overwritten(p) => "out",
                (true, false, true) => "incremented",
                (false, true, true) => "in-zero",
                (false, false, _) => "unused",
            };
            // A C by-value argument's adjoint comes back through a pointer parameter: name
            // the parameter, not the local accumulating it.
            let shown = self
                .adj_by_ptr
                .iter()
                .find(|&&(_, local)| local == d)
                .map_or(d, |&(ptr, _)| ptr);
            st.push(format!("{}:{status}", self.g.out.symbols[shown].spelling));
        }
        // The function result's derivative.
        if let Some(r) = self.f.src.result.filter(|_| self.g.dresult[&self.f.p]) {
            if let Some(&d) = self.dvar.get(&r) {
                let name = &self.g.out.symbols[d].spelling;
                if self.f.adjoint {
                    st.push(format!("{name}:in"));
                } else if self.f.vector {
                    st.push(format!("{name}:out"));
                } else if self.f.lang == Lang::Fortran {
                    st.push(format!("{name}:returned"));
                } else {
                    // C returns the derivative: the local holding it is no interface name.
                    let f = crate::gen::unit_name(self.g.prog, self.f.p);
                    st.push(format!("(the derivative of {f} is returned)"));
                }
            }
        }
        if !st.is_empty() && self.f.sweep != Sweep::Fwd {
            s.push_str(&format!(
                "\n{lead}   derivative arguments: {}",
                st.join(" ")
            ));
        }
        s
    }
}

/// The declaration of scalar `s` of class `base` and `bytes` bytes (`real(8) :: s`,
/// `double s`).
pub(super) fn scalar_var(lang: Lang, s: SymbolId, base: BaseClass, bytes: u32) -> VarDecl {
    let t = Type {
        base,
        bytes: Some(bytes),
        dims: Vec::new(),
        pointers: 0,
    };
    VarDecl {
        spec: spec_of_type(lang, &t),
        attrs: Vec::new(),
        entities: vec![plain_entity(s)],
        double_colon: true,
    }
}
