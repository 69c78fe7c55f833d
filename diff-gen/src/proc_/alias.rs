//! Actual arguments of a call that may share memory the callee writes (paper §4: the
//! derivative of `call g(x(i), x(i))` is not the derivative of `g` applied to two places).
//!
//! The tangent follows the primal statement by statement, so it stays right when the
//! primal does (C); Fortran forbids the aliasing, so both modes warn (Tapenade's DF02).
//! The adjoint of the callee updates each argument's adjoint through its own name and gets
//! it wrong: it refuses the call.

use super::*;
use radtap_dataflow::zones::base_symbol;

impl<'a> ProcGen<'_, 'a> {
    /// Pairs `(k, l)` of actual arguments of the call to `c` (indices into `args`) that may
    /// name the same differentiable memory while `c` writes one of them.
    pub fn aliased_args(&self, s: StmtId, c: UnitId, args: &[Arg]) -> Vec<(usize, usize)> {
        let prog = self.prog();
        let cu = &prog.units[c];
        let Some(ci) = self.g.info.procs.get(&c) else {
            return Vec::new();
        };
        let Some(flags) = self.g.dparams.get(&c) else {
            return Vec::new();
        };
        if prog
            .described
            .get(&c)
            .is_some_and(radtap_il::library::is_mpi)
        {
            // MPI requires the buffers of one call to be disjoint (MPI 4.0 §3.10, §6.1.1).
            return Vec::new();
        }
        // Each argument passed by reference whose formal has a derivative: (index, whether the
        // callee writes it, base variable, actual).
        let mut refs = Vec::new();
        for (k, a) in args.iter().enumerate() {
            let fi = match &a.keyword {
                Some(kw) => cu
                    .params
                    .iter()
                    .position(|&p| prog.symbols[p].spelling.eq_ignore_ascii_case(kw))
                    .unwrap_or(k),
                None => k,
            };
            if !flags.get(fi).copied().unwrap_or(false) || fi >= cu.params.len() {
                continue;
            }
            let formal = cu.params[fi];
            let zones = match ci.zones.objects.get(&ObjKey::Pointee(formal)) {
                Some(o) => Some(ci.zones.obj_set(o)),
                None if self.f.lang == Lang::Fortran => ci.zones.sym_zones(formal),
                None => None,
            };
            let Some(zones) = zones else { continue };
            // A dummy the callee never touches (ODEPACK's DSTODE once `YH1(I)` is addressed
            // through `YH`) shares nothing through it.
            if !ci.summary.writes.intersects(&zones) && !ci.summary.reads.intersects(&zones) {
                continue;
            }
            let written = ci.summary.writes.intersects(&zones);
            let mut e = a.value;
            while let Expr::Unary {
                op: UnOp::AddrOf,
                arg,
            }
            | Expr::Paren(arg) = self.f.src.exprs[e]
            {
                e = arg;
            }
            let Some(b) = base_symbol(prog, self.f.p, e) else {
                continue;
            };
            // A Fortran scalar dummy reaches its element only; an array dummy (or a C
            // pointer) reaches the elements that follow too (sequence association).
            let one = self.f.lang == Lang::Fortran
                && prog.symbols[formal]
                    .ty
                    .as_ref()
                    .is_some_and(|t| t.dims.is_empty() && !prog.symbols[formal].attrs.pointer);
            refs.push((k, written, b, e, one));
        }
        // Dummies of this procedure that nothing in it changes, calls included.
        let mine = self.g.info.procs.get(&self.f.p);
        let unchanged = |v: SymbolId| {
            mine.is_some_and(|m| {
                m.zones
                    .sym_zones(v)
                    .is_some_and(|z| !m.summary.writes.intersects(&z))
            })
        };
        let mut out = Vec::new();
        for (i, &(k, wk, bk, ek, ok)) in refs.iter().enumerate() {
            for &(l, wl, bl, el, ol) in &refs[i + 1..] {
                if !(wk || wl)
                    || !self.may_share(bk, bl)
                    || (ok && ol && self.disjoint_elements(ek, el))
                    || radtap_il::extent::parts::disjoint_parts(prog, self.f.p, s, c, args, (k, l))
                        .is_some_and(|o| o.iter().all(|&(x, y)| !self.may_share(x, y)))
                    || radtap_il::extent::pieces::disjoint_pieces(
                        prog,
                        self.f.p,
                        s,
                        c,
                        args,
                        (k, l),
                        &unchanged,
                    )
                {
                    continue;
                }
                out.push((k, l));
            }
        }
        out
    }

    /// The base variables of the actual arguments of the call to `c` through which `c` may
    /// write (`&c[j]` given to a pointer the callee writes through: `c`).
    pub fn written_arg_bases(&self, c: UnitId, args: &[Arg]) -> Vec<SymbolId> {
        let prog = self.prog();
        let cu = &prog.units[c];
        let Some(ci) = self.g.info.procs.get(&c) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for (k, a) in args.iter().enumerate() {
            let Some(&formal) = cu.params.get(k).filter(|_| a.keyword.is_none()) else {
                continue;
            };
            let zones = match ci.zones.objects.get(&ObjKey::Pointee(formal)) {
                Some(o) => Some(ci.zones.obj_set(o)),
                None if self.f.lang == Lang::Fortran => ci.zones.sym_zones(formal),
                None => None,
            };
            if zones.is_some_and(|z| ci.summary.writes.intersects(&z)) {
                out.extend(base_symbol(prog, self.f.p, a.value));
            }
        }
        out
    }

    /// Whether variables `a` and `b` may name the same differentiable memory (the same
    /// variable, or pointers whose targets may meet, unless they are members of one rotation
    /// group: `radtap_dataflow::rotation`).
    fn may_share(&self, a: SymbolId, b: SymbolId) -> bool {
        let z = &self.f.pi.zones;
        if a != b && z.rotations.iter().any(|r| r.has(a) && r.has(b)) {
            // Pointers rotating over their blocks never designate the same one.
            return false;
        }
        let reach = |s: SymbolId| -> Vec<ObjKey> {
            let mut v = vec![ObjKey::Sym(s)];
            if let Some(p) = z.pts.get(&s) {
                v.extend(p.iter().copied());
            }
            v
        };
        let (ra, rb) = (reach(a), reach(b));
        ra.iter().any(|o| {
            rb.contains(o)
                && z.objects
                    .get(o)
                    .is_some_and(|ob| z.obj_set(ob).intersects(&z.differentiable))
        })
    }

    /// Whether `a` and `b` are elements of the same array with different constant
    /// subscripts (disjoint when each is passed to a scalar dummy: `WA(1)` and `WA(2)` passed
    /// to array dummies of `N` elements overlap).
    fn disjoint_elements(&self, a: ExprId, b: ExprId) -> bool {
        let (Expr::Index { subs: sa, .. }, Expr::Index { subs: sb, .. }) =
            (&self.f.src.exprs[a], &self.f.src.exprs[b])
        else {
            return false;
        };
        sa.len() == sb.len() && sa.iter().zip(sb).any(|(x, y)| match (x, y) {
            (Subscript::Index(x), Subscript::Index(y)) => {
                matches!((self.const_value(*x), self.const_value(*y)), (Some(p), Some(q)) if p != q)
            }
            _ => false,
        })
    }

    /// Tangent mode: warns about the aliased arguments of the call to `c` at `s`.
    pub fn warn_aliased_args(&mut self, s: StmtId, c: UnitId, args: &[Arg]) {
        let Some(&(k, l)) = self.aliased_args(s, c, args).first() else {
            return;
        };
        let name = crate::gen::unit_name(self.prog(), c);
        let checked = self.record_alias_guard(c, args, (k, l)).is_some();
        let how = match self.f.lang {
            Lang::Fortran => "Fortran forbids it; radtap differentiates as if they did not",
            // Records of one array that own their blocks: the adjoint checks them apart.
            Lang::C if checked => "the tangent follows the primal through it; they are one record only when their subscripts are equal, which an adjoint checks when it runs",
            Lang::C => "the tangent follows the primal through it, an adjoint would refuse it",
        };
        let msg = format!(
            "arguments {} and {} of the call to `{name}` may share memory that `{name}` writes ({how})",
            k + 1,
            l + 1
        );
        self.warn(s, Code::Aliasing, &msg);
    }

    /// Adjoint mode: the pairs of arguments of the call to `c` that may share memory it
    /// writes only by being one record ([`Self::record_alias_guard`]): (k, l, subscript of
    /// k, subscript of l), for a run-time check that they differ.
    pub fn alias_guards(
        &self,
        s: StmtId,
        c: UnitId,
        args: &[Arg],
    ) -> Vec<(usize, usize, ExprId, ExprId)> {
        self.aliased_args(s, c, args)
            .into_iter()
            .filter_map(|(k, l)| {
                self.record_alias_guard(c, args, (k, l))
                    .map(|(a, b)| (k, l, a, b))
            })
            .filter(|&(_, _, a, b)| !self.constant_apart(a, b) && !self.constant_apart(b, a))
            .collect()
    }

    /// Whether subscript `b` is `a + c` or `a - c` with `c` a nonzero integer constant
    /// (`i - 1` and `i`: never one record, no check needed).
    fn constant_apart(&self, a: ExprId, b: ExprId) -> bool {
        let mut b = b;
        while let Expr::Paren(x) = self.f.src.exprs[b] {
            b = x;
        }
        match &self.f.src.exprs[b] {
            Expr::Binary {
                op: BinOp::Add | BinOp::Sub,
                lhs,
                rhs,
            } => {
                radtap_il::visit::same_expr(self.f.src, *lhs, a)
                    && self.const_value(*rhs).is_some_and(|v| v != 0.0)
            }
            _ => false,
        }
    }

    /// Arguments `k` and `l` of the call to `c` are `&a[e1]` and `&a[e2]`, records of one
    /// array whose type's pointer members each own their block
    /// (`radtap_il::member_count::records_own_blocks`: set only to new allocations or
    /// `NULL`, records never copied whole), and the callee reaches through each parameter
    /// only that record (`p->m`, or the parameter passed on to such a parameter): the two
    /// share memory exactly when `e1 == e2` (ADBench's `mat_mult(&absolutes[parents[i]],
    /// &relatives[i], &absolutes[i])`). The two subscripts.
    pub fn record_alias_guard(
        &self,
        c: UnitId,
        args: &[Arg],
        (k, l): (usize, usize),
    ) -> Option<(ExprId, ExprId)> {
        if self.f.lang != Lang::C {
            return None;
        }
        let prog = self.prog();
        let elem = |e: ExprId| -> Option<(SymbolId, ExprId)> {
            let mut e = e;
            while let Expr::Paren(a) = self.f.src.exprs[e] {
                e = a;
            }
            let Expr::Unary {
                op: UnOp::AddrOf,
                arg,
            } = self.f.src.exprs[e]
            else {
                return None;
            };
            let Expr::Index { base, subs } = &self.f.src.exprs[arg] else {
                return None;
            };
            let (Expr::Name(b), [Subscript::Index(i)]) = (&self.f.src.exprs[*base], &subs[..])
            else {
                return None;
            };
            Some((*b, *i))
        };
        let (bk, ek) = elem(args.get(k)?.value)?;
        let (bl, el) = elem(args.get(l)?.value)?;
        if bk != bl || args[k].keyword.is_some() || args[l].keyword.is_some() {
            return None;
        }
        let t = prog.symbols[bk].ty.as_ref()?;
        let BaseClass::Record(td) = t.base else {
            return None;
        };
        // Records the program allocated (a head's caller may hand over records sharing
        // blocks).
        let head = self.g.info.heads.iter().any(|h| h.head == self.f.p);
        if !radtap_il::member_count::allocated_in_program(prog, self.f.p, bk, head) {
            return None;
        }
        if t.pointers + t.dims.len() as u32 != 1 {
            return None;
        }
        // Members: integers, reals, and pointers to reals owning their blocks.
        for f in &prog.typedefs[td].fields {
            let Decl::Var(v) = f else { return None };
            for e in &v.entities {
                let ft = prog.symbols[e.sym].ty.as_ref()?;
                let plain = ft.pointers == 0
                    && ft.dims.is_empty()
                    && matches!(ft.base, BaseClass::Integer | BaseClass::Real);
                let owned = ft.pointers == 1
                    && ft.dims.is_empty()
                    && ft.base == BaseClass::Real
                    && radtap_il::member_count::records_own_blocks(
                        prog,
                        td,
                        &prog.symbols[e.sym].spelling,
                    );
                if !plain && !owned {
                    return None;
                }
            }
        }
        let cu = &prog.units[c];
        let one_record = |i: usize| {
            cu.params
                .get(i)
                .is_some_and(|&f| reaches_one_record(prog, c, f, td, 0))
        };
        (one_record(k) && one_record(l)).then_some((ek, el))
    }

    /// Adjoint mode: what the call to `c` is refused as when two of its arguments may share
    /// memory it writes (pairs a run-time check can tell apart aside: [`Self::alias_guards`]).
    pub fn aliased_call(&self, s: StmtId, c: UnitId, args: &[Arg]) -> Option<String> {
        let &(k, l) = self
            .aliased_args(s, c, args)
            .iter()
            .find(|&&(k, l)| self.record_alias_guard(c, args, (k, l)).is_none())?;
        let prog = self.prog();
        let name = crate::gen::unit_name(prog, c);
        // One actual given twice (ODEPACK's `DSTODE(…, RWORK(LYH), NYH, RWORK(LYH), …)`): not
        // a chance overlap a temporary would cure, but one array the callee reads and
        // writes under two names.
        let cu = &prog.units[c];
        let dummy = |i: usize| {
            args[i]
                .keyword
                .clone()
                .or_else(|| cu.params.get(i).map(|&p| prog.symbols[p].spelling.clone()))
        };
        let array_dummy = |i: usize| {
            args[i].keyword.is_none()
                && cu.params.get(i).is_some_and(|&p| {
                    prog.symbols[p]
                        .ty
                        .as_ref()
                        .is_some_and(|t| !t.dims.is_empty())
                })
        };
        if self.f.lang == Lang::Fortran
            && array_dummy(k)
            && array_dummy(l)
            && radtap_il::visit::same_expr(self.f.src, args[k].value, args[l].value)
        {
            if let (Some(dk), Some(dl)) = (dummy(k), dummy(l)) {
                let what = simple_text(prog, self.f.src, args[k].value)
                    .map(|t| format!(" (`{t}` both)"))
                    .unwrap_or_default();
                return Some(format!(
                    "a call to `{name}` passing the same memory as arguments {} and {}{what}, one array that `{name}` writes and reaches under two names, `{dk}` and `{dl}` (its adjoint would update each name's adjoint separately, and a temporary copy would change what `{name}` computes; to differentiate it, give `{name}` one dummy for that array and address `{dl}`'s elements through `{dk}`),",
                    k + 1,
                    l + 1,
                ));
            }
        }
        Some(format!(
            "a call to `{name}` whose arguments {} and {} may share memory it writes (its adjoint would update one through the other; copy one of them into a temporary before the call)",
            k + 1,
            l + 1
        ))
    }
}

/// `A`, `A(I)`, `A(I, 2)`: the text of a name or an element with names and integer literals
/// as subscripts, for a message; `None` for anything else.
fn simple_text(prog: &Program, u: &UnitData, e: ExprId) -> Option<String> {
    match &u.exprs[e] {
        Expr::Name(x) => Some(prog.symbols[*x].spelling.clone()),
        Expr::Literal(l) if l.kind == LitKind::Int => Some(l.text.clone()),
        Expr::Index { base, subs } => {
            let mut parts = Vec::new();
            for sub in subs {
                let Subscript::Index(i) = sub else {
                    return None;
                };
                parts.push(simple_text(prog, u, *i)?);
            }
            Some(format!(
                "{}({})",
                simple_text(prog, u, *base)?,
                parts.join(", ")
            ))
        }
        _ => None,
    }
}

/// Whether record pointer parameter `f` of unit `c` (type `td`) reaches only the record it
/// points to: every use is `f->m`, or `f` passed whole to a parameter of a procedure of the
/// program of which the same holds.
fn reaches_one_record(prog: &Program, c: UnitId, f: SymbolId, td: TypeDefId, depth: u32) -> bool {
    let u = &prog.units[c];
    let ft = prog.symbols[f].ty.as_ref();
    if depth > 8
        || u.lang != Lang::C
        || !ft.is_some_and(|t| {
            t.base == BaseClass::Record(td) && t.pointers == 1 && t.dims.is_empty()
        })
    {
        return false;
    }
    let uses: Vec<ExprId> = u
        .exprs
        .iter()
        .filter(|(_, e)| matches!(e, Expr::Name(x) if *x == f))
        .map(|(id, _)| id)
        .collect();
    let mut ok: HashSet<ExprId> = HashSet::new();
    for (_, e) in u.exprs.iter() {
        match e {
            Expr::Field {
                base, arrow: true, ..
            } if uses.contains(base) => {
                ok.insert(*base);
            }
            Expr::Call { callee, args } => {
                for (i, a) in args.iter().enumerate() {
                    if !uses.contains(&a.value) {
                        continue;
                    }
                    let Some(g) = radtap_il::alloc::called_unit(prog, c, *callee) else {
                        return false;
                    };
                    let Some(&gf) = prog.units[g].params.get(i) else {
                        return false;
                    };
                    if a.keyword.is_some() || !reaches_one_record(prog, g, gf, td, depth + 1) {
                        return false;
                    }
                    ok.insert(a.value);
                }
            }
            _ => {}
        }
    }
    // The statement-level calls.
    for (_, s) in u.stmts.iter() {
        if let StmtKind::Call { callee, args, .. } = &s.kind {
            for (i, a) in args.iter().enumerate() {
                if !uses.contains(&a.value) {
                    continue;
                }
                let Some(g) = radtap_il::alloc::called_unit(prog, c, *callee) else {
                    return false;
                };
                let Some(&gf) = prog.units[g].params.get(i) else {
                    return false;
                };
                if a.keyword.is_some() || !reaches_one_record(prog, g, gf, td, depth + 1) {
                    return false;
                }
                ok.insert(a.value);
            }
        }
    }
    ok.len() == uses.len()
}
