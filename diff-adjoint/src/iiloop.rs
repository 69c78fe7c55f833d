//! `$AD II-LOOP` before a DO loop or a counted C `for` with independent iterations (paper
//! §4.8): each iteration is checkpointed like a region, so the backward sweep holds one iteration's tape at a time.
//! The forward sweep pushes, per iteration, a snapshot of what the iteration reads or writes
//! that the procedure may overwrite, and runs it without tape; the reversed loop restores
//! the snapshot, re-runs the iteration with its tape, reverses it and restores the snapshot
//! again.
//!
//! The snapshot is cut to the element an iteration touches: an array every reference of
//! which in the body is the same element `x(i, …)` (subscripts made of the counter, integer
//! literals and variables the body does not write), a dummy or local of this procedure in no
//! COMMON, passed to calls only as that element to a scalar dummy of a procedure not
//! contained here, is recorded as that element (O(1) per iteration); in C, the memory `*x` of
//! a pointer dummy the procedure never writes and uses only as `x[…]` likewise
//! ([`Adj::c_elements_only`]); any other array whole.
//! Nothing here assumes the iterations really are independent: the snapshot holds all the
//! iteration reads that can change, so a wrong II-LOOP costs memory, never correctness.

use crate::*;

impl<'a> Adj<'_, '_, 'a> {
    /// Marks the body of `s` for [`Self::adj_iteration`] when `s` is a DO loop under
    /// `$AD II-LOOP` in a joint sweep, or a counted C `for` loop; says why not otherwise.
    pub(crate) fn mark_ii_loop(&mut self, s: StmtId) {
        let st: &'a Stmt = &self.pg.f.src.stmts[s];
        if !st
            .directives
            .iter()
            .any(|d| d.kind == DirectiveKind::IiLoop)
        {
            return;
        }
        match &st.kind {
            StmtKind::Do { var, body, .. } if !body.is_empty() => {
                let Expr::Name(v) = self.pg.f.src.exprs[*var] else {
                    return;
                };
                if self.pg.f.sweep != Sweep::Joint {
                    self.pg.warn(s, Code::Directive, "`$AD II-LOOP` in a procedure differentiated in split mode (NOCHECKPOINT): the loop is taped whole");
                    return;
                }
                self.ii_body = Some((body[0], v));
            }
            StmtKind::CFor {
                init,
                cond,
                step,
                body,
                ..
            } if !body.is_empty() => {
                let Some(c) = self.canonical_for(*init, *cond, *step, body) else {
                    self.pg.warn(s, Code::Directive, "`$AD II-LOOP` needs a counted `for (i = a; i < b; i++)` loop (the reversed loop must give the counter back): the loop is taped whole");
                    return;
                };
                if self.pg.f.sweep != Sweep::Joint {
                    self.pg.warn(s, Code::Directive, "`$AD II-LOOP` in a procedure differentiated in split mode (NOCHECKPOINT): the loop is taped whole");
                    return;
                }
                self.ii_body = Some((body[0], c.var));
            }
            // Reported by the pipeline (AD050).
            _ => {}
        }
    }

    /// One iteration `b` of an II-LOOP with counter `var`, checkpointed (module doc).
    pub(crate) fn adj_iteration(&mut self, b: &'a [StmtId], var: SymbolId) -> Rev {
        if let Some((x, what)) = self.pg.region_refusal(b, &DirectiveKind::IiLoop) {
            return self.unsupported(x, &what);
        }
        let mut z = self.pg.f.pi.zones.empty();
        let mut inside = HashSet::new();
        subtree(self.pg.f.src, b, &mut |x| {
            inside.insert(x);
        });
        let mut body_writes = self.pg.f.pi.zones.empty();
        for (i, p) in self.pg.f.pi.point.iter().enumerate() {
            if inside.contains(&p.stmt) {
                z.union_with(&self.pg.f.pi.effects[i].reads);
                z.union_with(&self.pg.f.pi.effects[i].writes);
                body_writes.union_with(&self.pg.f.pi.effects[i].writes);
            }
        }
        z.intersect_with(&self.written_anywhere);
        for v in self.enclosing_do_vars(b[0]) {
            if let Some(vz) = self.pg.g.info.ref_zones(self.pg.prog(), self.pg.f.p, v) {
                z.subtract(&vz);
            }
        }
        if let Some(vz) = self.pg.f.pi.zones.sym_zones(var) {
            z.subtract(&vz);
        }
        // Arrays recorded as the element the iteration touches.
        let (mut epush, mut epop) = (Vec::new(), Vec::new());
        let objs: Vec<(SymbolId, bool, ZoneSet)> = self
            .pg
            .f
            .pi
            .zones
            .objects
            .iter()
            .filter_map(|(k, o)| match k {
                ObjKey::Sym(x) => Some((*x, false, self.pg.f.pi.zones.obj_set(o))),
                ObjKey::Pointee(x) => Some((*x, true, self.pg.f.pi.zones.obj_set(o))),
                _ => None,
            })
            .collect();
        for (x, pointee, zx) in objs {
            if !z.intersects(&zx) {
                continue;
            }
            if self.pg.f.lang == Lang::C && !(pointee && self.c_elements_only(x)) {
                continue;
            }
            if self.pg.f.lang == Lang::Fortran && pointee {
                continue;
            }
            let Some(elem) = self.iteration_element(b, x, var, &body_writes) else {
                continue;
            };
            let Ok(sl) = self.slot_of_target(Target::Expr(elem)) else {
                continue;
            };
            let (p1, p2) = self.push_pop(&sl);
            epush.push(p1);
            epop.insert(0, p2);
            z.subtract(&zx);
        }
        let (push, pop) = self.snapshot(b[0], &z);
        epush.extend(push);
        let mut pops = pop;
        pops.extend(epop);
        let (regions, _) = radtap_il::directives::block_regions(&self.pg.f.src.stmts, b);
        let inner = self.rev_range(b, 0, b.len(), &regions, None);
        let mut fwd = epush;
        for &s in b {
            let c = self.pg.copy_stmt(s);
            fwd.push(c);
        }
        let mut bwd = self.restore_for_rerun(&pops);
        bwd.extend(inner.fwd);
        bwd.extend(inner.bwd);
        bwd.extend(pops);
        Rev { fwd, bwd }
    }

    /// The one element reference `x(…)` through which the iteration `b` touches array `x`
    /// (module doc), or `None`.
    fn iteration_element(
        &self,
        b: &[StmtId],
        x: SymbolId,
        var: SymbolId,
        body_writes: &ZoneSet,
    ) -> Option<ExprId> {
        let prog = self.pg.prog();
        let src = self.pg.f.src;
        let xs = &prog.symbols[x];
        // C: the caller checked `c_elements_only`.
        if self.pg.f.lang == Lang::Fortran {
            let array = xs.ty.as_ref().is_some_and(|t| !t.dims.is_empty());
            let mine = src.params.contains(&x) || self.own_local(x);
            // An equivalenced array shares storage with other names: its elements are not
            // the only way to them.
            let alone = xs.common.is_none() && !self.pg.f.pi.zones.equivalenced.contains(&x);
            if !(array && mine && alone && !xs.attrs.pointer) {
                return None;
            }
        }
        // The subscripts' key: counter, literals, names the body does not write.
        let key = |e: ExprId| -> Option<String> {
            let Expr::Index { base, subs } = &src.exprs[e] else {
                return None;
            };
            if !matches!(src.exprs[*base], Expr::Name(y) if y == x) {
                return None;
            }
            let mut k = String::new();
            let mut has_var = false;
            for sb in subs {
                let Subscript::Index(s) = sb else { return None };
                match &src.exprs[*s] {
                    Expr::Name(v) if *v == var => {
                        has_var = true;
                        k.push_str("@i,");
                    }
                    Expr::Name(v) => {
                        let z = self.pg.f.pi.zones.sym_zones(*v)?;
                        if z.intersects(body_writes) {
                            return None;
                        }
                        k.push_str(&format!("{v:?},"));
                    }
                    Expr::Literal(l) if l.kind == LitKind::Int => {
                        k.push_str(&format!("#{},", l.text))
                    }
                    _ => return None,
                }
            }
            has_var.then_some(k)
        };
        let mut found: Option<(String, ExprId)> = None;
        let mut ok = true;
        // Every expression of the body: each `x` must be the base of the same element, and
        // an element passed to a call must go to a scalar dummy of a procedure not contained
        // here.
        let mut check = |e: ExprId, as_arg_to: Option<Option<UnitId>>, ok: &mut bool| {
            let k = key(e);
            match (&k, &found) {
                // Another element (`x(i-1)`, `x(j)`): the iteration may touch more than
                // one element; `x` is recorded whole.
                (None, _) => *ok = false,
                (Some(k), Some((f, _))) if k != f => *ok = false,
                (Some(k), None) => found = Some((k.clone(), e)),
                _ => {}
            }
            if k.is_some() {
                if let Some(callee) = as_arg_to {
                    let fine = callee.is_some_and(|c| prog.units[c].parent != Some(self.pg.f.p));
                    if !fine {
                        *ok = false;
                    }
                }
            }
        };
        let mut todo: Vec<(ExprId, Option<Option<UnitId>>)> = Vec::new();
        let mut stmts = Vec::new();
        subtree(src, b, &mut |s| stmts.push(s));
        for s in stmts {
            let kind = &src.stmts[s].kind;
            if let StmtKind::Call { args, .. } = kind {
                let site = self.pg.stmt_call_site(s);
                let callee = match site.map(|x| &x.callee) {
                    Some(Callee::Defined(l)) if l.len() == 1 => Some(l[0]),
                    _ => None,
                };
                for (k, a) in args.iter().enumerate() {
                    let scalar = callee.and_then(|c| {
                        let cu = &prog.units[c];
                        let f = match &a.keyword {
                            Some(kw) => cu
                                .params
                                .iter()
                                .find(|&&p| prog.symbols[p].spelling.eq_ignore_ascii_case(kw)),
                            None => cu.params.get(k),
                        }?;
                        let t = prog.symbols[*f].ty.as_ref()?;
                        (t.dims.is_empty() && !prog.symbols[*f].attrs.pointer).then_some(c)
                    });
                    todo.push((a.value, Some(scalar)));
                }
                continue;
            }
            radtap_il::visit::stmt_children(kind, &mut |e| todo.push((e, None)), &mut |_| {});
        }
        while let Some((e, arg)) = todo.pop() {
            match &src.exprs[e] {
                Expr::Name(y) if *y == x => ok = false,
                Expr::Index { base, subs } if matches!(src.exprs[*base], Expr::Name(y) if y == x) =>
                {
                    check(e, arg, &mut ok);
                    for sb in subs {
                        match sb {
                            Subscript::Index(s) => todo.push((*s, None)),
                            Subscript::Range(a, b2, c) => {
                                ok = false;
                                for v in [a, b2, c].into_iter().flatten() {
                                    todo.push((*v, None));
                                }
                            }
                        }
                    }
                }
                // A function reference: an element argument only to an intrinsic.
                Expr::Call { callee, args } => {
                    let user = match &src.exprs[*callee] {
                        Expr::Name(f) => prog.units.iter().any(|(_, u)| {
                            u.name.is_some_and(|n| {
                                prog.symbols[n]
                                    .spelling
                                    .eq_ignore_ascii_case(&prog.symbols[*f].spelling)
                            })
                        }),
                        _ => true,
                    };
                    // C passes by value: `&x[i]` is refused by `c_elements_only`.
                    let by_ref = user && self.pg.f.lang == Lang::Fortran;
                    for a in args {
                        todo.push((a.value, if by_ref { Some(None) } else { None }));
                    }
                }
                other => radtap_il::visit::expr_children(other, &mut |c| todo.push((c, None))),
            }
            if !ok {
                return None;
            }
        }
        found.map(|(_, e)| e)
    }

    /// C: whether the memory `*x` can be recorded one element at a time: `x` is a pointer
    /// dummy (`double *x`, one level) that the procedure never writes, and every use of `x`
    /// anywhere in the procedure is the base of a subscript `x[…]` whose address is not taken,
    /// so no other pointer of this procedure reaches `*x` and no callee sees more than one
    /// element's value.
    fn c_elements_only(&self, x: SymbolId) -> bool {
        let prog = self.pg.prog();
        let src = self.pg.f.src;
        let xs = &prog.symbols[x];
        let one_level = xs
            .ty
            .as_ref()
            .is_some_and(|t| t.pointers == 1 && t.dims.is_empty());
        if !(src.params.contains(&x) && one_level) {
            return false;
        }
        match self.pg.f.pi.zones.sym_zones(x) {
            Some(zp) if !zp.intersects(&self.written_anywhere) => {}
            _ => return false,
        }
        let is_x_elem = |e: ExprId| {
            matches!(&src.exprs[e], Expr::Index { base, .. }
                if matches!(src.exprs[*base], Expr::Name(y) if y == x))
        };
        let mut todo: Vec<ExprId> = Vec::new();
        let mut ok = true;
        let mut stmts = Vec::new();
        subtree(src, &src.body, &mut |s| stmts.push(s));
        for s in stmts {
            match &src.stmts[s].kind {
                StmtKind::Decl(Decl::Var(v)) => {
                    for en in &v.entities {
                        match &en.init {
                            Some(Init::Expr(e)) | Some(Init::Pointer(e)) => todo.push(*e),
                            Some(Init::Data(_)) => ok = false,
                            None => {}
                        }
                    }
                }
                // Any other declaration among the statements: not looked into.
                StmtKind::Decl(_) => ok = false,
                kind => radtap_il::visit::stmt_children(kind, &mut |e| todo.push(e), &mut |_| {}),
            }
        }
        for d in &src.decls {
            if let Decl::Var(v) = d {
                for en in &v.entities {
                    if en.init.is_some() {
                        ok = false;
                    }
                }
            }
        }
        while let Some(e) = todo.pop() {
            if !ok {
                return false;
            }
            match &src.exprs[e] {
                Expr::Name(y) if *y == x => ok = false,
                Expr::Index { subs, .. } if is_x_elem(e) => {
                    for sb in subs {
                        match sb {
                            Subscript::Index(s) => todo.push(*s),
                            Subscript::Range(..) => ok = false,
                        }
                    }
                }
                Expr::Unary {
                    op: UnOp::AddrOf,
                    arg,
                } if radtap_dataflow::zones::base_symbol(prog, self.pg.f.p, *arg) == Some(x) => {
                    ok = false
                }
                other => radtap_il::visit::expr_children(other, &mut |c| todo.push(c)),
            }
        }
        ok
    }
}
