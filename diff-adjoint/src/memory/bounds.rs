//! Which bounds and element counts of allocations are fixed where the adjoint needs them
//! again (so the backward sweep recomputes them instead of recording them), and C
//! initialisers that fill arrays.

use super::*;

impl<'a> Adj<'_, '_, 'a> {
    /// Whether a VLA bound (`double t[n]`) reads only parameters this function never
    /// assigns nor takes the address of, and locals that are only initialised from such
    /// values at the top level of the body (`int m = 2 * n; double t[m];`): its value is
    /// then the same at the top of the function, where the declaration is hoisted (the
    /// locals replaced by their initialisers, [`Self::fixed_bound`]), at the declaration, and
    /// wherever the array is recorded (the extent of a record is `sizeof` the array).
    pub(crate) fn bound_is_fixed(&self, x: ExprId) -> bool {
        self.bound_is_fixed_at(x, 0)
    }

    fn bound_is_fixed_at(&self, x: ExprId, depth: u32) -> bool {
        let src = self.pg.f.src;
        let mut names = Vec::new();
        let mut todo = vec![x];
        while let Some(e) = todo.pop() {
            match &src.exprs[e] {
                Expr::Name(n) => names.push(*n),
                // An integer macro (`malloc(N * sizeof(double))`) is a constant.
                Expr::Opaque(m) if self.pg.g.int_macros.contains_key(m) => {}
                Expr::Call { .. } | Expr::Opaque(_) => return false,
                other => radtap_il::visit::expr_children(other, &mut |c| todo.push(c)),
            }
        }
        names.iter().all(|&n| {
            if !self.never_changed(n) {
                return false;
            }
            if src.params.contains(&n) {
                return true;
            }
            depth < 8
                && self
                    .local_init(n)
                    .is_some_and(|i| self.bound_is_fixed_at(i, depth + 1))
        })
    }

    /// Whether variable `n` is never assigned, stepped, nor has its address taken in this
    /// procedure (its declaration's initialiser aside).
    fn never_changed(&self, n: SymbolId) -> bool {
        let src = self.pg.f.src;
        let root = |mut e: ExprId| loop {
            match &src.exprs[e] {
                Expr::Paren(a) => e = *a,
                Expr::Name(n) => return Some(*n),
                _ => return None,
            }
        };
        !src.stmts
            .iter()
            .any(|(_, st)| matches!(st.kind, StmtKind::Assign { lhs, .. } if root(lhs) == Some(n)))
            && !src.exprs.iter().any(|(_, e)| match e {
                Expr::Unary {
                    op: UnOp::AddrOf,
                    arg,
                } => root(*arg) == Some(n),
                Expr::Assign { lhs: a, .. } | Expr::IncDec { arg: a, .. } => root(*a) == Some(n),
                _ => false,
            })
    }

    /// The initialiser of local `n` when its declaration is a top-level statement of the
    /// body and gives it one expression.
    fn local_init(&self, n: SymbolId) -> Option<ExprId> {
        let src = self.pg.f.src;
        src.body.iter().find_map(|&s| match &src.stmts[s].kind {
            StmtKind::Decl(Decl::Var(v)) => v.entities.iter().find_map(|e| match e.init {
                Some(Init::Expr(i)) if e.sym == n => Some(i),
                _ => None,
            }),
            _ => None,
        })
    }

    /// Built expression `x` (a VLA bound copied into the output unit) with each local of the
    /// bound replaced by its initialiser ([`Self::bound_is_fixed`]): the hoisted declaration
    /// is evaluated before the locals are set.
    pub(crate) fn fixed_bound(&mut self, x: ExprId) {
        let mut todo = vec![x];
        let mut steps = 0;
        while let Some(y) = todo.pop() {
            steps += 1;
            if steps > 10_000 {
                return;
            }
            if let Expr::Name(n) = self.pg.u.exprs[y] {
                if !self.pg.f.src.params.contains(&n) {
                    if let Some(i) = self.local_init(n) {
                        let c = Copier { src: self.pg.f.src }.expr(&mut self.pg.u, i);
                        self.pg.u.exprs[y] = Expr::Paren(c);
                        todo.push(c);
                    }
                }
                continue;
            }
            radtap_il::visit::expr_children(&self.pg.u.exprs[y], &mut |k| todo.push(k));
        }
    }

    /// [`Self::fixed_bound`] on every dimension of the entities of built declaration `d`.
    pub(crate) fn fixed_bounds_of(&mut self, d: &Decl) {
        let Decl::Var(v) = d else { return };
        let mut dims = Vec::new();
        for e in &v.entities {
            for dd in e.dims.iter().flatten() {
                if let DimUpper::Expr(x) = dd.upper {
                    dims.push(x);
                }
            }
            for op in &e.derived {
                if let DeclOp::Array(Some(x)) = op {
                    dims.push(*x);
                }
            }
        }
        for x in dims {
            self.fixed_bound(x);
        }
    }

    /// The allocation statement and element count of the block a C pointer local of this
    /// procedure designates, when the code shows them: the pointer is assigned once, from
    /// `malloc(A * sizeof(T))`, `malloc(sizeof(T) * A)` or `calloc(A, sizeof(T))` with `T`
    /// its pointee type, or from a call to an allocator (`radtap_il::alloc`) allocating so
    /// (`A` then over the call's arguments), its address is never taken, and `A` reads only
    /// parameters the procedure never changes (so `p[0 .. A)` is the whole block wherever it
    /// is recorded). A member of a rotation group (`radtap_dataflow::rotation`: `tmp = u;
    /// u = unew; unew = tmp;`) is assigned by its rotations too: it designates one of the
    /// group's blocks, all of which must have the same count.
    pub(crate) fn malloc_extent(&self, p: SymbolId) -> Option<(StmtId, Count)> {
        let rotations = &self.pg.f.pi.zones.rotations;
        let Some(r) = rotations.iter().find(|r| r.has(p)) else {
            return self.allocated_once(p, &[]);
        };
        let own = self.allocated_once(p, &r.swaps)?;
        r.members
            .iter()
            .all(|&(m, _)| {
                self.allocated_once(m, &r.swaps)
                    .is_some_and(|(_, c)| self.same_count(c, own.1))
            })
            .then_some(own)
    }

    /// Whether two element counts are written the same.
    fn same_count(&self, a: Count, b: Count) -> bool {
        match (a, b) {
            (Count::One, Count::One) => true,
            (Count::Here(x), Count::Here(y)) => self.pg.same_src(x, y),
            (
                Count::Called {
                    unit: ua,
                    count: ca,
                    call: xa,
                },
                Count::Called {
                    unit: ub,
                    count: cb,
                    call: xb,
                },
            ) => ua == ub && ca == cb && self.pg.same_src(xa, xb),
            _ => false,
        }
    }

    /// [`Self::malloc_extent`] of a pointer assigned once outside statements `skip`.
    fn allocated_once(&self, p: SymbolId, skip: &[StmtId]) -> Option<(StmtId, Count)> {
        let src = self.pg.f.src;
        let prog = self.pg.prog();
        if src.params.contains(&p) {
            return None;
        }
        let ty = prog.symbols[p].ty.as_ref()?;
        if ty.pointers != 1 || !ty.dims.is_empty() {
            return None;
        }
        let strip = |mut e: ExprId| loop {
            match &src.exprs[e] {
                Expr::Paren(a) | Expr::Cast { arg: a, .. } => e = *a,
                _ => return e,
            }
        };
        let is_p = |e: ExprId| matches!(src.exprs[strip(e)], Expr::Name(n) if n == p);
        if src.exprs.iter().any(|(_, e)| match e {
            Expr::Unary {
                op: UnOp::AddrOf,
                arg,
            } => is_p(*arg),
            Expr::Assign { lhs, .. } => is_p(*lhs),
            _ => false,
        }) {
            return None;
        }
        let mut sets = Vec::new();
        for (sid, st) in src.stmts.iter().filter(|(sid, _)| !skip.contains(sid)) {
            match &st.kind {
                StmtKind::Assign { lhs, rhs, .. } | StmtKind::PointerAssign { lhs, rhs }
                    if is_p(*lhs) =>
                {
                    sets.push((sid, *rhs))
                }
                StmtKind::Decl(Decl::Var(v)) => {
                    for e in &v.entities {
                        if e.sym == p {
                            if let Some(Init::Expr(i)) = e.init {
                                sets.push((sid, i));
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        let [(sid, rhs)] = sets[..] else {
            return None;
        };
        if let Some((a, al)) = self.pg.allocator_of(rhs) {
            // The allocator's count, over its parameters: the call's arguments must not
            // change either.
            let Expr::Call { args, .. } = &src.exprs[strip(rhs)] else {
                return None;
            };
            // One record (`get_new_matrix(3, 3)`): its pointer members' blocks are recorded
            // by their counts from the record's members (`records.rs`, `heap_member_slot`).
            if one_record(prog, &prog.units[a], al.block, ty) {
                return Some((sid, Count::One));
            }
            let count = alloc_count(prog, &prog.units[a], al.block, ty)?;
            return args
                .iter()
                .all(|x| self.bound_is_fixed(x.value))
                .then_some((
                    sid,
                    Count::Called {
                        unit: a,
                        count,
                        call: rhs,
                    },
                ));
        }
        let count = alloc_count(prog, src, rhs, ty)?;
        self.bound_is_fixed(count)
            .then_some((sid, Count::Here(count)))
    }

    /// The element count [`Self::malloc_extent`] found, built in the output unit.
    pub(crate) fn count_expr(&mut self, c: Count) -> Option<ExprId> {
        let n = match c {
            Count::One => self.pg.b().int(1),
            Count::Here(n) => Copier { src: self.pg.f.src }.expr(&mut self.pg.u, n),
            Count::Called { unit, count, call } => {
                self.pg.allocator_expr(unit, count, call, None)?
            }
        };
        Some(self.pg.paren_if_compound(n))
    }

    /// A C declaration: moved to the top of the function (its block may be left and
    /// re-entered by the backward sweep), its initialisers becoming assignments.
    /// Every leaf of brace initialiser `e` is a constant.
    pub(crate) fn constant_braces(&self, e: ExprId) -> bool {
        match &self.pg.f.src.exprs[e] {
            Expr::ArrayCtor { items, .. } => items.iter().all(|&i| self.constant_braces(i)),
            Expr::Designated { value, .. } => self.constant_braces(*value),
            _ => self.pg.const_value(e).is_some(),
        }
    }

    /// Whether initialiser `x` of entity `e` is a string literal filling a `char` array.
    pub(crate) fn string_into_array(&self, x: ExprId, e: &Entity) -> bool {
        matches!(&self.pg.f.src.exprs[x], Expr::Literal(l) if l.kind == LitKind::Str)
            && e.derived.iter().any(|op| matches!(op, DeclOp::Array(_)))
    }
}
