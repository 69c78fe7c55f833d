//! What every adjoint rule uses: refusals and forward-only statements, the zones and base of
//! an assignment's target, whether a statement's code is opaque or jumps, which variables
//! are the unit's own, canonical loops, constant folding of increments, builders of IF and
//! copied statements, names of the runtime.

use crate::*;

impl<'a> Adj<'_, '_, 'a> {
    pub(crate) fn unsupported(&mut self, s: StmtId, what: &str) -> Rev {
        let msg = format!("{what} is not supported in adjoint mode yet");
        self.pg.error(s, Code::Unsupported, &msg);
        Rev::default()
    }

    pub(crate) fn fwd_only(&mut self, s: StmtId) -> Rev {
        Rev {
            fwd: vec![self.pg.copy_stmt(s)],
            bwd: Vec::new(),
        }
    }

    pub(crate) fn t_zones(&self, t: Target) -> Option<ZoneSet> {
        match t {
            Target::Expr(e) => self.pg.g.info.ref_zones(self.pg.prog(), self.pg.f.p, e),
            Target::Sym(s) => self.pg.f.pi.zones.sym_zones(s),
        }
    }

    pub(crate) fn t_in(&self, t: Target, set: &ZoneSet) -> bool {
        self.t_zones(t).is_some_and(|z| z.intersects(set))
    }

    pub(crate) fn t_base(&self, t: Target) -> Option<SymbolId> {
        match t {
            Target::Expr(e) => radtap_dataflow::zones::base_symbol(self.pg.prog(), self.pg.f.p, e),
            Target::Sym(s) => Some(s),
        }
    }

    /// Whether two primal references are the same access path, written alike.
    pub(crate) fn same_src(&self, a: ExprId, b: ExprId) -> bool {
        self.pg.same_src(a, b)
    }

    /// Whether `e` references a procedure that has a derivative version.
    pub(crate) fn has_active_user_call(&self, e: ExprId) -> bool {
        let mut found = false;
        let mut stack = vec![e];
        while let Some(x) = stack.pop() {
            if let Expr::Call { .. } = self.pg.f.src.exprs[x] {
                if self.pg.is_differentiated_call(x) {
                    found = true;
                }
            }
            radtap_il::visit::expr_children(&self.pg.f.src.exprs[x], &mut |k| stack.push(k));
        }
        found
    }

    pub(crate) fn own_local(&self, x: SymbolId) -> bool {
        !self.pg.f.src.params.contains(&x)
            && radtap_dataflow::zones::unit_of_scope(
                self.pg.prog(),
                self.pg.prog().symbols[x].scope,
            ) == Some(self.pg.f.p)
    }

    /// Whether `e` is `malloc(…)`/`calloc(…)` or a call to an allocator
    /// (`radtap_il::alloc`), possibly cast.
    pub(crate) fn is_allocation(&self, e: ExprId) -> bool {
        match &self.pg.f.src.exprs[e] {
            Expr::Cast { arg, .. } | Expr::Paren(arg) => self.is_allocation(*arg),
            Expr::Call { callee, .. } => {
                matches!(self.pg.callee_name(*callee).as_str(), "malloc" | "calloc")
                    || self.pg.allocator_of(e).is_some()
            }
            _ => false,
        }
    }

    /// Turns the `malloc(n)` inside a built derivative allocation into `calloc(1, n)`.
    pub(crate) fn zeroed_allocation(&mut self, d: ExprId) {
        let mut x = d;
        loop {
            match self.pg.u.exprs[x].clone() {
                Expr::Cast { arg, .. } | Expr::Paren(arg) => x = arg,
                Expr::Call { callee, args } => {
                    let is_malloc = matches!(&self.pg.u.exprs[callee], Expr::Name(s) if self.pg.g.out.symbols[*s].spelling == "malloc")
                        || matches!(&self.pg.u.exprs[callee], Expr::Opaque(t) if t == "malloc")
                        || matches!(&self.pg.u.exprs[callee], Expr::Intrinsic(r)
                            if Some(r.id) == vocab::id_of("malloc", Lang::C));
                    if is_malloc && args.len() == 1 {
                        let c = self.pg.b().opaque("calloc");
                        let one = self.pg.b().int(1);
                        let mut a = vec![Arg {
                            keyword: None,
                            value: one,
                        }];
                        a.extend(args);
                        self.pg.u.exprs[x] = Expr::Call { callee: c, args: a };
                    }
                    return;
                }
                _ => return,
            }
        }
    }

    /// `(var, from, to_inclusive_expr, up)` of a simple counted C loop.
    pub(crate) fn canonical_for(
        &self,
        init: Option<StmtId>,
        cond: Option<ExprId>,
        step: Option<ExprId>,
        body: &[StmtId],
    ) -> Option<CanonFor> {
        let src = self.pg.f.src;
        let init = init?;
        let (var, from) = match &src.stmts[init].kind {
            StmtKind::Assign {
                lhs, op: None, rhs, ..
            } => match src.exprs[*lhs] {
                Expr::Name(v) => (v, *rhs),
                _ => return None,
            },
            StmtKind::Expr(e) => match src.exprs[*e] {
                Expr::Assign {
                    op: None, lhs, rhs, ..
                } => match src.exprs[lhs] {
                    Expr::Name(v) => (v, rhs),
                    _ => return None,
                },
                _ => return None,
            },
            // `for (int i = a; …)`
            StmtKind::Decl(Decl::Var(v)) if v.entities.len() == 1 => match v.entities[0].init {
                Some(Init::Expr(x)) if !matches!(src.exprs[x], Expr::ArrayCtor { .. }) => {
                    (v.entities[0].sym, x)
                }
                _ => return None,
            },
            _ => return None,
        };
        // An initial value that calls a differentiated function is a statement of its own
        // (its call is hoisted and differentiated), not a bound.
        if self.has_active_user_call(from) {
            return None;
        }
        let ty = self.pg.prog().symbols[var].ty.as_ref()?;
        if ty.base != BaseClass::Integer || ty.pointers > 0 || !ty.dims.is_empty() {
            return None;
        }
        let up = match src.exprs[step?] {
            Expr::IncDec { inc, arg, .. } if matches!(src.exprs[arg], Expr::Name(v) if v == var) => {
                inc
            }
            Expr::Assign {
                op: Some(op @ (BinOp::Add | BinOp::Sub)),
                lhs,
                rhs,
            } if matches!(src.exprs[lhs], Expr::Name(v) if v == var)
                && self.pg.const_value(rhs) == Some(1.0) =>
            {
                op == BinOp::Add
            }
            _ => return None,
        };
        let (cop, bound) = match src.exprs[cond?] {
            Expr::Binary { op, lhs, rhs } if matches!(src.exprs[lhs], Expr::Name(v) if v == var) => {
                (op, rhs)
            }
            _ => return None,
        };
        let inclusive = match (cop, up) {
            (BinOp::Lt(_), true) | (BinOp::Gt(_), false) => false,
            (BinOp::Le(_), true) | (BinOp::Ge(_), false) => true,
            _ => return None,
        };
        // The body must not write the variable.
        let vz = self.pg.f.pi.zones.sym_zones(var)?;
        let mut inside = HashSet::new();
        subtree(src, body, &mut |x| {
            inside.insert(x);
        });
        for (id, pt) in self.pg.f.pi.point.iter().enumerate() {
            if inside.contains(&pt.stmt) && self.pg.f.pi.effects[id].writes.intersects(&vz) {
                return None;
            }
        }
        let static_ = {
            let reads_ok = |e: ExprId| -> bool {
                let mut ok = true;
                let mut st = vec![e];
                while let Some(x) = st.pop() {
                    if let Expr::Name(v) = src.exprs[x] {
                        if let Some(mut z) = self.pg.f.pi.zones.sym_zones(v) {
                            z.subtract(&self.restored_vars);
                            if z.intersects(&self.written_anywhere) {
                                ok = false;
                            }
                        }
                    }
                    if matches!(
                        src.exprs[x],
                        Expr::Call { .. }
                            | Expr::Unary {
                                op: UnOp::Deref,
                                ..
                            }
                            | Expr::Index { .. }
                            | Expr::Field { .. }
                    ) {
                        ok = false;
                    }
                    radtap_il::visit::expr_children(&src.exprs[x], &mut |k| st.push(k));
                }
                ok
            };
            reads_ok(from) && reads_ok(bound)
        };
        Some(CanonFor {
            var,
            from,
            bound,
            inclusive,
            up,
            static_,
        })
    }

    pub(crate) fn if_stmt(
        &mut self,
        arms: Vec<(ExprId, Vec<StmtId>)>,
        else_block: Option<Vec<StmtId>>,
    ) -> StmtId {
        stmt(
            &mut self.pg.u,
            StmtKind::If {
                arms,
                else_block,
                logical: false,
                braces: Vec::new(),
            },
        )
    }

    pub(crate) fn dup_stmt(&mut self, s: StmtId) -> StmtId {
        let mut st = self.pg.u.stmts[s].clone();
        if let StmtKind::Call { args, .. } = &mut st.kind {
            for a in args.iter_mut() {
                a.value = self.dup(a.value);
            }
        }
        if let StmtKind::Expr(e) = &mut st.kind {
            *e = self.dup(*e);
        }
        let d = self.pg.u.stmts.alloc(st);
        self.note_copy(s, d);
        d
    }

    /// Rank of an expression of the output unit (Fortran).
    pub(crate) fn out_rank(&self, e: ExprId) -> usize {
        match &self.pg.u.exprs[e] {
            Expr::Name(s) => self.pg.g.out.symbols[*s]
                .ty
                .as_ref()
                .map_or(0, |t| t.dims.len()),
            Expr::Index { base, subs } => {
                let r = subs
                    .iter()
                    .filter(|s| matches!(s, Subscript::Range(..)))
                    .count();
                if r > 0 || matches!(self.pg.u.exprs[*base], Expr::Name(_)) {
                    r
                } else {
                    self.out_rank(*base)
                }
            }
            Expr::Paren(a) | Expr::Unary { arg: a, .. } => self.out_rank(*a),
            Expr::Binary { lhs, rhs, .. } => self.out_rank(*lhs).max(self.out_rank(*rhs)),
            Expr::ArrayCtor { .. } if self.pg.f.lang == Lang::Fortran => 1,
            Expr::Call { callee, args } => {
                let id = self.pg.callee_routine(*callee);
                let is = |gs: &[&str]| id.is_some_and(|r| r.is_one_of(gs));
                // `rank` (Fortran 2018) has no record yet: recognised by its name.
                let rank = id.is_none()
                    && match &self.pg.u.exprs[*callee] {
                        Expr::Opaque(n) => n.eq_ignore_ascii_case("rank"),
                        Expr::Name(s) => self.pg.g.out.symbols[*s]
                            .spelling
                            .eq_ignore_ascii_case("rank"),
                        _ => false,
                    };
                let ra = |k: usize| args.get(k).map_or(0, |a| self.out_rank(a.value));
                match () {
                    _ if is(&["transpose"]) => 2,
                    _ if is(&["matmul"]) => (ra(0) + ra(1)).saturating_sub(2).max(1),
                    _ if is(&["sum", "product", "maxval", "minval"]) && args.len() == 1 => 0,
                    _ if is(&["sum", "product", "maxval", "minval"]) && self.mask_second(args) => 0,
                    _ if is(&["sum", "product", "maxval", "minval"]) => ra(0).saturating_sub(1),
                    _ if is(&["count", "norm2", "any", "all"]) && args.len() == 1 => 0,
                    _ if is(&["dot_product", "size"]) => 0,
                    // Inquiries: `ubound(a, 1)` is a scalar (a subscript, not a vector one).
                    _ if is(&["lbound", "ubound"]) && args.len() >= 2 => 0,
                    _ if is(&["lbound", "ubound", "shape"]) => 1,
                    _ if rank => 0,
                    _ if is(&[
                        "len",
                        "kind",
                        "allocated",
                        "associated",
                        "present",
                        "huge",
                        "tiny",
                        "epsilon",
                        "digits",
                        "precision",
                        "range",
                    ]) =>
                    {
                        0
                    }
                    _ if is(&["spread"]) => ra(0) + 1,
                    _ => ra(0),
                }
            }
            _ => 0,
        }
    }

    /// Symbols an expression reads.
    pub(crate) fn names_in(&self, e: ExprId, out: &mut HashSet<SymbolId>) {
        let mut stack = vec![e];
        while let Some(x) = stack.pop() {
            if let Expr::Name(v) = self.pg.f.src.exprs[x] {
                out.insert(v);
            }
            radtap_il::visit::expr_children(&self.pg.f.src.exprs[x], &mut |k| stack.push(k));
        }
    }

    /// The routine an opaque call statement calls (`pushReal8`, `adStack_startRepeat`, …).
    pub(crate) fn runtime_name(&self, s: StmtId) -> Option<&str> {
        let callee = match &self.pg.u.stmts[s].kind {
            StmtKind::Call { callee, .. } => *callee,
            StmtKind::Expr(e) => match &self.pg.u.exprs[*e] {
                Expr::Call { callee, .. } => *callee,
                _ => return None,
            },
            _ => return None,
        };
        match &self.pg.u.exprs[callee] {
            Expr::Opaque(name) => Some(name),
            Expr::Intrinsic(r) => Some(r.spelling),
            _ => None,
        }
    }

    /// Notes the push and pop [`Adj::push_pop`] built for `sl`.
    pub(crate) fn note_record(&mut self, sl: &Slot, push: StmtId, pop: StmtId) {
        let k = self.recs.len() as u32;
        self.recs.push(Rec {
            primal: sl.primal,
            suffix: sl.suffix,
            count: sl.count,
        });
        self.rec_of.insert(push, (k, true));
        self.rec_of.insert(pop, (k, false));
    }

    /// Notes that `d` is a copy of statement `s` (a pop read again, or turned into a look).
    pub(crate) fn note_copy(&mut self, s: StmtId, d: StmtId) {
        if let Some(&r) = self.rec_of.get(&s) {
            self.rec_of.insert(d, r);
        }
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

    /// Whether a VLA bound (`double t[n]`) reads only parameters this function never
    /// assigns nor takes the address of, and locals that are only initialised from such
    /// values at the top level of the body (`int m = 2 * n; double t[m];`): its value is
    /// then the same at the top of the function, where the declaration is hoisted (the
    /// locals replaced by their initialisers, [`Self::fixed_bound`]), at the declaration, and
    /// wherever the array is recorded (the extent of a record is `sizeof` the array).
    pub(crate) fn bound_is_fixed(&self, x: ExprId) -> bool {
        self.bound_is_fixed_at(x, 0)
    }

    /// [`Self::malloc_extent`] of a pointer assigned once outside statements `skip`.
    pub(crate) fn allocated_once(&self, p: SymbolId, skip: &[StmtId]) -> Option<(StmtId, Count)> {
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

    pub(crate) fn bound_is_fixed_at(&self, x: ExprId, depth: u32) -> bool {
        let src = self.pg.f.src;
        let mut names = Vec::new();
        let mut todo = vec![x];
        while let Some(e) = todo.pop() {
            match &src.exprs[e] {
                Expr::Name(n) => names.push(*n),
                // An integer macro (`malloc(N * sizeof(double))`) is a constant.
                Expr::Opaque(m) if self.pg.g.int_macros.contains_key(m) => {}
                Expr::Call { .. } | Expr::Opaque(_) | Expr::Intrinsic(_) => return false,
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

    /// Whether two element counts are written the same.
    pub(crate) fn same_count(&self, a: Count, b: Count) -> bool {
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

    /// A deep copy of an expression of the output unit.
    pub(crate) fn dup(&mut self, e: ExprId) -> ExprId {
        self.pg.dup(e)
    }

    /// A call statement to a runtime routine: `call pushreal8(x)` / `pushReal8(x);`.
    pub(crate) fn rt(&mut self, c_name: &str, args: Vec<ExprId>) -> StmtId {
        match self.pg.f.lang {
            Lang::Fortran => {
                let callee = self.pg.b().opaque(&c_name.to_ascii_lowercase());
                let args = args
                    .into_iter()
                    .map(|value| Arg {
                        keyword: None,
                        value,
                    })
                    .collect();
                stmt(
                    &mut self.pg.u,
                    StmtKind::Call {
                        callee,
                        args,
                        no_parens: false,
                    },
                )
            }
            Lang::C => {
                let mut args = args;
                // The runtime's 8-byte integers are `long long`; a C `long` (8 bytes too, the
                // same suffix) is passed by address as `(long long *)&k`, which gcc ≥ 14
                // refuses uncast (incompatible pointer types).
                let by_address = [
                    "popInteger8",
                    "lookInteger8",
                    "pushInteger8Array",
                    "popInteger8Array",
                    "lookInteger8Array",
                ];
                if by_address.contains(&c_name) && !args.is_empty() {
                    args[0] = self.long_long_ptr(args[0]);
                }
                let c = self.pg.b().call(c_name, args);
                stmt(&mut self.pg.u, StmtKind::Expr(c))
            }
        }
    }

    pub(crate) fn addr_of(&mut self, e: ExprId) -> ExprId {
        if let Expr::Unary {
            op: UnOp::Deref,
            arg,
        } = self.pg.u.exprs[e]
        {
            return arg;
        }
        self.pg.b().e(Expr::Unary {
            op: UnOp::AddrOf,
            arg: e,
        })
    }

    /// Whether a reduction's arguments are `(a, mask)`: two, the second a logical mask
    /// (by keyword, or positionally when it is logical rather than a `dim`).
    pub(crate) fn mask_second(&self, args: &[Arg]) -> bool {
        args.len() == 2
            && (args[1]
                .keyword
                .as_deref()
                .is_some_and(|k| k.eq_ignore_ascii_case("mask"))
                || (args[1].keyword.is_none() && self.logical(args[1].value)))
    }

    /// Whether expression `e` of the output unit is LOGICAL (`sum(a, a < 0.5d0)`: a
    /// positional second argument that is logical is the MASK, not DIM).
    pub(crate) fn logical(&self, e: ExprId) -> bool {
        let src = &self.pg.u;
        match &src.exprs[e] {
            Expr::Binary { op, .. } => matches!(
                op,
                BinOp::Eq(_)
                    | BinOp::Ne(_)
                    | BinOp::Lt(_)
                    | BinOp::Le(_)
                    | BinOp::Gt(_)
                    | BinOp::Ge(_)
                    | BinOp::And
                    | BinOp::Or
                    | BinOp::Eqv
                    | BinOp::Neqv
            ),
            Expr::Unary { op: UnOp::Not, .. } => true,
            Expr::Paren(x) => self.logical(*x),
            Expr::Literal(l) => l.kind == LitKind::Logical,
            Expr::Name(_) | Expr::Index { .. } => {
                let mut b = e;
                while let Expr::Index { base, .. } = &src.exprs[b] {
                    b = *base;
                }
                matches!(&src.exprs[b], Expr::Name(x)
                    if self.pg.g.out.symbols[*x].ty.as_ref().is_some_and(|t| t.base == BaseClass::Logical))
            }
            _ => false,
        }
    }

    /// The initialiser of local `n` when its declaration is a top-level statement of the
    /// body and gives it one expression.
    pub(crate) fn local_init(&self, n: SymbolId) -> Option<ExprId> {
        let src = self.pg.f.src;
        src.body.iter().find_map(|&s| match &src.stmts[s].kind {
            StmtKind::Decl(Decl::Var(v)) => v.entities.iter().find_map(|e| match e.init {
                Some(Init::Expr(i)) if e.sym == n => Some(i),
                _ => None,
            }),
            _ => None,
        })
    }

    /// Whether variable `n` is never assigned, stepped, nor has its address taken in this
    /// procedure (its declaration's initialiser aside).
    pub(crate) fn never_changed(&self, n: SymbolId) -> bool {
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

    /// `(long long *)e`.
    pub(crate) fn long_long_ptr(&mut self, e: ExprId) -> ExprId {
        let ty = Box::new(CParam {
            spec: TypeSpec {
                class: BaseClass::Integer,
                keyword: "long long".into(),
                name: None,
                kind: KindSel::Default,
                char_len: None,
                bytes: Some(8),
                qualifiers: Vec::new(),
                inline_def: None,
            },
            name: None,
            derived: vec![DeclOp::Pointer(Vec::new())],
            dims: Vec::new(),
        });
        self.pg.b().e(Expr::Cast { ty, arg: e })
    }

    /// Whether a call in `e` writes memory outside its callee (`side_effect_of`).
    pub(crate) fn calls_with_side_effects(&self, e: ExprId) -> bool {
        let mut todo = vec![e];
        while let Some(x) = todo.pop() {
            if let Expr::Call { .. } = &self.pg.f.src.exprs[x] {
                if let Some(site) = self.pg.expr_call_site(x) {
                    if let Callee::Defined(list) = &site.callee {
                        if list.iter().any(|&c| self.pg.side_effect_of(c).is_some()) {
                            return true;
                        }
                    }
                }
            }
            radtap_il::visit::expr_children(&self.pg.f.src.exprs[x], &mut |k| todo.push(k));
        }
        false
    }

    /// The base variables of the actual arguments through which the calls in `e` may write.
    pub(crate) fn call_written_bases(&self, e: ExprId) -> Vec<SymbolId> {
        let mut out = Vec::new();
        let mut todo = vec![e];
        while let Some(x) = todo.pop() {
            if let Expr::Call { args, .. } = &self.pg.f.src.exprs[x] {
                if let Some(site) = self.pg.expr_call_site(x) {
                    if let Callee::Defined(list) = &site.callee {
                        for &c in list {
                            out.extend(self.pg.written_arg_bases(c, args));
                        }
                    }
                }
            }
            radtap_il::visit::expr_children(&self.pg.f.src.exprs[x], &mut |k| todo.push(k));
        }
        out
    }

    /// A Fortran assignment to a whole allocatable array with a derivative that allocates it
    /// (F2003 allocation on assignment) or may change its shape: the adjoint of a local one
    /// is allocated where the ALLOCATE is, and keeps the first shape. Refused: a local
    /// array no ALLOCATE names (`t = x*2`: `tb` was never allocated, a crash) and a value
    /// built from the array itself by a constructor (`acc = [acc, v]`: the gradient was 0).
    pub(crate) fn reallocating_assignment(&self, lhs: ExprId, rhs: ExprId) -> Option<String> {
        if self.pg.f.lang != Lang::Fortran {
            return None;
        }
        let Expr::Name(v) = self.pg.f.src.exprs[lhs] else {
            return None;
        };
        let sd = &self.pg.prog().symbols[v];
        if !sd.attrs.allocatable || sd.ty.as_ref().is_none_or(|t| t.dims.is_empty()) {
            return None;
        }
        if !self.pg.dvar.contains_key(&v) {
            return None;
        }
        let name = self.pg.name_of(v).to_string();
        let mut grows = false;
        // (node, inside a constructor)
        let mut stack = vec![(rhs, false)];
        while let Some((x, inside)) = stack.pop() {
            let node = &self.pg.f.src.exprs[x];
            grows |= inside && matches!(node, Expr::Name(n) if *n == v);
            let inside = inside || matches!(node, Expr::ArrayCtor { .. });
            radtap_il::visit::expr_children(node, &mut |k| stack.push((k, inside)));
        }
        if grows {
            return Some(format!(
                "an assignment changing the shape of the allocatable `{name}` (an array constructor holding `{name}` itself, whose adjoint keeps the first shape: allocate `{name}` with its final size and fill it element by element)"
            ));
        }
        if self.own_local(v) && self.first_allocation_of(v).is_none() {
            return Some(format!(
                "allocation on assignment of the local allocatable `{name}` (no ALLOCATE names it, so its adjoint would never be allocated: allocate `{name}` before assigning it)"
            ));
        }
        None
    }

    /// The first ALLOCATE statement of this procedure (in source order) naming `v`.
    pub(crate) fn first_allocation_of(&self, v: SymbolId) -> Option<StmtId> {
        self.pg
            .f
            .src
            .stmts
            .iter()
            .find_map(|(id, st)| match &st.kind {
                StmtKind::Memory {
                    op: MemOp::Allocate,
                    items,
                    ..
                } if items.iter().any(|&it| self.memory_item_var(it) == Some(v)) => Some(id),
                _ => None,
            })
    }

    /// Whether statement `s` is inside a loop.
    pub(crate) fn enclosing_loop(&self, s: StmtId) -> bool {
        self.in_loop.contains(&s)
    }

    /// The variable an ALLOCATE/DEALLOCATE item names: `w` of `w` or `w(n)`.
    pub(crate) fn memory_item_var(&self, it: ExprId) -> Option<SymbolId> {
        let base = match &self.pg.f.src.exprs[it] {
            Expr::Index { base, .. } => *base,
            _ => it,
        };
        match self.pg.f.src.exprs[base] {
            Expr::Name(b) => Some(b),
            _ => None,
        }
    }
}

/// A value recorded through [`Adj::push_pop`]; its push and restore statements are in
/// [`Adj::rec_of`].
pub(crate) struct Rec {
    /// The recorded reference (output unit).
    pub(crate) primal: ExprId,
    pub(crate) suffix: &'static str,
    pub(crate) count: Option<ExprId>,
}

/// Where the element count of an allocation is: an expression of this procedure, or of the
/// allocator it calls (over the allocator's parameters, replaced by the call's arguments).
#[derive(Clone, Copy)]
pub(crate) enum Count {
    /// One record: `malloc(sizeof(T))` (an allocator's `Matrix *mat = malloc(sizeof(Matrix))`).
    One,
    Here(ExprId),
    Called {
        unit: UnitId,
        count: ExprId,
        call: ExprId,
    },
}

/// `A` of `malloc(A * sizeof(T))`, `malloc(sizeof(T) * A)`, `calloc(A, sizeof(T))` (under
/// casts, an expression of `u`), with `T` the pointee type of `ty` (or `sizeof *w` of a
/// pointer `w` to `T`).
pub(crate) fn alloc_count(prog: &Program, u: &UnitData, rhs: ExprId, ty: &Type) -> Option<ExprId> {
    let strip = |mut e: ExprId| loop {
        match &u.exprs[e] {
            Expr::Paren(a) | Expr::Cast { arg: a, .. } => e = *a,
            _ => return e,
        }
    };
    let Expr::Call { callee, args } = &u.exprs[strip(rhs)] else {
        return None;
    };
    let Expr::Name(f) = u.exprs[*callee] else {
        return None;
    };
    let elem = |e: ExprId| match &u.exprs[strip(e)] {
        Expr::SizeofType(cp) => {
            cp.derived.is_empty()
                && cp.dims.is_empty()
                // A typedef name may be an array type (`sizeof(vec3)`); records are whole.
                && (cp.spec.c_keywords_only() || matches!(cp.spec.class, BaseClass::Record(_)))
                && cp.spec.class == ty.base
                && cp.spec.bytes == ty.bytes
        }
        // `sizeof *w` or `sizeof w[0]` of a pointer `w` to the same type (`double *w =
        // malloc(n * sizeof *w)`).
        Expr::Unary {
            op: UnOp::Sizeof,
            arg,
        } => {
            let p = match &u.exprs[strip(*arg)] {
                Expr::Unary {
                    op: UnOp::Deref,
                    arg: p,
                } => *p,
                Expr::Index { base, subs } if subs.len() == 1 => *base,
                _ => return false,
            };
            matches!(u.exprs[strip(p)], Expr::Name(v) if prog.symbols[v].ty.as_ref().is_some_and(|t| {
                t.pointers == 1 && t.dims.is_empty() && t.base == ty.base && t.bytes == ty.bytes
            }))
        }
        _ => false,
    };
    match (prog.name(f), &args[..]) {
        ("malloc", [a]) => match &u.exprs[strip(a.value)] {
            Expr::Binary {
                op: BinOp::Mul,
                lhs,
                rhs,
            } if elem(*rhs) => Some(*lhs),
            Expr::Binary {
                op: BinOp::Mul,
                lhs,
                rhs,
            } if elem(*lhs) => Some(*rhs),
            _ => None,
        },
        ("calloc", [a, b]) if elem(b.value) => Some(a.value),
        _ => None,
    }
}

/// Whether `rhs` is `malloc(sizeof(T))` or `calloc(1, sizeof(T))` (under casts) of the
/// record type `T` that `ty` points to.
pub(crate) fn one_record(prog: &Program, u: &UnitData, rhs: ExprId, ty: &Type) -> bool {
    let strip = |mut e: ExprId| loop {
        match &u.exprs[e] {
            Expr::Paren(a) | Expr::Cast { arg: a, .. } => e = *a,
            _ => return e,
        }
    };
    if !matches!(ty.base, BaseClass::Record(_)) || ty.pointers != 1 {
        return false;
    }
    let Expr::Call { callee, args } = &u.exprs[strip(rhs)] else {
        return false;
    };
    let Expr::Name(f) = u.exprs[*callee] else {
        return false;
    };
    let rec = |e: ExprId| {
        matches!(&u.exprs[strip(e)], Expr::SizeofType(cp)
            if cp.derived.is_empty() && cp.dims.is_empty() && cp.spec.class == ty.base)
    };
    let one = |e: ExprId| matches!(&u.exprs[strip(e)], Expr::Literal(l) if l.text == "1");
    match (prog.name(f), &args[..]) {
        ("malloc", [a]) => rec(a.value),
        ("calloc", [n, a]) => one(n.value) && rec(a.value),
        _ => false,
    }
}
