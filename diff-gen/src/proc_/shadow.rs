//! Shadows of C allocator and deallocator calls (`radtap_il::alloc`): the derivative of
//! `m = get_new_matrix(r, c)` allocates the derivative block the way the allocator
//! allocates the primal one (`md = (struct Matrix_d *)malloc(sizeof(Matrix));
//! md->data = (double *)malloc(r * c * sizeof(double));`, the allocator's parameters
//! replaced by the call's arguments), and `delete_matrix(m)` frees it the way the
//! deallocator frees the primal (`free(md->data); free(md);`). In vector mode each block
//! has room for every direction (`malloc(n * sizeof(double) * NBDirsMax)`, as for `malloc`
//! itself): one derivative record holds every direction, its member `double (*data)
//! [NBDirsMax]` (docs/decisions.md, C vector mode, records).
//!
//! Sound because an allocator changes nothing but the memory it allocates, so the shadow
//! built after the call sees the arguments the call saw, provided they read no variable
//! the assignment changes and have no effects (checked here; otherwise the derivative is
//! lost and reported, AD020).

use super::*;

impl<'a> ProcGen<'_, 'a> {
    /// The allocator a C expression of the primal calls, with its unit.
    pub fn allocator_of(&self, e: ExprId) -> Option<(UnitId, radtap_il::alloc::Allocator)> {
        radtap_il::alloc::allocator_call(self.prog(), self.f.p, e)
    }

    /// A copy, in the output unit, of expression `x` of the allocator `a`, with `a`'s
    /// parameters replaced by the call `call`'s arguments. `None` when an argument may have
    /// an effect or read `lhs` (the variable the call's value is assigned to).
    fn substituted(
        &mut self,
        a: UnitId,
        x: ExprId,
        call: ExprId,
        lhs: Option<SymbolId>,
    ) -> Option<ExprId> {
        let src = self.f.src;
        let mut e = call;
        while let Expr::Paren(i) | Expr::Cast { arg: i, .. } = src.exprs[e] {
            e = i;
        }
        let Expr::Call { args, .. } = &src.exprs[e] else {
            return None;
        };
        self.substituted_args(a, x, args, lhs)
    }

    /// [`Self::substituted`] over the arguments `args` of a call of `a`.
    fn substituted_args(
        &mut self,
        a: UnitId,
        x: ExprId,
        args: &[Arg],
        lhs: Option<SymbolId>,
    ) -> Option<ExprId> {
        let src = self.f.src;
        let params = self.prog().units[a].params.clone();
        if args.len() != params.len() {
            return None;
        }
        for arg in args {
            let mut todo = vec![arg.value];
            while let Some(y) = todo.pop() {
                match &src.exprs[y] {
                    Expr::Name(n) if Some(*n) == lhs => return None,
                    Expr::Call { .. }
                    | Expr::Assign { .. }
                    | Expr::IncDec { .. }
                    | Expr::Comma(_)
                    | Expr::Opaque(_)
                    | Expr::Intrinsic(_) => return None,
                    other => radtap_il::visit::expr_children(other, &mut |k| todo.push(k)),
                }
            }
        }
        let c = Copier {
            src: &self.prog().units[a],
        }
        .expr(&mut self.u, x);
        let mut todo = vec![c];
        while let Some(y) = todo.pop() {
            if let Expr::Name(n) = self.u.exprs[y] {
                if let Some(k) = params.iter().position(|&p| p == n) {
                    let v = self.cp(args[k].value);
                    let v = self.paren_if_compound(v);
                    self.u.exprs[y] = self.u.exprs[v].clone();
                }
                continue;
            }
            radtap_il::visit::expr_children(&self.u.exprs[y], &mut |k| todo.push(k));
        }
        Some(c)
    }

    /// [`Self::substituted`] for the adjoint rules: expression `x` of allocator `a` over the
    /// arguments of `call`.
    pub fn allocator_expr(
        &mut self,
        a: UnitId,
        x: ExprId,
        call: ExprId,
        lhs: Option<SymbolId>,
    ) -> Option<ExprId> {
        self.substituted(a, x, call, lhs)
    }

    /// Turns the casts to a record type in built expression `x` into casts to its
    /// derivative record (`(Matrix *)malloc(…)` → `(struct Matrix_d *)malloc(…)`), never
    /// to const.
    fn derivative_casts(&mut self, mut x: ExprId) {
        loop {
            match self.u.exprs[x].clone() {
                Expr::Paren(a) => x = a,
                Expr::Cast { mut ty, arg } => {
                    ty.spec.qualifiers.retain(|q| q != "const");
                    if let BaseClass::Record(td) = ty.spec.class {
                        let (_, n) = self.g.derivative_type(td);
                        ty.spec.keyword = "struct".into();
                        ty.spec.name = Some(n);
                        ty.spec.inline_def = None;
                    }
                    self.u.exprs[x] = Expr::Cast { ty, arg };
                    x = arg;
                }
                _ => return,
            }
        }
    }

    /// Multiplies the last argument of the allocation call in built expression `x` by
    /// `NBDirsMax` (one block for every direction).
    fn all_directions(&mut self, mut x: ExprId) {
        loop {
            match self.u.exprs[x].clone() {
                Expr::Paren(a) | Expr::Cast { arg: a, .. } => x = a,
                Expr::Call { args, .. } => {
                    if let Some(l) = args.last().map(|a| a.value) {
                        let nb = self.b().opaque("NBDirsMax");
                        let l2 = self.paren_if_compound(l);
                        let m = self.b().bin(BinOp::Mul, l2, nb);
                        if let Expr::Call { args: a3, .. } = &mut self.u.exprs[x] {
                            if let Some(z) = a3.last_mut() {
                                z.value = m;
                            }
                        }
                    }
                    return;
                }
                _ => return,
            }
        }
    }

    /// Turns the `malloc(n)` in built expression `x` (under casts) into `calloc(1, n)`: a
    /// shadow block starts as zeros, its twin pointer members `NULL` (an allocator that sets
    /// pointer members to `NULL`, `radtap_il::alloc`'s module doc) and its values zero (the
    /// derivative of memory nothing active wrote yet).
    pub(crate) fn zeroed_allocation(&mut self, mut x: ExprId) {
        loop {
            match self.u.exprs[x].clone() {
                Expr::Paren(a) | Expr::Cast { arg: a, .. } => x = a,
                Expr::Call { args, .. } => {
                    if let [n] = &args[..] {
                        let one = self.b().int(1);
                        let calloc = self.b().opaque("calloc");
                        let n = n.value;
                        self.u.exprs[x] = Expr::Call {
                            callee: calloc,
                            args: vec![
                                Arg {
                                    keyword: None,
                                    value: one,
                                },
                                Arg {
                                    keyword: None,
                                    value: n,
                                },
                            ],
                        };
                    }
                    return;
                }
                _ => return,
            }
        }
    }

    /// The derivative block of allocator call `call` (assigned to `lhs`): the allocator's
    /// own allocation of the block it returns, for derivative records (module doc).
    pub fn allocator_block(&mut self, call: ExprId, lhs: Option<SymbolId>) -> Option<ExprId> {
        let (a, al) = self.allocator_of(call)?;
        let mut x = self.substituted(a, al.block, call, lhs)?;
        // Zeroed whether or not the allocator sets members to `NULL`: the derivative of
        // memory nothing active wrote yet is zero (`dref.rs`, `dptr` of `malloc`).
        self.zeroed_allocation(x);
        if self.f.vector && !self.record_sizes_to_derivative(x) {
            // `double (*vd)[NBDirsMax]`: room for every direction, no cast (as for `malloc`
            // itself, `dref.rs`). A record block whose size is not counted in records
            // (`malloc(16)`) too: no derivative record is larger than `NBDirsMax` primal
            // ones.
            while let Expr::Paren(i) | Expr::Cast { arg: i, .. } = self.u.exprs[x] {
                x = i;
            }
            self.all_directions(x);
            return Some(self.b().e(Expr::Paren(x)));
        }
        self.derivative_casts(x);
        Some(x)
    }

    /// Vector mode: when every `sizeof` of built allocation `x` is of a record type
    /// (`calloc(1, count * sizeof(Matrix))`), turns them into the derivative record's
    /// (`sizeof(struct Matrix_d)`: one record holds every direction) and says so; otherwise
    /// changes nothing (the caller allocates `NBDirsMax` times the primal size).
    fn record_sizes_to_derivative(&mut self, x: ExprId) -> bool {
        let mut sizes = Vec::new();
        let mut todo = vec![x];
        while let Some(y) = todo.pop() {
            match &self.u.exprs[y] {
                Expr::SizeofType(cp) => match cp.spec.class {
                    BaseClass::Record(td) if cp.derived.is_empty() && cp.dims.is_empty() => {
                        sizes.push((y, td))
                    }
                    _ => return false,
                },
                Expr::Unary {
                    op: UnOp::Sizeof, ..
                } => return false,
                other => radtap_il::visit::expr_children(other, &mut |k| todo.push(k)),
            }
        }
        if sizes.is_empty() {
            return false;
        }
        for (y, td) in sizes {
            let (_, n) = self.g.derivative_type(td);
            if let Expr::SizeofType(cp) = &mut self.u.exprs[y] {
                cp.spec.keyword = "struct".into();
                cp.spec.name = Some(n);
                cp.spec.inline_def = None;
                cp.spec.qualifiers.retain(|q| q != "const");
            }
        }
        self.derivative_casts(x);
        true
    }

    /// The derivative member blocks of allocator call `call` whose derivative block is
    /// designated by `dq` (a built reference): `dq->data = malloc(…)` for each pointer
    /// member the allocator allocates and the derivative record holds.
    pub fn allocator_members(
        &mut self,
        call: ExprId,
        lhs: Option<SymbolId>,
        dq: SymbolId,
    ) -> Vec<StmtId> {
        let Some((a, al)) = self.allocator_of(call) else {
            return Vec::new();
        };
        let Some(td) = self.pointee_record(a) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for (f, x) in al.members {
            if !self
                .g
                .active_fields
                .get(&td)
                .is_some_and(|s| s.contains(&f))
            {
                continue;
            }
            let Some(r) = self.substituted(a, x, call, lhs) else {
                self.lost_derivative = true;
                continue;
            };
            self.zeroed_allocation(r);
            let mut r = r;
            if self.f.vector {
                // `double (*data)[NBDirsMax]`: room for every direction, no cast (the
                // allocator's `(double *)` is not the member's type).
                while let Expr::Paren(i) | Expr::Cast { arg: i, .. } = self.u.exprs[r] {
                    r = i;
                }
                self.all_directions(r);
            }
            let l = self.shadow_member(dq, f);
            out.push(assign(&mut self.u, l, r));
        }
        out
    }

    /// Member `f` of the derivative record `dq` designates: `dq->f` (in vector mode too:
    /// one derivative record holds every direction).
    fn shadow_member(&mut self, dq: SymbolId, f: String) -> ExprId {
        let n = self.b().name(dq);
        self.b().e(Expr::Field {
            base: n,
            field: f,
            arrow: true,
        })
    }

    /// The record type an allocator's result points to.
    fn pointee_record(&self, a: UnitId) -> Option<TypeDefId> {
        let r = self.prog().units[a].result?;
        match self.prog().symbols[r].ty.as_ref()?.base {
            BaseClass::Record(td) => Some(td),
            _ => None,
        }
    }

    /// Whether callee `callee` of a call statement is a deallocator whose derivative frees
    /// shadow memory (module doc).
    pub fn deallocator_of(&self, callee: ExprId) -> Option<radtap_il::alloc::Deallocator> {
        let d = radtap_il::alloc::called_unit(self.prog(), self.f.p, callee)?;
        radtap_il::alloc::deallocator(self.prog(), d)
    }

    /// The frees of the shadow of `arg` (the deallocator's argument, a pointer variable with
    /// a derivative) that the deallocator `d` mirrors: `free(md->data); free(md);`.
    pub fn deallocator_frees(
        &mut self,
        d: &radtap_il::alloc::Deallocator,
        arg: ExprId,
    ) -> Option<Vec<StmtId>> {
        if d.each.is_some() {
            return None;
        }
        let Expr::Name(q) = self.f.src.exprs[arg] else {
            return None;
        };
        let dq = *self.dvar.get(&q)?;
        let td = match self.prog().symbols[q].ty.as_ref()?.base {
            BaseClass::Record(td) => Some(td),
            _ => None,
        };
        let mut out = Vec::new();
        let free = |me: &mut Self, x: ExprId| {
            let f = me.b().opaque("free");
            stmt(
                &mut me.u,
                StmtKind::Call {
                    callee: f,
                    args: vec![Arg {
                        keyword: None,
                        value: x,
                    }],
                    no_parens: false,
                },
            )
        };
        for f in &d.members {
            let twin =
                td.is_some_and(|td| self.g.active_fields.get(&td).is_some_and(|s| s.contains(f)));
            if twin {
                let l = self.shadow_member(dq, f.clone());
                out.push(free(self, l));
            }
        }
        if d.block {
            let n = self.b().name(dq);
            out.push(free(self, n));
        }
        Some(out)
    }

    /// The frees of the shadow of a block of several records (`delete_light_matrix_array(m,
    /// count)`, [`radtap_il::alloc::Deallocator::each`]) that the deallocator `d` (unit
    /// `du`) mirrors: `for (i = 0; i < count; ++i) free(md[i].data);`, then `free(md)`
    /// when it frees the block (in vector mode `md[i][nd].data`, every direction).
    /// `None` when the first argument is not a pointer variable with a derivative or the
    /// count cannot be rebuilt at the call.
    pub fn deallocator_frees_each(
        &mut self,
        callee: ExprId,
        d: &radtap_il::alloc::Deallocator,
        args: &[Arg],
    ) -> Option<Vec<StmtId>> {
        let count = d.each?;
        let du = radtap_il::alloc::called_unit(self.prog(), self.f.p, callee)?;
        let Expr::Name(q) = self.f.src.exprs[args.first()?.value] else {
            return None;
        };
        let dq = *self.dvar.get(&q)?;
        let td = match self.prog().symbols[q].ty.as_ref()?.base {
            BaseClass::Record(td) => td,
            _ => return None,
        };
        let n = self.substituted_args(du, count, args, None)?;
        let i = self.temp("i", TempKind::Int);
        let mut frees = Vec::new();
        for f in &d.members {
            if !self.g.active_fields.get(&td).is_some_and(|s| s.contains(f)) {
                continue;
            }
            let base = self.b().name(dq);
            let iv = self.b().name(i);
            let elem = self.b().index(base, vec![Subscript::Index(iv)]);
            let m = self.b().e(Expr::Field {
                base: elem,
                field: f.clone(),
                arrow: false,
            });
            let fr = self.b().opaque("free");
            frees.push(stmt(
                &mut self.u,
                StmtKind::Call {
                    callee: fr,
                    args: vec![Arg {
                        keyword: None,
                        value: m,
                    }],
                    no_parens: false,
                },
            ));
        }
        let mut out = Vec::new();
        if !frees.is_empty() {
            out.push(self.c_count_loop(i, n, frees, true));
        } else {
            self.forget_temp(i);
        }
        if d.block {
            let n = self.b().name(dq);
            let fr = self.b().opaque("free");
            out.push(stmt(
                &mut self.u,
                StmtKind::Call {
                    callee: fr,
                    args: vec![Arg {
                        keyword: None,
                        value: n,
                    }],
                    no_parens: false,
                },
            ));
        }
        Some(out)
    }

    /// The zero derivative of a record pointer actual `a` (designating memory of `like`, a
    /// pointer to records) that carries no derivative here, passed where the callee's
    /// derivative takes one (ADBench's `mat_mult(&base_relatives[i], tr, &relatives[i])`,
    /// its first parameter active through another call): a zeroed derivative record
    /// `zerod`, each twin member pointing to a block of zeros as large as the callee reads
    /// of the primal member (`radtap_il::extent::member_pointer_extent`, its parameters
    /// and the record's integer members replaced by the call's: `calloc(
    /// (&base_relatives[i])->nrows * (&base_relatives[i])->ncols, sizeof(double))`), the
    /// blocks freed after the call ([`ProcGen::post_call`]); in vector mode each block has
    /// every direction's row (`sizeof(double[NBDirsMax])`). In adjoint mode the callee's
    /// adjoint accumulates into the blocks, which are dropped. `None` (the caller refuses)
    /// when a member's extent is not known or the callee writes it.
    pub fn zero_record_shadow(
        &mut self,
        a: ExprId,
        like: SymbolId,
        (c, fi, args): (UnitId, usize, &'a [Arg]),
        pre: &mut Vec<StmtId>,
    ) -> Option<ExprId> {
        if self.f.lang != Lang::C {
            return None;
        }
        let t = self.prog().symbols[like].ty.as_ref()?;
        let BaseClass::Record(td) = t.base else {
            return None;
        };
        if t.pointers != 1 || !t.dims.is_empty() {
            return None;
        }
        let formal = *self.prog().units[c].params.get(fi)?;
        let ft = self.prog().symbols[formal].ty.as_ref()?;
        if ft.base != BaseClass::Record(td) || ft.pointers != 1 || !ft.dims.is_empty() {
            return None;
        }
        let mut fields: Vec<String> = self.g.active_fields.get(&td)?.iter().cloned().collect();
        fields.sort();
        let cparams = self.prog().units[c].params.clone();
        let members: Vec<SymbolId> = self.prog().typedefs[td]
            .fields
            .iter()
            .flat_map(|d| match d {
                Decl::Var(v) => v.entities.iter().map(|x| x.sym).collect::<Vec<_>>(),
                _ => Vec::new(),
            })
            .collect();
        // Each pointer member's element type and counts, before anything is built.
        let mut blocks = Vec::new();
        for f in &fields {
            let m = *members
                .iter()
                .find(|&&x| self.prog().symbols[x].spelling == *f)?;
            let mt = self.prog().symbols[m].ty.as_ref()?;
            if mt.pointers == 0 && mt.dims.is_empty() {
                continue; // a real member: zero in the zeroed record
            }
            let elem = match (mt.base, mt.bytes, mt.pointers, mt.dims.is_empty()) {
                (BaseClass::Real, Some(8), 1, true) => "double",
                (BaseClass::Real, Some(4), 1, true) => "float",
                _ => return None,
            };
            let (ext, others) =
                radtap_il::extent::member_pointer_extent(self.prog(), c, formal, f)?;
            let counts = ext.each_terms();
            let known = |v: &SymbolId| {
                others.iter().any(|(x, q, _)| x == v && cparams.contains(q))
                    || cparams.contains(v)
                    || members.contains(v)
            };
            if !counts
                .iter()
                .flatten()
                .flat_map(|(k, _)| k.iter())
                .all(known)
            {
                return None;
            }
            blocks.push((f.clone(), elem, counts, others));
        }
        let z = self.temp(
            "zerod",
            TempKind::Like {
                sym: like,
                deriv: true,
            },
        );
        let mut post = Vec::new();
        for (f, elem, counts, others) in blocks {
            // The largest count: `n = c1; if (n < c2) n = c2; …`.
            let n = self.temp("nzero", TempKind::Int);
            for (i, terms) in counts.into_iter().enumerate() {
                let ce = self.count_expr(terms.clone(), a, args, &cparams, &others);
                let l = self.b().name(n);
                let set = assign(&mut self.u, l, ce);
                if i == 0 {
                    pre.push(set);
                    continue;
                }
                let l2 = self.b().name(n);
                let ce2 = self.count_expr(terms, a, args, &cparams, &others);
                let cond = self.b().bin(BinOp::Lt(RelSpell::Symbol), l2, ce2);
                pre.push(stmt(
                    &mut self.u,
                    StmtKind::If {
                        arms: vec![(cond, vec![set])],
                        else_block: None,
                        logical: false,
                        braces: vec![true],
                    },
                ));
            }
            let count = self.b().name(n);
            // Vector mode: `double (*data)[NBDirsMax]`, every direction's row.
            let size = if self.f.vector {
                self.b().opaque(&format!("sizeof({elem}[NBDirsMax])"))
            } else {
                self.b().opaque(&format!("sizeof({elem})"))
            };
            let calloc = self.b().opaque("calloc");
            let alloc = self.b().e(Expr::Call {
                callee: calloc,
                args: vec![
                    Arg {
                        keyword: None,
                        value: count,
                    },
                    Arg {
                        keyword: None,
                        value: size,
                    },
                ],
            });
            let lhs = self.zero_record_member(z, &f);
            let set = assign(&mut self.u, lhs, alloc);
            pre.push(set);
            let m = self.zero_record_member(z, &f);
            let fr = self.b().opaque("free");
            let frees = vec![stmt(
                &mut self.u,
                StmtKind::Call {
                    callee: fr,
                    args: vec![Arg {
                        keyword: None,
                        value: m,
                    }],
                    no_parens: false,
                },
            )];
            post.extend(frees);
        }
        self.post_call.extend(post);
        let zn = self.b().name(z);
        Some(self.b().e(Expr::Unary {
            op: UnOp::AddrOf,
            arg: zn,
        }))
    }

    /// Member `f` of the zero derivative record `z` ([`Self::zero_record_shadow`]): `z.f`
    /// (in vector mode too: one record holds every direction).
    fn zero_record_member(&mut self, z: SymbolId, f: &str) -> ExprId {
        let base = self.b().name(z);
        self.b().e(Expr::Field {
            base,
            field: f.to_string(),
            arrow: false,
        })
    }

    /// A count of [`Self::zero_record_shadow`] as an expression at the call: Σ coefficient
    /// × Π factors, the callee's parameters replaced by the call's arguments, the record's
    /// members read off the actual `a`, another record parameter's member (a placeholder
    /// of `others`) off its argument.
    fn count_expr(
        &mut self,
        terms: Vec<(Vec<SymbolId>, i64)>,
        a: ExprId,
        args: &[Arg],
        cparams: &[SymbolId],
        others: &[(SymbolId, SymbolId, String)],
    ) -> ExprId {
        let mut count: Option<ExprId> = None;
        for (syms, coef) in terms {
            let mut term: Option<ExprId> = (coef != 1).then(|| self.b().int(coef));
            for v in syms {
                let factor = if let Some((_, q, g)) = others.iter().find(|(x, ..)| *x == v) {
                    let k = cparams.iter().position(|p| p == q).unwrap_or(0);
                    let x = self.cp(args[k].value);
                    let base = self.b().e(Expr::Paren(x));
                    self.b().e(Expr::Field {
                        base,
                        field: g.clone(),
                        arrow: true,
                    })
                } else if let Some(k) = cparams.iter().position(|&p| p == v) {
                    let x = self.cp(args[k].value);
                    self.paren_if_compound(x)
                } else {
                    let x = self.cp(a);
                    let base = self.b().e(Expr::Paren(x));
                    let name = self.prog().symbols[v].spelling.clone();
                    self.b().e(Expr::Field {
                        base,
                        field: name,
                        arrow: true,
                    })
                };
                term = Some(match term {
                    None => factor,
                    Some(t0) => self.b().bin(BinOp::Mul, t0, factor),
                });
            }
            let term = match term {
                Some(t0) => t0,
                None => self.b().int(coef),
            };
            count = Some(match count {
                None => term,
                Some(c0) => self.b().bin(BinOp::Add, c0, term),
            });
        }
        match count {
            Some(c0) => c0,
            None => self.b().int(0),
        }
    }
}
