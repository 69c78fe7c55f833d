//! Derivative references: the same access path on the derivative variable (with the
//! direction index in vector mode), derivative pointers.

use super::*;

impl<'a> ProcGen<'_, 'a> {
    /// The derivative of a reference: the same access path on the derivative variable, with
    /// the direction index in vector mode.
    pub fn dref(&mut self, e: ExprId, dir: Dir) -> Option<ExprId> {
        // C: the row of all directions is the derivative object itself (`xd[i]`).
        let dir = if self.f.lang == Lang::C && dir == Dir::All {
            Dir::Omit
        } else {
            dir
        };
        let src = self.f.src;
        match &src.exprs[e] {
            Expr::Name(s) => {
                let ds = *self.dvar.get(s)?;
                let n = self.b().name(ds);
                if !self.f.vector || dir == Dir::Omit {
                    return Some(n);
                }
                let ty = self.prog().symbols[*s].ty.clone();
                let rank = ty.as_ref().map_or(0, |t| t.dims.len());
                let ptrs = ty.as_ref().map_or(0, |t| t.pointers);
                match self.f.lang {
                    Lang::Fortran => {
                        let mut subs = vec![self.dir_sub(dir)];
                        for _ in 0..rank {
                            subs.push(Subscript::Range(None, None, None));
                        }
                        Some(self.b().index(n, subs))
                    }
                    Lang::C => {
                        let record = ty
                            .as_ref()
                            .is_some_and(|t| matches!(t.base, BaseClass::Record(_)));
                        if rank + ptrs as usize == 0 && !record {
                            let d = self.dir_sub(dir);
                            Some(self.b().index(n, vec![d]))
                        } else {
                            Some(n)
                        }
                    }
                }
            }
            Expr::Index { base, subs } => {
                match self.f.lang {
                    Lang::Fortran => {
                        if let Expr::Name(s) = src.exprs[*base] {
                            let ds = *self.dvar.get(&s)?;
                            let n = self.b().name(ds);
                            let mut subs2 = Vec::new();
                            if self.f.vector && dir != Dir::Omit {
                                subs2.push(self.dir_sub(dir));
                            }
                            for sub in subs {
                                subs2.push(self.cp_sub(sub));
                            }
                            Some(self.b().index(n, subs2))
                        } else {
                            let b = self.dref(*base, dir)?;
                            let subs2 = subs.iter().map(|x| self.cp_sub(x)).collect();
                            Some(self.b().index(b, subs2))
                        }
                    }
                    Lang::C => {
                        // Peel the subscripts down to the variable.
                        // Parentheses are no part of the path: `(p)[i]`, `((a)[i])[j]`.
                        let mut chain = Vec::new();
                        let mut cur = e;
                        loop {
                            match &src.exprs[cur] {
                                Expr::Index { base, subs } => {
                                    chain.push(subs.clone());
                                    cur = *base;
                                }
                                Expr::Paren(a) => cur = *a,
                                _ => break,
                            }
                        }
                        let inner = match &src.exprs[cur] {
                            // `(p + 1)[i]`, `((double *)q)[i]`: the same address in the
                            // derivative memory, where one subscript reaches an element.
                            Expr::Binary { .. } | Expr::Cast { .. } | Expr::Call { .. } => {
                                let d = self.dptr(cur)?;
                                (self.b().e(Expr::Paren(d)), 1)
                            }
                            Expr::Name(s) => {
                                let ds = *self.dvar.get(s)?;
                                let ty = self.prog().symbols[*s].ty.clone();
                                let er = ty
                                    .as_ref()
                                    .map_or(0, |t| t.dims.len() + t.pointers as usize);
                                (self.b().name(ds), er)
                            }
                            // `s.f[i]`, `p->data[k]`, `(*p)[i]`: the object's own derivative
                            // path; the direction goes at the real leaf (a record holds its
                            // directions at its leaves).
                            _ => {
                                let er = self.c_ref_levels(cur).map_or(usize::MAX, |(_, l)| l);
                                (self.dref(cur, Dir::Omit)?, er)
                            }
                        };
                        let (mut x, er) = inner;
                        for subs in chain.iter().rev() {
                            let subs2 = subs.iter().map(|s| self.cp_sub(s)).collect();
                            x = self.b().index(x, subs2);
                        }
                        // No direction on a record element: its directions are at its leaves.
                        let record = self.c_ref_levels(e).is_some_and(|(real, _)| !real);
                        if self.f.vector && dir != Dir::Omit && chain.len() == er && !record {
                            let d = self.dir_sub(dir);
                            x = self.b().index(x, vec![d]);
                        }
                        Some(x)
                    }
                }
            }
            Expr::Field { base, field, arrow } => {
                // Components never active have no place in the derivative type.
                if let Some(td) = self.record_of(*base) {
                    let active = self.g.active_fields.get(&td).is_some_and(|a| {
                        a.iter().any(|f| match self.f.lang {
                            Lang::C => f == field,
                            Lang::Fortran => f.eq_ignore_ascii_case(field),
                        })
                    });
                    if !active {
                        return None;
                    }
                }
                if self.f.lang == Lang::C {
                    // One derivative record for all directions: `pd->x[nd]`, `sd.v[i][nd]`
                    // (the direction goes at the real leaf).
                    let b = if *arrow {
                        self.dptr(*base)?
                    } else {
                        self.dref(*base, Dir::Omit)?
                    };
                    let mut x = self.b().e(Expr::Field {
                        base: b,
                        field: field.clone(),
                        arrow: *arrow,
                    });
                    if self.f.vector && dir != Dir::Omit && self.c_ref_levels(e) == Some((true, 0))
                    {
                        let ds = self.dir_sub(dir);
                        x = self.b().index(x, vec![ds]);
                    }
                    return Some(x);
                }
                let b = if *arrow {
                    self.dptr(*base)?
                } else {
                    self.dref(*base, dir)?
                };
                Some(self.b().e(Expr::Field {
                    base: b,
                    field: field.clone(),
                    arrow: *arrow,
                }))
            }
            Expr::Unary {
                op: UnOp::Deref,
                arg,
            } => {
                let p = self.dptr(*arg)?;
                let d = self.b().e(Expr::Unary {
                    op: UnOp::Deref,
                    arg: p,
                });
                // `*p` of a record pointer: the one derivative record, `*pd`.
                let record = self.c_ref_levels(e).is_some_and(|(real, _)| !real);
                if self.f.vector && dir != Dir::Omit && !record {
                    let d = self.b().e(Expr::Paren(d));
                    let ds = self.dir_sub(dir);
                    Some(self.b().index(d, vec![ds]))
                } else {
                    Some(d)
                }
            }
            Expr::Paren(a) => {
                let d = self.dref(*a, dir)?;
                Some(self.b().e(Expr::Paren(d)))
            }
            _ => None,
        }
    }

    /// C: the class of what primal reference `e` designates: whether its base type is real
    /// (or complex; otherwise a record or else) and how many subscripts or dereferences remain
    /// to reach its base type (`p->data` → 1, `p->data[k]` → 0, `*m` → 0). `None` when
    /// unknown.
    pub fn c_ref_levels(&self, e: ExprId) -> Option<(bool, usize)> {
        let of_ty = |t: &Type| {
            (
                matches!(t.base, BaseClass::Real | BaseClass::Complex),
                t.dims.len() + t.pointers as usize,
            )
        };
        match &self.f.src.exprs[e] {
            Expr::Name(s) => self.prog().symbols[*s].ty.as_ref().map(of_ty),
            Expr::Paren(a) => self.c_ref_levels(*a),
            Expr::Index { base, subs } => {
                let (r, l) = self.c_ref_levels(*base)?;
                Some((r, l.checked_sub(subs.len())?))
            }
            Expr::Unary {
                op: UnOp::Deref,
                arg,
            } => {
                let (r, l) = self.c_ref_levels(*arg)?;
                Some((r, l.checked_sub(1)?))
            }
            Expr::Unary {
                op: UnOp::AddrOf,
                arg,
            } => {
                let (r, l) = self.c_ref_levels(*arg)?;
                Some((r, l + 1))
            }
            Expr::Field { .. } => {
                let f = self.field_symbol(e)?;
                self.prog().symbols[f].ty.as_ref().map(of_ty)
            }
            Expr::Binary {
                op: BinOp::Add | BinOp::Sub,
                lhs,
                rhs,
            } => match self.c_ref_levels(*lhs) {
                Some((r, l)) if l > 0 => Some((r, l)),
                _ => self.c_ref_levels(*rhs).filter(|&(_, l)| l > 0),
            },
            _ => None,
        }
    }

    /// The active real leaves of record type `td`: component paths, their bytes, and whether
    /// each is an array.
    pub fn real_leaves(&self, td: TypeDefId) -> Vec<(Vec<String>, u32, bool)> {
        let mut out = Vec::new();
        self.real_leaves_under(td, &mut Vec::new(), &mut out, 0);
        out
    }

    fn real_leaves_under(
        &self,
        td: TypeDefId,
        path: &mut Vec<String>,
        out: &mut Vec<(Vec<String>, u32, bool)>,
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
                    BaseClass::Real => {
                        out.push((path.clone(), t.bytes.unwrap_or(4), !t.dims.is_empty()))
                    }
                    BaseClass::Record(inner) => self.real_leaves_under(inner, path, out, depth + 1),
                    _ => {}
                }
                path.pop();
            }
        }
    }

    /// A deep copy of an expression of the output unit.
    pub fn dup(&mut self, e: ExprId) -> ExprId {
        let mut node = self.u.exprs[e].clone();
        radtap_il::copy::expr_slots(&mut node, &mut |slot| *slot = self.dup(*slot));
        self.u.exprs.alloc(node)
    }

    /// `d%p = 0` for every active real leaf `p` of record type `td`, `d` a derivative
    /// reference of the output unit (a record derivative cannot be set to zero whole: a
    /// scalar assigned to it does not compile). A Fortran component that is an array of
    /// records is zeroed element by element in a loop nest (`d%nodes%x = 0` is no Fortran
    /// when `x` is an array too).
    pub fn zero_record_leaves(&mut self, d: ExprId, td: TypeDefId) -> Vec<StmtId> {
        if self.f.lang == Lang::C {
            // Zeroed whole, `sd = (struct S_d){0};`: an array member takes no scalar
            // (`sd.v = 0.0` did not compile), nor does any real member in vector mode,
            // where the record holds every direction at its leaves (`double x[NBDirsMax]`).
            let (_, n) = self.g.derivative_type(td);
            let z = self.b().opaque(&format!("(struct {n}){{0}}"));
            return vec![assign(&mut self.u, d, z)];
        }
        self.zero_leaves_under(d, td, 0)
    }

    fn zero_leaves_under(&mut self, d: ExprId, td: TypeDefId, depth: u32) -> Vec<StmtId> {
        let mut out = Vec::new();
        if depth > 8 {
            return out;
        }
        let Some(active) = self.g.active_fields.get(&td).cloned() else {
            return out;
        };
        let prog = self.prog();
        for f in &prog.typedefs[td].fields {
            let Decl::Var(v) = f else { continue };
            for e in &v.entities {
                let name = prog.symbols[e.sym].spelling.clone();
                if !active.iter().any(|x| x.eq_ignore_ascii_case(&name)) {
                    continue;
                }
                let Some(t) = prog.symbols[e.sym].ty.as_ref() else {
                    continue;
                };
                let base = self.dup(d);
                let r = self.b().e(Expr::Field {
                    base,
                    field: name,
                    arrow: false,
                });
                match t.base {
                    BaseClass::Real => {
                        let z = self.b().zero(t.bytes.unwrap_or(4));
                        out.push(assign(&mut self.u, r, z));
                    }
                    BaseClass::Record(inner)
                        if self.f.lang == Lang::Fortran && !t.dims.is_empty() =>
                    {
                        out.push(self.zero_record_array_at(r, t.dims.len(), inner, depth + 1));
                    }
                    BaseClass::Record(inner) => {
                        out.extend(self.zero_leaves_under(r, inner, depth + 1))
                    }
                    _ => {}
                }
            }
        }
        out
    }

    /// Fortran: [`Self::zero_record_leaves`] of every element of `a`, an array of records of
    /// type `td` and rank `rank` (a derivative reference of the output unit), in one loop
    /// nest over its bounds: `ab%x = 0` is no Fortran when the component `x` is an array too.
    pub fn zero_record_array_leaves(&mut self, a: ExprId, rank: usize, td: TypeDefId) -> StmtId {
        self.zero_record_array_at(a, rank, td, 0)
    }

    fn zero_record_array_at(
        &mut self,
        a: ExprId,
        rank: usize,
        td: TypeDefId,
        depth: u32,
    ) -> StmtId {
        let counters: Vec<SymbolId> = (0..rank).map(|_| self.temp("i", TempKind::Int)).collect();
        let subs = counters
            .iter()
            .map(|&i| Subscript::Index(self.b().name(i)))
            .collect();
        let base = self.dup(a);
        let elem = self.b().index(base, subs);
        let mut body = self.zero_leaves_under(elem, td, depth);
        for (k, &i) in counters.iter().enumerate() {
            let bound = |me: &mut Self, f: &str| {
                let (a, dim) = (me.dup(a), me.b().int(k as i64 + 1));
                me.b().call(f, vec![a, dim])
            };
            let (start, end) = (bound(self, "lbound"), bound(self, "ubound"));
            body = vec![self.f_do(i, start, end, body)];
        }
        body[0]
    }

    /// C: whether the target `lhs` stores real data that the derivative code cannot name
    /// (`*pick(y, 0) = …`, `(&y[0])[0] = …`, `1[y] = …`): no derivative reference can be
    /// formed, though the target is not a passive variable (its derivative would be lost
    /// without a word).
    pub fn unreachable_store(&mut self, lhs: ExprId) -> bool {
        if self.f.lang != Lang::C {
            return false;
        }
        let base = radtap_dataflow::zones::base_symbol(self.prog(), self.f.p, lhs);
        if let Some(b) = base {
            let real = self.prog().symbols[b]
                .ty
                .as_ref()
                .is_some_and(|t| matches!(t.base, BaseClass::Real | BaseClass::Record(_)));
            if !real || !self.dvar.contains_key(&b) {
                return false;
            }
            // A plain reference the derivative code names directly.
            if self.plain_reference(lhs) {
                return false;
            }
        }
        self.dref(lhs, Dir::Omit).is_none()
    }

    /// `x`, `x[i]…`, `x.f`, `p->f`, `*p`, `(x)`: a reference the derivative code names by
    /// its variable.
    fn plain_reference(&self, e: ExprId) -> bool {
        match &self.f.src.exprs[e] {
            Expr::Name(_) => true,
            Expr::Paren(a) => self.plain_reference(*a),
            Expr::Index { base, .. } | Expr::Field { base, .. } => self.plain_reference(*base),
            Expr::Unary {
                op: UnOp::Deref,
                arg,
            } => matches!(self.f.src.exprs[*arg], Expr::Name(_)),
            _ => false,
        }
    }

    /// The member symbol a C field reference `s.f` / `p->f` names, when its record type is
    /// known.
    pub fn field_symbol(&self, e: ExprId) -> Option<SymbolId> {
        let Expr::Field { base, field, .. } = &self.f.src.exprs[e] else {
            return None;
        };
        let td = self.record_of(*base)?;
        self.prog().typedefs[td]
            .fields
            .iter()
            .find_map(|f| match f {
                Decl::Var(v) => v
                    .entities
                    .iter()
                    .find(|x| self.prog().symbols[x.sym].spelling == *field)
                    .map(|x| x.sym),
                _ => None,
            })
    }

    /// Whether `e` (parentheses aside) is a C record member of pointer type (not an array
    /// of pointers): `m.data`, `m->data`.
    pub fn field_is_pointer(&self, mut e: ExprId) -> bool {
        while let Expr::Paren(a) = self.f.src.exprs[e] {
            e = a;
        }
        self.field_symbol(e).is_some_and(|f| {
            self.prog().symbols[f]
                .ty
                .as_ref()
                .is_some_and(|t| t.pointers > 0 && t.dims.is_empty())
        })
    }

    /// The derivative of `lhs = rhs` where `lhs` is a C record member of pointer type
    /// ([`Self::field_is_pointer`]): the derivative record's member designates the
    /// derivative memory, `ṁ.data = malloc(…)` for `m.data = malloc(…)` (a shadow block as
    /// large as the primal's; in vector mode with room for every direction, the member being
    /// `double (*data)[NBDirsMax]`), `ṁ->data = q̇` for `m->data = q`. Nothing when the
    /// member is never active; a lost derivative (AD020) when the derivative address is
    /// unknown.
    pub fn field_pointer_twin(&mut self, lhs: ExprId, rhs: ExprId) -> Vec<StmtId> {
        let Some(l) = self.dref(lhs, Dir::Omit) else {
            return vec![];
        };
        let Some(r) = self.dptr(rhs) else {
            self.lost_derivative = true;
            return vec![];
        };
        vec![assign(&mut self.u, l, r)]
    }

    fn dir_sub(&mut self, dir: Dir) -> Subscript {
        match dir {
            Dir::Nd | Dir::Omit => {
                let nd = self.nd_index();
                Subscript::Index(nd)
            }
            Dir::All => Subscript::Range(None, None, None),
            Dir::First => {
                let one = {
                    let v = if self.f.lang == Lang::C { 0 } else { 1 };
                    self.b().int(v)
                };
                Subscript::Index(one)
            }
        }
    }

    pub(crate) fn cp_sub(&mut self, s: &Subscript) -> Subscript {
        match s {
            Subscript::Index(e) => Subscript::Index(self.cp(*e)),
            Subscript::Range(a, b, c) => Subscript::Range(
                a.map(|x| self.cp(x)),
                b.map(|x| self.cp(x)),
                c.map(|x| self.cp(x)),
            ),
        }
    }

    /// The derivative of a C address expression: the same address in the derivative
    /// variables (`x + i` → `xd + i`, `&a[i]` → `&ad[i]`), or `None` when it designates
    /// memory without derivatives.
    pub fn dptr(&mut self, e: ExprId) -> Option<ExprId> {
        let src = self.f.src;
        match &src.exprs[e] {
            Expr::Name(s) => {
                let ds = *self.dvar.get(s)?;
                Some(self.b().name(ds))
            }
            Expr::Binary {
                op: op @ (BinOp::Add | BinOp::Sub),
                lhs,
                rhs,
            } => {
                if let Some(d) = self.dptr(*lhs) {
                    let r = self.cp(*rhs);
                    Some(self.b().bin(*op, d, r))
                } else if *op == BinOp::Add {
                    let d = self.dptr(*rhs)?;
                    let l = self.cp(*lhs);
                    Some(self.b().bin(BinOp::Add, l, d))
                } else {
                    None
                }
            }
            Expr::Unary {
                op: UnOp::AddrOf,
                arg,
            } => {
                let d = self.dref(*arg, Dir::Omit)?;
                Some(self.b().e(Expr::Unary {
                    op: UnOp::AddrOf,
                    arg: d,
                }))
            }
            Expr::Paren(a) => {
                let d = self.dptr(*a)?;
                Some(self.b().e(Expr::Paren(d)))
            }
            Expr::Cast { ty, arg } if !self.f.vector => {
                let d = self.dptr(*arg)?;
                let mut ty = Copier { src }.cparam(&mut self.u, ty);
                // Derivatives are written through the pointer: never to const.
                ty.spec.qualifiers.retain(|q| q != "const");
                // `(Particle *)malloc(…)`: the derivative block holds derivative records.
                if let BaseClass::Record(td) = ty.spec.class {
                    let (_, n) = self.g.derivative_type(td);
                    ty.spec.keyword = "struct".into();
                    ty.spec.name = Some(n);
                    ty.spec.inline_def = None;
                }
                Some(self.b().e(Expr::Cast {
                    ty: Box::new(ty),
                    arg: d,
                }))
            }
            Expr::Cast { ty, arg } => {
                let d = self.dptr(*arg)?;
                // `(double *)malloc(…) - 1` (a 1-based work vector): the block for every
                // direction is cast to rows, so arithmetic on it moves by rows, not bytes.
                let mut inner = *arg;
                while let Expr::Paren(a) = self.f.src.exprs[inner] {
                    inner = a;
                }
                let alloc = matches!(&src.exprs[inner], Expr::Call { callee, .. }
                    if matches!(self.callee_name(*callee).as_str(), "malloc" | "calloc"));
                if !alloc || matches!(ty.spec.class, BaseClass::Record(_)) {
                    return Some(d);
                }
                let mut ty = Copier { src }.cparam(&mut self.u, ty);
                ty.spec.qualifiers.retain(|q| q != "const");
                self.c_vector_param(&mut ty);
                Some(self.b().e(Expr::Cast {
                    ty: Box::new(ty),
                    arg: d,
                }))
            }
            Expr::Call { callee, args } => {
                let n = self.callee_name(*callee);
                if !matches!(n.as_str(), "malloc" | "calloc") {
                    return None;
                }
                let mut c = Copier { src }.expr(&mut self.u, e);
                // Zeroed, as every derivative of memory nothing active wrote yet (a local's
                // derivative is declared `= 0`): `malloc(n)` gives `calloc(1, n)`. ADBench's
                // `resize(positions, …); fill(positions, 0.0);` then `+=` into it in a loop
                // read the twin where only the primal had been written (passively): the
                // malloc'ed twin's garbage went into the derivative.
                self.zeroed_allocation(c);
                if self.f.vector {
                    // Room for every direction.
                    if let Expr::Call { args: a2, .. } = &self.u.exprs[c] {
                        let last = a2.last().map(|a| a.value);
                        if let Some(l) = last {
                            let nb = self.b().opaque("NBDirsMax");
                            let l2 = self.paren_if_compound(l);
                            let m = self.b().bin(BinOp::Mul, l2, nb);
                            if let Expr::Call { args: a3, .. } = &mut self.u.exprs[c] {
                                if let Some(x) = a3.last_mut() {
                                    x.value = m;
                                }
                            }
                        }
                    }
                    c = self.b().e(Expr::Paren(c));
                }
                let _ = args;
                Some(c)
            }
            // A null pointer (`double *tmp = NULL;` before a buffer swap): so is its twin.
            Expr::Opaque(t) if t == "NULL" => Some(self.b().opaque("NULL")),
            Expr::Literal(l) if l.kind == LitKind::Int && l.text == "0" => Some(self.b().int(0)),
            Expr::Index { .. }
            | Expr::Field { .. }
            | Expr::Unary {
                op: UnOp::Deref, ..
            } => {
                // A pointer stored in memory (`p->next`, `ptrs[i]`): its derivative twin.
                self.dref(e, Dir::Omit)
            }
            _ => None,
        }
    }

    /// A C derivative parameter gets the direction as its last dimension.
    pub(crate) fn c_vector_param(&mut self, cp: &mut CParam) {
        // Declarator operations are applied innermost-last: `double *x` → `double (*xd)[N]`,
        // `double a[3]` → `double ad[3][N]`, `double s` → `double sd[N]`.
        // A record holds its directions at its real leaves: `struct Matrix_d *md`.
        if matches!(cp.spec.class, BaseClass::Record(_)) {
            return;
        }
        let n = self.u.exprs.alloc(Expr::Opaque("NBDirsMax".into()));
        cp.derived.insert(0, DeclOp::Array(Some(n)));
    }
}
