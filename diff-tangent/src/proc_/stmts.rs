//! Tangent statement rules: the statement dispatch, assignments (`v̇ = Σ ∂e/∂xᵢ·ẋᵢ`),
//! vector-mode direction loops, hoisted function references (shared sub-expressions:
//! `sharing.rs`).

use super::*;

// ---------------------------------------------------------------------- statements

impl<'a> ProcGen<'_, 'a> {
    pub fn prog(&self) -> &'a Program {
        self.g.prog
    }

    /// Whether two primal references are the same access path, written alike.
    pub fn same_src(&self, a: ExprId, b: ExprId) -> bool {
        radtap_il::visit::same_expr(self.src, a, b)
    }

    pub fn pid(&self, s: StmtId) -> Option<usize> {
        self.pi.point_id(Point {
            stmt: s,
            part: Part::Whole,
        })
    }

    pub fn copy_stmt(&mut self, s: StmtId) -> StmtId {
        Copier { src: self.src }.stmt(&mut self.u, s)
    }

    pub fn b(&mut self) -> B<'_> {
        B {
            u: &mut self.u,
            lang: self.lang,
        }
    }

    /// The derivative of a block, with adjacent direction loops merged; its `$AD
    /// DO-NOT-DIFF` regions are primal code with zero derivatives out (`nodiff.rs`).
    pub(crate) fn block(&mut self, b: &[StmtId]) -> Block {
        use radtap_il::directives::{block_regions, RegionKind};
        let (regions, _) = block_regions(&self.src.stmts, b);
        let mut out = Vec::new();
        let mut k = 0;
        while k < b.len() {
            let nodiff = regions
                .iter()
                .filter(|r| r.kind == RegionKind::DoNotDiff && r.start == k)
                .map(|r| r.end)
                .max();
            if let Some(end) = nodiff {
                let stmts = &b[k..end];
                match self.region_refusal(stmts, &DirectiveKind::DoNotDiff) {
                    Some((s, what)) => {
                        let msg = format!("{what} is not supported");
                        self.error(s, Code::Unsupported, &msg);
                    }
                    None => out.extend(self.nodiff_block(stmts).0),
                }
                k = end;
                continue;
            }
            let v = self.stmt(b[k]);
            out.extend(v);
            k += 1;
        }
        self.merge_dir_loops(out)
    }

    fn merge_dir_loops(&mut self, b: Block) -> Block {
        let mut out: Block = Vec::new();
        for s in b {
            if let Some(&last) = out.last() {
                if self.dir_loops.contains(&last) && self.dir_loops.contains(&s) {
                    let body = match &self.u.stmts[s].kind {
                        StmtKind::Do { body, .. } | StmtKind::CFor { body, .. } => body.clone(),
                        _ => Vec::new(),
                    };
                    match &mut self.u.stmts[last].kind {
                        StmtKind::Do { body: lb, .. } | StmtKind::CFor { body: lb, .. } => {
                            lb.extend(body)
                        }
                        _ => {}
                    }
                    continue;
                }
            }
            out.push(s);
        }
        out
    }

    /// Wraps derivative statements in a loop over directions (vector mode), after the
    /// partials computed for them.
    pub(crate) fn dir(&mut self, stmts: Vec<StmtId>) -> Vec<StmtId> {
        let mut out = std::mem::take(&mut self.pre);
        if !self.vector || stmts.is_empty() || self.deriv_only {
            out.extend(stmts);
            return out;
        }
        let (nd, nb) = (self.nd.expect("vector"), self.nbdirs.expect("vector"));
        let lp = match self.lang {
            Lang::Fortran => {
                let start = self.b().int(1);
                let end = self.b().name(nb);
                self.f_do(nd, start, end, stmts)
            }
            Lang::C => {
                let n = self.b().name(nb);
                self.c_count_loop(nd, n, stmts, true)
            }
        };
        self.dir_loops.insert(lp);
        out.push(lp);
        out
    }

    /// The statements replacing `s` ([`Self::stmt_rule`]), each carrying the span of `s`
    /// unless a statement inside it gave it its own: the unparser maps every generated line
    /// back to the primal line it comes from (`-html`, the web page).
    pub(crate) fn stmt(&mut self, s: StmtId) -> Vec<StmtId> {
        let out = self.stmt_rule(s);
        if self.src.stmts[s].omp.is_some() && !self.adjoint {
            self.tangent_omp(s, &out);
        }
        if let Some(sp) = self.src.source_map.stmt.get(s).copied() {
            for &n in &out {
                if self.u.source_map.stmt.get(n).is_none() {
                    self.u.source_map.stmt.insert(n, sp);
                }
            }
        }
        out
    }

    /// The rule of each statement kind. Returns the statements replacing `s`: derivative
    /// statements first, then the primal one; a label moves to the first.
    fn stmt_rule(&mut self, s: StmtId) -> Vec<StmtId> {
        let st: &'a Stmt = &self.src.stmts[s];
        if self.check_expr_effects(s) {
            return vec![self.copy_stmt(s)];
        }
        let out = match &st.kind {
            StmtKind::Assign { lhs, op, rhs } => self.assign_rule(s, *lhs, *op, *rhs),
            StmtKind::PointerAssign { lhs, rhs } => {
                let mut out = vec![self.copy_stmt(s)];
                if let (Some(dl), Some(dr)) =
                    (self.dref(*lhs, Dir::Omit), self.dref(*rhs, Dir::All))
                {
                    out.push(stmt(
                        &mut self.u,
                        StmtKind::PointerAssign { lhs: dl, rhs: dr },
                    ));
                }
                out
            }
            StmtKind::Call { callee, args, .. } => self.call_rule(s, *callee, args),
            StmtKind::Expr(e) => {
                self.check_side_effects(s);
                let mut out = vec![self.copy_stmt(s)];
                if let Some(m) = self.pointer_mirror(*e) {
                    out.push(stmt(&mut self.u, StmtKind::Expr(m)));
                }
                out
            }
            StmtKind::If {
                arms,
                else_block,
                logical,
                braces,
            } => {
                let mut new_arms = Vec::new();
                let mut single = true;
                for (c, b) in arms {
                    let c2 = self.cp(*c);
                    let b2 = self.block(b);
                    single &= b2.len() == 1;
                    new_arms.push((c2, b2));
                }
                let else2 = else_block.as_ref().map(|b| self.block(b));
                vec![self.new_like(
                    st,
                    StmtKind::If {
                        arms: new_arms,
                        else_block: else2,
                        logical: *logical && single,
                        braces: braces.clone(),
                    },
                )]
            }
            StmtKind::Do {
                var,
                start,
                end,
                step,
                body,
                term_label: _,
            } => {
                let (var, start, end) = (self.cp(*var), self.cp(*start), self.cp(*end));
                let step = step.map(|x| self.cp(x));
                let body = self.block(body);
                // Labelled DOs become DO … END DO: derivative statements may follow the
                // terminal statement.
                vec![self.new_like(
                    st,
                    StmtKind::Do {
                        var,
                        start,
                        end,
                        step,
                        body,
                        term_label: None,
                    },
                )]
            }
            StmtKind::While { cond, body, .. } => {
                let cond = self.cp(*cond);
                let body = self.block(body);
                vec![self.new_like(
                    st,
                    StmtKind::While {
                        cond,
                        body,
                        term_label: None,
                    },
                )]
            }
            StmtKind::Loop { body } => {
                let body = self.block(body);
                vec![self.new_like(st, StmtKind::Loop { body })]
            }
            StmtKind::CFor {
                init,
                cond,
                step,
                body,
                braced,
            } => {
                // An initialisation with derivative statements runs before the loop.
                let mut before = init.map(|i| self.stmt(i)).unwrap_or_default();
                let init = if before.len() == 1 {
                    before.pop()
                } else {
                    None
                };
                let cond = cond.map(|c| self.cp(c));
                let step = step.map(|c| {
                    let c2 = self.cp(c);
                    match self.pointer_mirror(c) {
                        Some(m) => self.b().e(Expr::Comma(vec![c2, m])),
                        None => c2,
                    }
                });
                let body = self.block(body);
                before.push(self.new_like(
                    st,
                    StmtKind::CFor {
                        init,
                        cond,
                        step,
                        body,
                        braced: *braced,
                    },
                ));
                before
            }
            StmtKind::DoWhile { body, cond } => {
                let body = self.block(body);
                let cond = self.cp(*cond);
                vec![self.new_like(st, StmtKind::DoWhile { body, cond })]
            }
            StmtKind::Select { selector, cases } => {
                let selector = self.cp(*selector);
                let mut cs = Vec::new();
                for c in cases {
                    let values = c
                        .values
                        .iter()
                        .map(|v| match v {
                            CaseValue::Value(e) => CaseValue::Value(self.cp(*e)),
                            CaseValue::Range(a, b) => {
                                CaseValue::Range(a.map(|x| self.cp(x)), b.map(|x| self.cp(x)))
                            }
                        })
                        .collect();
                    let body = self.block(&c.body);
                    cs.push(Case { values, body });
                }
                vec![self.new_like(
                    st,
                    StmtKind::Select {
                        selector,
                        cases: cs,
                    },
                )]
            }
            StmtKind::Switch { expr, body } => {
                let expr = self.cp(*expr);
                let body = self.block(body);
                vec![self.new_like(st, StmtKind::Switch { expr, body })]
            }
            StmtKind::Where {
                arms,
                else_block,
                single,
            } => self.where_rule(s, arms, else_block.as_ref(), *single),
            StmtKind::Forall {
                specs,
                mask,
                body,
                single,
            } => self.forall_rule(s, specs, *mask, body, *single),
            StmtKind::Block {
                scope,
                decls,
                body,
                associations,
                construct,
            } => {
                let c = Copier { src: self.src };
                let decls = decls.iter().map(|d| c.decl(&mut self.u, d)).collect();
                let associations = associations
                    .iter()
                    .map(|(s, e)| (*s, self.cp(*e)))
                    .collect();
                let body = self.block(body);
                vec![self.new_like(
                    st,
                    StmtKind::Block {
                        scope: *scope,
                        decls,
                        body,
                        associations,
                        construct: *construct,
                    },
                )]
            }
            StmtKind::Decl(d) => self.decl_rule(s, d),
            StmtKind::Return(Some(e)) if self.result_ptr.is_some() => self.c_return(s, *e),
            StmtKind::Memory { op, items, options } => {
                let mut out = vec![self.copy_stmt(s)];
                let mut ditems = Vec::new();
                let mut per_dir = Vec::new();
                for &it in items {
                    if let Some(d) = self.alloc_item(it, *op) {
                        ditems.push(d);
                    } else if let Some(d) = self.component_alloc_item(it, *op) {
                        // `allocate(r%w(n))`: the derivative component `rd%w` (one per
                        // direction, `rd(nd)%w`) is allocated alike; left unallocated, the
                        // derivative code wrote through an unallocated array.
                        let st = stmt(
                            &mut self.u,
                            StmtKind::Memory {
                                op: *op,
                                items: vec![d],
                                options: Vec::new(),
                            },
                        );
                        per_dir.push(st);
                    }
                }
                if !per_dir.is_empty() {
                    let v = self.dir(per_dir);
                    out.extend(v);
                }
                if !ditems.is_empty() {
                    let _ = options;
                    out.push(stmt(
                        &mut self.u,
                        StmtKind::Memory {
                            op: *op,
                            items: ditems,
                            options: Vec::new(),
                        },
                    ));
                }
                out
            }
            StmtKind::Io { kind, items, .. } => {
                let mut out = vec![self.copy_stmt(s)];
                let Some(i) = self.pid(s).filter(|_| *kind == IoKind::Read) else {
                    return out;
                };
                // A value read is a constant: the derivative of each item still useful is
                // reset after the READ.
                let mut unhandled = false;
                for &it in items {
                    if !(self.has_dvar_ref(it) && self.ref_in(it, &self.act.useful_after[i])) {
                        continue;
                    }
                    let k = self.real_kind(it);
                    match self.dref(it, Dir::Nd) {
                        Some(dl) => {
                            let z = self.b().zero(k);
                            let st = assign(&mut self.u, dl, z);
                            let v = self.dir(vec![st]);
                            out.extend(v);
                        }
                        None => unhandled = true,
                    }
                }
                // An item that carried a derivative (varied), even one no longer useful
                // because the READ overwrites it whole, loses it.
                let was_active = items.iter().any(|&it| {
                    self.ref_in(it, &self.act.active_before[i])
                        || self.ref_in(it, &self.act.varied_before[i])
                });
                if was_active || unhandled {
                    self.warn(s, Code::ActiveIo, "this READ overwrites an active variable: the value read is taken as a constant and the derivative it had is lost");
                }
                out
            }
            StmtKind::Entry { .. } => {
                self.error(s, Code::Unsupported, "ENTRY in a procedure that is differentiated is not supported; split the entry into its own procedure");
                vec![self.copy_stmt(s)]
            }
            StmtKind::Return(_)
            | StmtKind::Exit(_)
            | StmtKind::Cycle(_)
            | StmtKind::Break
            | StmtKind::CContinue
            | StmtKind::Goto(_)
            | StmtKind::ComputedGoto { .. }
            | StmtKind::ArithIf { .. }
            | StmtKind::Stop { .. }
            | StmtKind::Continue
            | StmtKind::Empty
            | StmtKind::Format(_)
            | StmtKind::CaseLabel(_)
            | StmtKind::Comment(_) => vec![self.copy_stmt(s)],
        };
        self.report_lost_derivative(s);
        self.move_label(st, out)
    }

    /// A new statement with the label, construct name, directives and end-of-line comment of
    /// `st` (the primal statement it stands for).
    pub fn new_like(&mut self, st: &Stmt, kind: StmtKind) -> StmtId {
        self.u.stmts.alloc(Stmt {
            kind,
            label: st.label.clone(),
            construct_name: st.construct_name.clone(),
            directives: st.directives.clone(),
            comment: st.comment.clone(),
            omp: None,
        })
    }

    pub fn move_label(&mut self, st: &Stmt, out: Vec<StmtId>) -> Vec<StmtId> {
        if let (Some(l), Some(&first)) = (&st.label, out.first()) {
            if self.u.stmts[first].label.is_none() {
                for &o in &out {
                    if self.u.stmts[o].label.as_ref() == Some(l) {
                        self.u.stmts[o].label = None;
                    }
                }
                self.u.stmts[first].label = Some(l.clone());
            }
        }
        out
    }

    pub fn span(&self, s: StmtId) -> Span {
        self.src.source_map.stmt.get(s).copied().unwrap_or_default()
    }

    pub fn warn(&mut self, s: StmtId, code: Code, msg: &str) {
        let sp = self.span(s);
        self.g.diags.push(Diagnostic::warning(code, sp, msg));
    }

    pub fn error(&mut self, s: StmtId, code: Code, msg: &str) {
        let sp = self.span(s);
        self.g.diags.push(Diagnostic::error(code, sp, msg));
    }

    /// C expression statements with side effects on active values (`a = b = c`) are not
    /// differentiated: report them.
    /// C pointer arithmetic in an expression statement or a `for` step (`p++`, `p += k`,
    /// `p = p + k`) on a pointer that has a derivative pointer: the same on the derivative.
    fn pointer_mirror(&mut self, e: ExprId) -> Option<ExprId> {
        if self.lang != Lang::C {
            return None;
        }
        let src = self.src;
        let dptr_of = |pg: &Self, x: ExprId| match src.exprs[x] {
            Expr::Name(p)
                if pg.prog().symbols[p]
                    .ty
                    .as_ref()
                    .is_some_and(|t| t.pointers > 0) =>
            {
                pg.dvar.get(&p).copied()
            }
            _ => None,
        };
        match &src.exprs[e] {
            Expr::IncDec { inc, prefix, arg } => {
                let pd = dptr_of(self, *arg)?;
                let n = self.b().name(pd);
                Some(self.b().e(Expr::IncDec {
                    inc: *inc,
                    prefix: *prefix,
                    arg: n,
                }))
            }
            Expr::Assign { op, lhs, rhs } => {
                let pd = dptr_of(self, *lhs)?;
                let r = self.pointer_step(*op, *rhs)?;
                let n = self.b().name(pd);
                Some(self.b().e(Expr::Assign {
                    op: *op,
                    lhs: n,
                    rhs: r,
                }))
            }
            Expr::Comma(items) => {
                let ms: Vec<ExprId> = items
                    .iter()
                    .filter_map(|&x| self.pointer_mirror(x))
                    .collect();
                (!ms.is_empty()).then(|| self.b().e(Expr::Comma(ms)))
            }
            _ => None,
        }
    }

    /// The right-hand side of the derivative pointer's assignment: the derivative address
    /// for `p = q`, the same offset for `p += k`.
    fn pointer_step(&mut self, op: Option<BinOp>, rhs: ExprId) -> Option<ExprId> {
        match op {
            None => self.dptr(rhs),
            Some(_) => Some(self.cp(rhs)),
        }
    }

    pub fn check_side_effects(&mut self, s: StmtId) {
        let Some(i) = self.pid(s) else { return };
        if self.pi.effects[i]
            .writes
            .intersects(&self.act.active_after[i])
            && self.pi.effects[i]
                .writes
                .intersects(&self.pi.zones.differentiable)
        {
            self.error(
                s,
                Code::Unsupported,
                "this expression statement assigns an active variable inside an expression; write the assignment as a statement of its own",
            );
        }
    }

    pub fn ref_in(&self, e: ExprId, set: &ZoneSet) -> bool {
        self.g
            .info
            .ref_zones(self.prog(), self.p, e)
            .is_some_and(|z| z.intersects(set))
    }

    pub fn has_dvar_ref(&self, e: ExprId) -> bool {
        radtap_dataflow::zones::base_symbol(self.prog(), self.p, e)
            .is_some_and(|s| self.dvar.contains_key(&s))
    }

    /// Whether reference `e` is active in `set` and has a derivative variable.
    pub fn active_ref(&self, e: ExprId, set: &ZoneSet) -> bool {
        self.has_dvar_ref(e) && self.ref_in(e, set)
    }

    pub fn bytes_of_sym(&self, s: SymbolId) -> u32 {
        // A complex variable: the kind of its parts.
        self.prog().symbols[s]
            .ty
            .as_ref()
            .and_then(|t| match t.base {
                BaseClass::Complex => t.bytes.map(|b| b / 2),
                _ => t.bytes,
            })
            .filter(|&b| matches!(b, 4 | 8 | 10 | 16))
            .unwrap_or(8)
    }

    /// The real kind (bytes) of a primal expression, 8 when in doubt.
    pub(crate) fn kind_of(&self, e: ExprId) -> u32 {
        let compound = matches!(
            self.src.exprs[e],
            Expr::Binary { .. } | Expr::Unary { .. } | Expr::Paren(_) | Expr::Call { .. }
        );
        if !compound {
            return self.kind_of_node(e);
        }
        if let Some(&k) = self.kinds.borrow().get(&e) {
            return k;
        }
        let k = self.kind_of_node(e);
        self.kinds.borrow_mut().insert(e, k);
        k
    }

    fn kind_of_node(&self, e: ExprId) -> u32 {
        match &self.src.exprs[e] {
            Expr::Literal(l) => {
                let t = l.text.to_ascii_lowercase();
                match self.lang {
                    Lang::C => {
                        if t.starts_with("0x") {
                            8
                        } else if t.ends_with('f') {
                            4
                        } else if t.ends_with('l') && l.kind == LitKind::Real {
                            16
                        } else {
                            8
                        }
                    }
                    Lang::Fortran => {
                        if l.kind == LitKind::Int {
                            0
                        } else if t.contains('d')
                            || t.ends_with("_8")
                            || t.contains("_dp")
                            || t.contains("_wp")
                        {
                            8
                        } else {
                            4
                        }
                    }
                }
            }
            Expr::Name(_)
            | Expr::Index { .. }
            | Expr::Field { .. }
            | Expr::Unary {
                op: UnOp::Deref, ..
            } => match radtap_dataflow::zones::base_symbol(self.prog(), self.p, e) {
                Some(s) => match self.prog().symbols[s].ty.as_ref().map(|t| t.base) {
                    Some(BaseClass::Real) => self.bytes_of_sym(s),
                    Some(BaseClass::Complex) => self.bytes_of_sym(s),
                    Some(BaseClass::Integer) => 0,
                    _ => 8,
                },
                None => 8,
            },
            Expr::Binary { lhs, rhs, .. } => {
                let (a, b) = (self.kind_of(*lhs), self.kind_of(*rhs));
                match a.max(b) {
                    0 => 0,
                    k => k,
                }
            }
            Expr::Unary { arg, .. } | Expr::Paren(arg) => self.kind_of(*arg),
            Expr::Call { callee, args } => {
                let n = self.callee_name(*callee);
                match n.as_str() {
                    "dble" | "dfloat" => 8,
                    // `real(c)` of a complex `c` has `c`'s kind.
                    "real" if args.len() == 1 && self.complex_src(args[0].value) => {
                        self.complex_kind(args[0].value)
                    }
                    "real" | "float" | "sngl" if args.len() == 1 => 4,
                    // Mixed kinds (`min(1.0, x*10d0)`, accepted by gfortran): the widest.
                    "min" | "max" | "amin1" | "amax1" | "dmin1" | "dmax1" | "fmin" | "fmax" => args
                        .iter()
                        .map(|a| self.kind_of(a.value))
                        .max()
                        .filter(|&k| k != 0)
                        .unwrap_or(8),
                    _ => args
                        .first()
                        .map(|a| self.kind_of(a.value))
                        .filter(|&k| k != 0)
                        .unwrap_or(8),
                }
            }
            _ => 8,
        }
    }

    pub fn real_kind(&self, e: ExprId) -> u32 {
        match self.kind_of(e) {
            0 => 8,
            k => k,
        }
    }

    pub fn callee_name(&self, callee: ExprId) -> String {
        match &self.src.exprs[callee] {
            Expr::Name(s) => self.prog().symbols[*s].spelling.to_ascii_lowercase(),
            Expr::Opaque(s) => s.to_ascii_lowercase(),
            _ => String::new(),
        }
    }

    /// `lhs = rhs` (`lhs op= rhs` in C).
    ///
    /// With `A⁻`/`A⁺` the active zones before/after the point and `U⁺` the useful ones:
    /// `v ∈ A⁺  ⟹  v̇ := Σᵢ ∂rhs/∂xᵢ · ẋᵢ (xᵢ ∈ A⁻);  v = rhs`;
    /// `v ∉ A⁺, v ∈ U⁺, v has a derivative  ⟹  v̇ := 0;  v = rhs`.
    fn assign_rule(
        &mut self,
        s: StmtId,
        lhs: ExprId,
        op: Option<BinOp>,
        rhs: ExprId,
    ) -> Vec<StmtId> {
        let Some(i) = self.pid(s) else {
            return vec![self.copy_stmt(s)];
        };
        self.cur = self.act.active_before[i].clone();
        self.hoisted.clear();
        let mut out = Vec::new();
        self.hoist_calls(s, rhs, &mut out);
        let n_hoisted = out.len();
        let src = self.src;
        // C pointer assignment: the derivative pointer follows.
        if let Expr::Name(q) = src.exprs[lhs] {
            let is_ptr = self.prog().symbols[q]
                .ty
                .as_ref()
                .is_some_and(|t| t.pointers > 0 && t.dims.is_empty());
            if is_ptr && self.lang == Lang::C {
                let primal = self.primal_assign(s, lhs, op, rhs);
                out.push(primal);
                if let Some(&qd) = self.dvar.get(&q) {
                    // `m = get_new_matrix(r, c)`: the shadow block and its members
                    // (`shadow.rs`).
                    let alloc = op.is_none() && self.allocator_of(rhs).is_some();
                    let d = if alloc {
                        self.allocator_block(rhs, Some(q))
                    } else {
                        self.pointer_step(op, rhs)
                    };
                    self.lost_derivative |= d.is_none();
                    if let Some(d) = d {
                        let l = self.b().name(qd);
                        let st = stmt(&mut self.u, StmtKind::Assign { lhs: l, op, rhs: d });
                        out.push(st);
                        if alloc {
                            let members = self.allocator_members(rhs, Some(q), qd);
                            out.extend(members);
                        }
                    }
                }
                self.hoisted.clear();
                return out;
            }
        }
        // C pointer stored in a record (`m.data = malloc(…)`, `m->data = q`): the
        // derivative record's member follows.
        if self.lang == Lang::C && op.is_none() && self.field_is_pointer(lhs) {
            let primal = self.primal_assign(s, lhs, op, rhs);
            out.push(primal);
            let twin = self.field_pointer_twin(lhs, rhs);
            out.extend(twin);
            self.hoisted.clear();
            return out;
        }
        // C chained assignment `a = b = e`: each target receives the derivative of `e`,
        // innermost first.
        let mut targets = vec![lhs];
        let mut value = rhs;
        if op.is_none() {
            while let Expr::Assign {
                op: None,
                lhs: l2,
                rhs: r2,
            } = src.exprs[value]
            {
                targets.push(l2);
                value = r2;
            }
        }
        for &t in &targets {
            if self.unreachable_store(t) {
                self.error(s, Code::Unsupported, "a store through an address radtap cannot follow (`*f(y) = …`, `(&y[0])[k] = …`, `k[y] = …`): its derivative would be lost; assign the variable or element by name");
                out.push(self.copy_stmt(s));
                return out;
            }
        }
        if self.active_ref(lhs, &self.act.active_after[i]) {
            self.collect_shared(value);
            // Not in an OpenMP atomic update: only the update is atomic.
            if self.lang == Lang::C && src.stmts[s].omp.is_none() && self.is_memory_ref(lhs) {
                self.collect_loads(value);
            }
        }
        // `a = b = e`: `ḃ = ė`, then `ȧ = ḃ` (`ȧ = ė` again read the new `ḃ` when `e` reads
        // `b`: `a = b = a * b`).
        let inner = targets[targets.len() - 1];
        for (k, &t) in targets.iter().rev().enumerate() {
            if k > 0 && self.active_ref(t, &self.act.active_after[i]) {
                if let (Some(dl), Some(dr)) = (self.dref(t, Dir::Nd), self.dref(inner, Dir::Nd)) {
                    let st = assign(&mut self.u, dl, dr);
                    let v = self.dir(vec![st]);
                    out.extend(v);
                    continue;
                }
            }
            self.assign_derivative(i, t, op, value, &mut out);
        }
        self.pre.clear();
        // Diff-liveness: a primal assignment nothing needs (neither a derivative nor an
        // output of the procedure) is sliced away.
        let dead = self.g.opts.slice_dead && !self.act.live[i] && self.pi.effects[i].sliceable;
        if !self.deriv_only && !dead {
            let primal = self.primal_assign(s, lhs, op, rhs);
            out.push(primal);
        }
        let defs = self.resolve_shared();
        out.splice(n_hoisted..n_hoisted, defs);
        self.hoisted.clear();
        out
    }

    pub fn report_lost_derivative(&mut self, s: StmtId) {
        let sp = self.span(s);
        let reported = self
            .g
            .diags
            .iter()
            .any(|d| d.is_error() && d.span == Some(sp));
        if let Some(what) = self.lost_value.take().filter(|_| !reported) {
            let msg = format!("{what} here has an active value radtap does not differentiate where it stands; the derivative would be wrong: compute it in a statement of its own");
            self.error(s, Code::Unsupported, &msg);
        }
        if let Some(what) = self.no_rule.take() {
            let msg = format!("{what} has an active argument but no derivative rule in radtap: its derivative would be taken as zero");
            self.error(s, Code::Unsupported, &msg);
        }
        if let Some(p) = self.derivative_pointer_address(s) {
            let msg = format!("the address of pointer `{p}` is taken here (`&{p}`): assignments to `{p}` through it (`*pp = q`, a callee) are not followed by its derivative pointer; assign `{p}` by name");
            self.error(s, Code::Unsupported, &msg);
        }
        if std::mem::take(&mut self.lost_derivative) {
            self.error(s, Code::Unsupported, "an active value here has no derivative radtap can reach (a pointer whose targets it cannot follow?); the derivative would be wrong");
        }
    }

    /// A C pointer with a derivative pointer whose own address statement `s` takes (`&p`,
    /// `&(p)`, in its own expressions, not in nested statements).
    fn derivative_pointer_address(&self, s: StmtId) -> Option<String> {
        if self.lang != Lang::C {
            return None;
        }
        let src = self.src;
        let mut todo = Vec::new();
        radtap_il::visit::stmt_children(&src.stmts[s].kind, &mut |e| todo.push(e), &mut |_| {});
        if let StmtKind::Decl(d) = &src.stmts[s].kind {
            radtap_il::visit::decl_exprs(d, &mut |e| todo.push(e));
        }
        while let Some(e) = todo.pop() {
            if let Expr::Unary {
                op: UnOp::AddrOf,
                arg,
            } = &src.exprs[e]
            {
                let mut a = *arg;
                while let Expr::Paren(x) = &src.exprs[a] {
                    a = *x;
                }
                if let Expr::Name(p) = &src.exprs[a] {
                    let ptr = self.prog().symbols[*p]
                        .ty
                        .as_ref()
                        .is_some_and(|t| t.pointers > 0 && t.dims.is_empty());
                    if ptr && self.dvar.contains_key(p) {
                        return Some(self.prog().symbols[*p].spelling.clone());
                    }
                }
            }
            radtap_il::visit::expr_children(&src.exprs[e], &mut |k| todo.push(k));
        }
        None
    }

    /// The derivative statement of `lhs (op)= rhs` at point `i`: the tangent when `lhs` is
    /// active after it, an explicit zero when `lhs` has a derivative that is still useful.
    fn assign_derivative(
        &mut self,
        i: usize,
        lhs: ExprId,
        op: Option<BinOp>,
        rhs: ExprId,
        out: &mut Vec<StmtId>,
    ) {
        let after = &self.act.active_after[i];
        let val = if self.active_ref(lhs, after) {
            let d = match op {
                None => self.tan(rhs),
                Some(o) => self.tan_binary(o, lhs, rhs, None),
            };
            let k = self.real_kind(lhs);
            match d {
                Some(d) => d,
                None => self.b().zero(k),
            }
        } else if self.has_dvar_ref(lhs) && {
            let mut u = self.act.useful_after[i].clone();
            u.intersect_with(&self.pi.zones.differentiable);
            self.ref_in(lhs, &u)
        } {
            let k = self.real_kind(lhs);
            self.b().zero(k)
        } else {
            return;
        };
        if let Some(dl) = self.dref(lhs, Dir::Nd) {
            let st = assign(&mut self.u, dl, val);
            let v = self.dir(vec![st]);
            out.extend(v);
        }
    }

    pub fn primal_assign(
        &mut self,
        s: StmtId,
        lhs: ExprId,
        op: Option<BinOp>,
        rhs: ExprId,
    ) -> StmtId {
        let l = self.cp(lhs);
        let r = self.cp(rhs);
        let st = &self.src.stmts[s];
        self.new_like(st, StmtKind::Assign { lhs: l, op, rhs: r })
    }

    /// Copies a primal expression, replacing hoisted function references by their result.
    pub fn cp(&mut self, e: ExprId) -> ExprId {
        if let Some(&(t, _)) = self.hoisted.get(&e) {
            return self.b().name(t);
        }
        if let Some(&i) = self.shared_at.get(&e) {
            let ph = self.b().opaque("?shared");
            self.shared[i].1.push(ph);
            return ph;
        }
        if self.hoisted.is_empty() && self.shared.is_empty() {
            return Copier { src: self.src }.expr(&mut self.u, e);
        }
        let mut node = self.src.exprs[e].clone();
        if let Expr::Cast { arg, .. } = self.src.exprs[e] {
            // The type is copied as is; the operand may hold a hoisted reference.
            let c = Copier { src: self.src }.expr(&mut self.u, e);
            let a = self.cp(arg);
            if let Expr::Cast { arg: slot, .. } = &mut self.u.exprs[c] {
                *slot = a;
            }
            return c;
        }
        if matches!(node, Expr::CompoundLit { .. } | Expr::SizeofType(_)) {
            return Copier { src: self.src }.expr(&mut self.u, e);
        }
        expr_slots(&mut node, &mut |slot| *slot = self.cp(*slot));
        self.u.exprs.alloc(node)
    }

    /// The call site of the function reference `e` in this procedure.
    pub fn expr_call_site(&self, e: ExprId) -> Option<&'a CallSite> {
        let info: &'a radtap_dataflow::ProgramInfo = self.g.info;
        info.callgraph.expr_site(self.p, e)
    }

    /// The call site of the call statement `s` in this procedure.
    pub fn stmt_call_site(&self, s: StmtId) -> Option<&'a CallSite> {
        let info: &'a radtap_dataflow::ProgramInfo = self.g.info;
        info.callgraph.stmt_site(self.p, s)
    }

    /// Whether the call expression `e` references a function of the program that has a
    /// derivative version.
    pub fn is_differentiated_call(&self, e: ExprId) -> bool {
        self.expr_call_site(e).is_some_and(|c| {
            matches!(&c.callee, Callee::Defined(l) if l.iter().any(|u| self.g.active.contains(u)))
        })
    }

    /// The differentiated function that call expression `e` of statement `s` references, with
    /// its result variable; an external function with active arguments is reported.
    pub fn differentiated_function(&mut self, s: StmtId, e: ExprId) -> Option<(UnitId, SymbolId)> {
        let Expr::Call { args, callee } = &self.src.exprs[e] else {
            return None;
        };
        let callee = *callee;
        let site = self.expr_call_site(e)?;
        let c = match &site.callee {
            Callee::Defined(list) if list.len() == 1 && self.g.active.contains(&list[0]) => list[0],
            Callee::Defined(list)
                if list.len() > 1
                    && list.iter().any(|c| self.g.active.contains(c))
                    && args.iter().any(|a| self.active_ref_or_expr(a.value)) =>
            {
                let msg = match &self.src.exprs[callee] {
                    Expr::Name(sym) if self.src.params.contains(sym) => format!(
                        "{} is not differentiated yet; call the specific procedure",
                        self.several_procedures(callee)
                    ),
                    _ => "a generic function reference whose specific procedure cannot be told from the argument types is not differentiated yet; call the specific procedure".to_string(),
                };
                self.error(s, Code::Unsupported, &msg);
                return None;
            }
            Callee::External(name) => {
                if args.iter().any(|a| self.active_ref_or_expr(a.value)) {
                    let stmt_function = self.src.decls.iter().any(|d| {
                        matches!(d, Decl::StmtFunction { name: f, .. }
                            if self.g.prog.symbols[*f].spelling.eq_ignore_ascii_case(name))
                    });
                    let constructor = self.lang == Lang::Fortran
                        && self.g.prog.typedefs.iter().any(|(_, t)| {
                            t.name
                                .as_deref()
                                .is_some_and(|n| n.eq_ignore_ascii_case(name))
                        });
                    if stmt_function {
                        let msg = format!("the statement function `{name}` applied to active values is not differentiated yet; write it as a module or internal function");
                        self.error(s, Code::Unsupported, &msg);
                    } else if constructor {
                        let msg = format!("the structure constructor `{name}(...)` with active values is not differentiated yet; assign the components one by one");
                        self.error(s, Code::Unsupported, &msg);
                    } else {
                        let msg = crate::no_body_message(self.g.prog, name);
                        self.error(s, Code::NoDerivative, &msg);
                    }
                }
                return None;
            }
            _ => return None,
        };
        // A subroutine used as a value has no result: the frontend reports it.
        let r = self.prog().units[c].result?;
        Some((c, r))
    }

    /// The type of a derivative function whose primal result is `r` (of `bytes`): the
    /// result's own type when it is discrete (integer, logical), else real.
    pub fn result_type(&self, r: SymbolId, bytes: u32) -> Type {
        match self.prog().symbols[r].ty.clone() {
            Some(mut t) if matches!(t.base, BaseClass::Integer | BaseClass::Logical) => {
                t.dims.clear();
                t.pointers = 0;
                t
            }
            _ => Type {
                base: BaseClass::Real,
                bytes: Some(bytes),
                dims: Vec::new(),
                pointers: 0,
            },
        }
    }

    /// The temporaries holding a hoisted reference to function `c` (result `r`): its value
    /// `f_res`, its derivative `f_resd`/`f_resb`, and their size in bytes.
    /// Why a reference to differentiated function `c` (result `r`) with actual arguments
    /// `args` cannot be hoisted into a call of its derivative, if it cannot.
    pub fn function_reference_refusal(
        &self,
        c: UnitId,
        r: SymbolId,
        args: &[Arg],
    ) -> Option<String> {
        let prog = self.prog();
        let name = prog.units[c]
            .name
            .map(|n| prog.name(n).to_string())
            .unwrap_or_default();
        let record = prog.symbols[r].ty.as_ref().is_some_and(|t| {
            matches!(t.base, BaseClass::Record(_))
                || (self.lang == Lang::C && t.base == BaseClass::Opaque)
        });
        if record {
            // The result temporaries and the derivative's return type are scalars: the
            // output did not compile.
            return Some(if self.lang == Lang::C {
                format!("a reference to the function `{name}`, which returns a struct by value, is not differentiated yet; return it through a pointer argument")
            } else {
                format!("a reference to the function `{name}`, whose result is of derived type, is not differentiated yet; make it a subroutine with an intent(out) argument")
            });
        }
        if let Some(t) = prog.symbols[r].ty.as_ref().filter(|t| !t.dims.is_empty()) {
            // The result temporaries are shaped like the result, written over the actuals
            // (`qsat(ix,il)`, `r(n)`, `r(size(v))`).
            let bounds_known = t.dims.iter().all(|d| self.callee_dim_ok(c, d, args));
            if self.lang != Lang::Fortran || !bounds_known {
                return Some(format!("a reference to the array-valued function `{name}`, whose result's shape cannot be written where it is referenced (an assumed or deferred shape, or bounds naming its locals), is not differentiated yet; make it a subroutine with an intent(out) array"));
            }
        }
        None
    }

    /// The keywords of the arguments a hoisted reference to function `c` (result `r`) with
    /// actuals `args` appends after them: the primal result, its derivative (or adjoint) and
    /// `nbdirs`. After an omitted OPTIONAL or a keyword argument they cannot follow
    /// positionally (they would land in the wrong dummy), so they go by the names the
    /// derivative unit gives those dummies (`decls.rs`: the result keeps its name, its
    /// derivative follows the variable pattern, as keyword derivative actuals assume);
    /// `None` when every actual is positional.
    pub fn result_keywords(&self, c: UnitId, r: SymbolId, args: &[Arg]) -> Option<[String; 3]> {
        let prog = self.prog();
        let positional =
            args.len() >= prog.units[c].params.len() && args.iter().all(|a| a.keyword.is_none());
        if self.lang != Lang::Fortran || positional {
            return None;
        }
        let rn = prog.symbols[r].spelling.clone();
        let rd = pattern(&self.g.opts.var_pattern, &rn);
        Some([rn, rd, "nbdirs".to_string()])
    }

    pub fn result_temps(
        &mut self,
        c: UnitId,
        r: SymbolId,
        args: &[Arg],
    ) -> (SymbolId, SymbolId, u32) {
        let bytes = self.bytes_of_sym(r);
        let fname = crate::gen::unit_name(self.prog(), c);
        // An array result: temporaries of its shape over the reference's actuals
        // (`function_reference_refusal` refused the others).
        if let Some(Some(dims)) = self.result_dims(c, r, args) {
            let t = self.temp(
                &format!("{fname}_res"),
                TempKind::Shaped {
                    bytes,
                    deriv: false,
                    dims: dims.clone(),
                },
            );
            let dims = dims
                .iter()
                .map(|d| {
                    let lower = d.lower.map(|e| self.dup(e));
                    let upper = match d.upper {
                        DimUpper::Expr(e) => DimUpper::Expr(self.dup(e)),
                        ref other => other.clone(),
                    };
                    Dim { lower, upper }
                })
                .collect();
            let td = self.temp(
                &pattern(&self.g.opts.var_pattern, &format!("{fname}_res")),
                TempKind::Shaped {
                    bytes,
                    deriv: true,
                    dims,
                },
            );
            return (t, td, bytes);
        }
        // An integer or logical result (a function differentiated for what it writes
        // through its arguments) is held in a temporary of its own type.
        let discrete = self.prog().symbols[r]
            .ty
            .as_ref()
            .is_some_and(|t| matches!(t.base, BaseClass::Integer | BaseClass::Logical));
        let complex = self.prog().symbols[r]
            .ty
            .as_ref()
            .is_some_and(|t| t.base == BaseClass::Complex);
        let kind = if discrete || complex {
            TempKind::Like {
                sym: r,
                deriv: false,
            }
        } else {
            TempKind::Real {
                bytes,
                deriv: false,
            }
        };
        let t = self.temp(&format!("{fname}_res"), kind.clone());
        let dkind = match kind {
            TempKind::Real { bytes, .. } => TempKind::Real { bytes, deriv: true },
            // A complex result's derivative is complex of the same kind.
            TempKind::Like { sym, .. } if complex => TempKind::Like { sym, deriv: true },
            // The derivative function of a discrete result returns a dummy of that type.
            other => other,
        };
        let td = self.temp(
            &pattern(&self.g.opts.var_pattern, &format!("{fname}_res")),
            dkind,
        );
        (t, td, bytes)
    }

    /// Pushes the arguments a derivative function `f_d` takes after the primal ones for its
    /// result `r`: the primal result (its address in C), and in vector mode the result's
    /// derivative when it is real, from the temporaries `result_temps` made. Keywords `kws`
    /// when the call passes arguments by keyword.
    pub(crate) fn result_args(
        &mut self,
        r: SymbolId,
        (t, td, bytes): (SymbolId, SymbolId, u32),
        kws: &Option<[String; 3]>,
        new_args: &mut Vec<Arg>,
    ) {
        let kw = |k: usize| kws.as_ref().map(|n| n[k].clone());
        let tn = self.b().name(t);
        let tn = if self.lang == Lang::C {
            self.b().e(Expr::Unary {
                op: UnOp::AddrOf,
                arg: tn,
            })
        } else {
            tn
        };
        new_args.push(Arg {
            keyword: kw(0),
            value: tn,
        });
        // A discrete result has no derivative argument.
        if self.vector && self.result_type(r, bytes).base == BaseClass::Real {
            let tdn = self.b().name(td);
            new_args.push(Arg {
                keyword: kw(1),
                value: tdn,
            });
        }
    }

    /// Hoists references to differentiated functions out of `e` (innermost first):
    /// `ṫ = f_d(a, ȧ, t)` before the statement, and `t` stands for `f(a)` afterwards.
    pub(crate) fn hoist_calls(&mut self, s: StmtId, e: ExprId, out: &mut Vec<StmtId>) {
        let node = &self.src.exprs[e];
        let mut kids = Vec::new();
        radtap_il::visit::expr_children(node, &mut |k| kids.push(k));
        for k in kids {
            self.hoist_calls(s, k, out);
        }
        let Some((c, r)) = self.differentiated_function(s, e) else {
            return;
        };
        let Expr::Call { args, .. } = &self.src.exprs[e] else {
            return;
        };
        if let Some(msg) = self.function_reference_refusal(c, r, args) {
            self.error(s, Code::Unsupported, &msg);
            return;
        }
        let temps @ (t, td, bytes) = self.result_temps(c, r, args);
        let kws = self.result_keywords(c, r, args);
        let kw = |k: usize| kws.as_ref().map(|n| n[k].clone());
        let mut pre = Vec::new();
        let mut new_args = self.derivative_args(s, c, args, &mut pre);
        let dsym = self.g.dproc[&c];
        let callee = self.b().name(dsym);
        self.result_args(r, temps, &kws, &mut new_args);
        out.extend(pre);
        if self.vector {
            let nb = {
                let v = self.nbdirs.expect("vector");
                self.b().name(v)
            };
            new_args.push(Arg {
                keyword: kw(2),
                value: nb,
            });
            out.push(stmt(
                &mut self.u,
                StmtKind::Call {
                    callee,
                    args: new_args,
                    no_parens: false,
                },
            ));
        } else {
            let external = self.prog().units[c].parent.is_none() && c != self.p;
            if self.lang == Lang::Fortran
                && external
                && !self.extern_funcs.iter().any(|x| x.0 == dsym)
            {
                let t = self.result_type(r, bytes);
                self.extern_funcs.push((dsym, t));
            }
            let call = self.b().e(Expr::Call {
                callee,
                args: new_args,
            });
            let tdn = self.b().name(td);
            out.push(assign(&mut self.u, tdn, call));
        }
        out.append(&mut self.post_call);
        self.hoisted.insert(e, (t, Some(td)));
    }

    fn active_ref_or_expr(&mut self, e: ExprId) -> bool {
        let cur = self.cur.clone();
        if self.ref_in(e, &cur) {
            return true;
        }
        let mut any = false;
        let mut kids = Vec::new();
        radtap_il::visit::expr_children(&self.src.exprs[e], &mut |k| kids.push(k));
        for k in kids {
            any |= self.active_ref_or_expr(k);
        }
        any
    }
}
