//! Calls and side effects hidden inside the expressions of a statement.
//!
//! The statement rules differentiate assignments as statements and hoist references to
//! differentiated functions out of the expressions whose value they differentiate (the
//! right-hand side of an assignment, a C initialiser, a C `return` value, the arguments of a
//! call). What hides elsewhere would be copied as primal code, or copied twice (into the
//! derivative statement and the primal one), and the derivative would be silently wrong:
//! an assignment, `++`/`--` or comma expression inside an expression, a call that writes
//! differentiable memory from a condition or a subscript, a call in an operand that is
//! evaluated only conditionally (`?:`, `&&`, `||`) which hoisting would evaluate always.
//! [`ProcGen::check_expr_effects`] refuses them with AD020 at the statement, in both modes.

use super::*;

/// Where an expression of a statement sits.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Pos {
    /// Its value is differentiated and its calls are hoisted: the right-hand side of an
    /// assignment, an initialiser, a C `return` value, an argument of a call statement.
    Value,
    /// Its value is only computed (copied as primal code): a condition, a bound, a
    /// `for` step.
    Control,
    /// The target of an assignment: copied into the derivative statement too, calls are
    /// not hoisted.
    Target,
}

impl<'a> ProcGen<'_, 'a> {
    /// Checks the expressions of statement `s` itself (not those of the statements nested in
    /// it) and reports AD020 at `s` for the first one no rule keeps right. Returns whether
    /// one was found.
    pub fn check_expr_effects(&mut self, s: StmtId) -> bool {
        let src = self.f.src;
        let st = &src.stmts[s];
        let mut roots: Vec<(ExprId, Pos)> = Vec::new();
        // Nodes whose side effect a statement rule handles itself.
        let mut handled: HashSet<ExprId> = HashSet::new();
        let mut value_lhs = None;
        match &st.kind {
            StmtKind::Assign { lhs, op, rhs } => {
                roots.push((*lhs, Pos::Target));
                value_lhs = Some(*lhs);
                let mut v = *rhs;
                if op.is_none() {
                    // A chained assignment `a = b = e`: each target gets its derivative.
                    while let Expr::Assign {
                        op: None,
                        lhs: l2,
                        rhs: r2,
                    } = src.exprs[v]
                    {
                        handled.insert(v);
                        roots.push((l2, Pos::Target));
                        v = r2;
                    }
                }
                roots.push((v, Pos::Value));
            }
            StmtKind::Decl(Decl::Var(v)) => {
                for e in &v.entities {
                    if let Some(Init::Expr(x)) = e.init {
                        roots.push((x, Pos::Value));
                    }
                }
            }
            StmtKind::Call { args, .. } => {
                roots.extend(args.iter().map(|a| (a.value, Pos::Value)));
            }
            StmtKind::Return(Some(e)) => roots.push((*e, Pos::Value)),
            StmtKind::Expr(e) => {
                // `i++;`, `a = b = c;`, `i++, j--;`: the expression-statement rules handle
                // the side effects at the top; what is below them is only computed.
                let tops = match &src.exprs[*e] {
                    Expr::Comma(items) => {
                        handled.insert(*e);
                        items.clone()
                    }
                    _ => vec![*e],
                };
                for t in tops {
                    match &src.exprs[t] {
                        Expr::Assign { .. } | Expr::IncDec { .. } => {
                            handled.insert(t);
                        }
                        _ => {}
                    }
                    roots.push((t, Pos::Control));
                }
            }
            StmtKind::If { arms, .. } | StmtKind::Where { arms, .. } => {
                roots.extend(arms.iter().map(|(c, _)| (*c, Pos::Control)));
            }
            StmtKind::While { cond, .. } | StmtKind::DoWhile { cond, .. } => {
                roots.push((*cond, Pos::Control));
            }
            StmtKind::CFor { cond, step, .. } => {
                roots.extend(cond.iter().map(|&c| (c, Pos::Control)));
                roots.extend(step.iter().map(|&c| (c, Pos::Control)));
            }
            StmtKind::Do {
                start, end, step, ..
            } => {
                roots.push((*start, Pos::Control));
                roots.push((*end, Pos::Control));
                roots.extend(step.iter().map(|&c| (c, Pos::Control)));
            }
            StmtKind::Select { selector, .. } => roots.push((*selector, Pos::Control)),
            StmtKind::Switch { expr, .. }
            | StmtKind::ComputedGoto { expr, .. }
            | StmtKind::ArithIf { expr, .. } => roots.push((*expr, Pos::Control)),
            StmtKind::Forall { mask, .. } => {
                roots.extend(mask.iter().map(|&c| (c, Pos::Control)));
            }
            StmtKind::Io { items, .. } | StmtKind::Memory { items, .. } => {
                roots.extend(items.iter().map(|&c| (c, Pos::Control)));
            }
            StmtKind::PointerAssign { .. }
            | StmtKind::Decl(_)
            | StmtKind::Return(None)
            | StmtKind::Loop { .. }
            | StmtKind::CaseLabel(_)
            | StmtKind::Block { .. }
            | StmtKind::Exit(_)
            | StmtKind::Cycle(_)
            | StmtKind::Break
            | StmtKind::CContinue
            | StmtKind::Goto(_)
            | StmtKind::Stop { .. }
            | StmtKind::Continue
            | StmtKind::Empty
            | StmtKind::Format(_)
            | StmtKind::Entry { .. }
            | StmtKind::Comment(_) => {}
        }
        if let Some(msg) = self.loaded_pointer_store(s) {
            self.error(s, Code::Unsupported, &msg);
            return true;
        }
        if self.f.adjoint {
            // The adjoint records what statements overwrite, not what a test does: the
            // backward sweep of `for (i = n; i-- > 0;)` ran with the last `i`.
            let tests: Vec<ExprId> = match &st.kind {
                StmtKind::If { arms, .. } => arms.iter().map(|(c, _)| *c).collect(),
                StmtKind::While { cond, .. } | StmtKind::DoWhile { cond, .. } => vec![*cond],
                StmtKind::CFor { cond, .. } => cond.iter().copied().collect(),
                _ => Vec::new(),
            };
            // A variable only the test reads (`while (k++ < n)`) needs no value backwards.
            let needed = |t: ExprId| match self.g.info.ref_zones(self.prog(), self.f.p, t) {
                Some(z) => self.f.act.deriv_uses.iter().any(|u| u.intersects(&z)),
                None => true,
            };
            let mut todo = tests;
            while let Some(e) = todo.pop() {
                // What the test changes: assignment and `++`/`--` targets, and variables
                // whose address a call in it receives (`while (next(&i))`).
                let mut changed = Vec::new();
                match &src.exprs[e] {
                    Expr::Assign { lhs: t, .. } | Expr::IncDec { arg: t, .. } => changed.push(*t),
                    Expr::Call { args, .. } => {
                        for a in args {
                            if let Expr::Unary {
                                op: UnOp::AddrOf,
                                arg,
                            } = src.exprs[a.value]
                            {
                                changed.push(arg);
                            }
                        }
                    }
                    _ => {}
                }
                for t in changed {
                    if needed(t) {
                        self.error(s, Code::Unsupported, "a condition that changes a variable the derivatives read (`i-- > 0` with `x[i]` in the loop) is not supported in adjoint mode yet; change it in a statement of its own (in the loop body, or before the test)");
                        return true;
                    }
                }
                radtap_il::visit::expr_children(&src.exprs[e], &mut |k| todo.push(k));
            }
        }
        if let StmtKind::Call { callee, args, .. } = &st.kind {
            let name = self.callee_name(*callee);
            if let Some(msg) = self.copy_refusal(s, &name, args) {
                self.error(s, Code::Unsupported, &msg);
                return true;
            }
        }
        if roots.is_empty() {
            return false;
        }
        // Whether the statement has derivative statements that would copy its expressions.
        let differentiated = self.pid(s).is_some_and(|i| self.f.act.has_derivative[i])
            || value_lhs.is_some_and(|l| self.has_dvar_ref(l))
            || matches!(&st.kind, StmtKind::Decl(Decl::Var(v))
                if v.entities.iter().any(|e| self.dvar.contains_key(&e.sym)));
        for (e, pos) in roots {
            if let Some(msg) = self.hidden_effect(s, e, pos, false, differentiated, &handled) {
                self.error(s, Code::Unsupported, &msg);
                return true;
            }
        }
        false
    }

    /// The first problem in `e` (see the module doc), `cond` when `e` is evaluated only
    /// conditionally.
    fn hidden_effect(
        &mut self,
        s: StmtId,
        e: ExprId,
        pos: Pos,
        cond: bool,
        differentiated: bool,
        handled: &HashSet<ExprId>,
    ) -> Option<String> {
        let src = self.f.src;
        let node = &src.exprs[e];
        match node {
            Expr::Assign { lhs: target, .. } | Expr::IncDec { arg: target, .. }
                if !handled.contains(&e) =>
            {
                let what = if matches!(node, Expr::Assign { .. }) {
                    "an assignment"
                } else {
                    "`++`/`--`"
                };
                if pos != Pos::Control && differentiated {
                    return Some(format!("{what} inside an expression of a differentiated statement is not supported: its derivative would be lost or its side effect done twice; write it as a statement of its own before this one"));
                }
                if self.differentiable_ref(*target) && self.active_at(s, *target) {
                    return Some(format!("{what} on an active real variable inside an expression is not supported: its derivative would be lost; write it as a statement of its own"));
                }
            }
            Expr::Comma(_) if !handled.contains(&e) && pos == Pos::Value && differentiated => {
                return Some("a comma expression inside a differentiated expression is not supported; write its parts as statements of their own, in order".to_string());
            }
            Expr::Call { .. } => {
                if let Some(msg) = self.hidden_call(s, e, pos, cond, differentiated) {
                    return Some(msg);
                }
            }
            _ => {}
        }
        let mut kids: Vec<(ExprId, bool)> = Vec::new();
        match node {
            Expr::Cond {
                cond: c,
                then,
                else_,
            } => {
                kids.push((*c, cond));
                kids.push((*then, true));
                kids.push((*else_, true));
            }
            Expr::Binary {
                op: BinOp::And | BinOp::Or,
                lhs,
                rhs,
            } => {
                kids.push((*lhs, cond));
                kids.push((*rhs, true));
            }
            _ => radtap_il::visit::expr_children(node, &mut |k| kids.push((k, cond))),
        }
        for (k, c) in kids {
            if let Some(m) = self.hidden_effect(s, k, pos, c, differentiated, handled) {
                return Some(m);
            }
        }
        None
    }

    /// C: whether reference `e` reaches real data through a pointer loaded from memory
    /// (`a[i][j]` with `double **a` or `double *a[3]`: rows allocated one by one), which the
    /// zones do not follow (the value stored there lost its derivative). Members of records
    /// (`m->data[i]`) are followed: the record owns the block.
    fn through_loaded_pointer(&self, e: ExprId) -> bool {
        if self.f.lang != Lang::C {
            return false;
        }
        let src = self.f.src;
        let mut depth = 0usize;
        let mut x = e;
        loop {
            match &src.exprs[x] {
                Expr::Index { base, subs } => {
                    depth += subs.len();
                    x = *base;
                }
                Expr::Unary {
                    op: UnOp::Deref,
                    arg,
                } => {
                    depth += 1;
                    x = *arg;
                }
                Expr::Paren(a) => x = *a,
                // `*(a[i] + j)`, `*(a + i)`: the pointer operand of pointer arithmetic.
                Expr::Binary {
                    op: BinOp::Add | BinOp::Sub,
                    lhs,
                    rhs,
                } => {
                    let pointerish = |e: ExprId| {
                        radtap_dataflow::zones::base_symbol(self.prog(), self.f.p, e).is_some_and(
                            |b| {
                                self.prog().symbols[b]
                                    .ty
                                    .as_ref()
                                    .is_some_and(|t| t.pointers > 0 || !t.dims.is_empty())
                            },
                        )
                    };
                    x = if pointerish(*lhs) { *lhs } else { *rhs };
                }
                Expr::Name(n) => {
                    let Some(t) = self.prog().symbols[*n].ty.as_ref() else {
                        return false;
                    };
                    // The accesses after the array's own dimensions dereference pointers;
                    // all but the first of those were loaded from memory, and so is the
                    // first when it follows an array dimension.
                    let dims = t.dims.len();
                    return t.base == BaseClass::Real
                        && depth >= 2
                        && depth > dims
                        && t.pointers as usize + dims >= depth;
                }
                _ => return false,
            }
        }
    }

    /// An active real value stored through a pointer loaded from memory, or such a pointer
    /// passed to a differentiated procedure (see [`Self::through_loaded_pointer`]).
    fn loaded_pointer_store(&self, s: StmtId) -> Option<String> {
        if self.f.lang != Lang::C {
            return None;
        }
        let st = &self.f.src.stmts[s];
        let varied_here = || {
            self.f.pi.point.iter().enumerate().any(|(j, p)| {
                p.stmt == s
                    && self.f.pi.effects[j]
                        .reads
                        .intersects(&self.f.act.varied_before[j])
            })
        };
        let msg = "real data reached through a pointer loaded from memory (`a[i][j]` with `double **a` or `double *a[n]`, rows allocated one by one) is not differentiated: its derivative would be lost; store the matrix in one block (`a[i*n + j]`)";
        // Targets: the statement's, and those of assignments inside it (`t = a[i][j] = v`).
        let mut targets = Vec::new();
        if let StmtKind::Assign { lhs, .. } = &st.kind {
            targets.push(*lhs);
        }
        let mut todo = Vec::new();
        radtap_il::visit::stmt_children(&st.kind, &mut |e| todo.push(e), &mut |_| {});
        while let Some(e) = todo.pop() {
            if let Expr::Assign { lhs, .. } = &self.f.src.exprs[e] {
                targets.push(*lhs);
            }
            radtap_il::visit::expr_children(&self.f.src.exprs[e], &mut |k| todo.push(k));
        }
        if targets.iter().any(|&t| self.through_loaded_pointer(t)) && varied_here() {
            return Some(msg.to_string());
        }
        match &st.kind {
            _ => {
                let mut args = Vec::new();
                let mut todo = Vec::new();
                radtap_il::visit::stmt_children(&st.kind, &mut |e| todo.push(e), &mut |_| {});
                if let StmtKind::Call { args: a, .. } = &st.kind {
                    args.extend(a.iter().map(|a| a.value));
                }
                while let Some(e) = todo.pop() {
                    if let Expr::Call { args: a, .. } = &self.f.src.exprs[e] {
                        args.extend(a.iter().map(|a| a.value));
                    }
                    radtap_il::visit::expr_children(&self.f.src.exprs[e], &mut |k| todo.push(k));
                }
                // `a[i]` passed where `a[i][j]` would be reached.
                let row = |v: ExprId| {
                    let mut x = v;
                    while let Expr::Paren(a) = &self.f.src.exprs[x] {
                        x = *a;
                    }
                    match &self.f.src.exprs[x] {
                        Expr::Index { base, .. } => {
                            let mut b = *base;
                            while let Expr::Paren(a) = &self.f.src.exprs[b] {
                                b = *a;
                            }
                            matches!(&self.f.src.exprs[b], Expr::Name(n)
                            if self.prog().symbols[*n].ty.as_ref().is_some_and(|t| {
                                t.base == BaseClass::Real
                                    && t.pointers as usize + t.dims.len() >= 2
                                    && t.pointers >= 1
                            }))
                        }
                        _ => false,
                    }
                };
                let differentiated = self.pid(s).is_some_and(|i| self.f.act.has_derivative[i]);
                (differentiated && args.into_iter().any(row)).then(|| msg.to_string())
            }
        }
    }

    /// Whether reference `e` may touch differentiable memory.
    fn differentiable_ref(&self, e: ExprId) -> bool {
        match self.g.info.ref_zones(self.prog(), self.f.p, e) {
            Some(z) => z.intersects(&self.f.pi.zones.differentiable),
            None => matches!(self.kind_of(e), 4 | 8),
        }
    }

    /// C `memcpy`/`memmove`/`memset` into active real data that `radtap_il::memcpy` did not
    /// write as a loop: no rule copies (or clears) the derivatives with the values, so they
    /// would be lost (refused until one does).
    /// Fortran `move_alloc(from, to)` likewise (`to` kept its old derivative: a silently
    /// wrong tangent).
    fn copy_refusal(&self, s: StmtId, name: &str, args: &[Arg]) -> Option<String> {
        let move_alloc = self.f.lang == Lang::Fortran && name == "move_alloc";
        if !move_alloc
            && (self.f.lang != Lang::C || !matches!(name, "memcpy" | "memmove" | "memset"))
        {
            return None;
        }
        let mut x = args.first()?.value;
        while let Expr::Unary {
            op: UnOp::AddrOf,
            arg,
        }
        | Expr::Cast { arg, .. }
        | Expr::Paren(arg) = &self.f.src.exprs[x]
        {
            x = *arg;
        }
        // Through a pointer (`memcpy(y, x, …)` with `y` an argument or a `malloc`'ed block)
        // the reference names the pointer, not the memory: the point's own effects say what
        // it writes (the copy was dropped silently).
        let carries = || {
            self.f.pi.point.iter().enumerate().any(|(j, p)| {
                let e = &self.f.pi.effects[j];
                p.stmt == s
                    && e.writes.intersects(&self.f.pi.zones.differentiable)
                    && (e.reads.intersects(&self.f.act.varied_before[j])
                        || e.writes.intersects(&self.f.act.useful_after[j]))
            })
        };
        let what = if move_alloc {
            "the derivative would not move with the allocation); assign the array instead"
        } else if name == "memset" {
            "the derivatives of what it clears would be kept); clear with a loop"
        } else {
            "the derivatives of what it copies would be lost); copy with a loop"
        };
        ((self.differentiable_ref(x) && self.active_at(s, x)) || carries())
            .then(|| format!("`{name}` of active real data is not differentiated yet ({what}"))
    }

    /// A call expression `e` that no rule keeps right where it stands.
    fn hidden_call(
        &mut self,
        s: StmtId,
        e: ExprId,
        pos: Pos,
        cond: bool,
        differentiated: bool,
    ) -> Option<String> {
        let Expr::Call { callee, args } = &self.f.src.exprs[e] else {
            return None;
        };
        let name = self.callee_name(*callee);
        if let Some(m) = self.copy_refusal(s, &name, args) {
            return Some(m);
        }
        let site = self.expr_call_site(e)?;
        let Callee::Defined(list) = &site.callee else {
            return None;
        };
        let list = list.clone();
        if !list.iter().any(|c| self.g.active.contains(c)) {
            // A function with no derivative stays in the expression: what it writes to real
            // data gets no derivative, and a derivative statement that copies the
            // expression runs it a second time.
            if self.call_writes_differentiable(s, &list) {
                return Some(format!("a reference to `{name}`, which writes real data but is not differentiated, inside an expression is not supported: the derivative of what it writes would be lost; call it in a statement of its own"));
            }
            let effect = list.iter().find_map(|&c| self.side_effect_of(c));
            if let (true, Some(v)) = (differentiated, effect) {
                return Some(format!("a reference to `{name}`, which also writes `{v}`, inside a differentiated expression is not supported: the derivative statement would run it a second time; call it in a statement of its own"));
            }
            return None;
        }
        match pos {
            Pos::Value if cond => Some(format!("a call to the differentiated function `{name}` in an operand evaluated only on a condition (`?:`, `&&`, `||`) is not supported: its derivative would be computed unconditionally; compute it in an `if` statement of its own")),
            Pos::Value => None,
            Pos::Control | Pos::Target => {
                if self.call_writes_differentiable(s, &list) {
                    Some(format!("a call to `{name}`, which writes real data, inside a condition, bound or subscript is not supported: the derivative of what it writes would be lost; call it in a statement of its own"))
                } else {
                    None
                }
            }
        }
    }

    /// A variable outside the function `c` that it may write, if any (`Gen::effect_of`).
    pub fn side_effect_of(&self, c: UnitId) -> Option<String> {
        self.g.effect_of(c)
    }

    /// Whether a function reference of statement `s` to one of `callees` may write
    /// differentiable memory of the caller (through its arguments or globals).
    pub fn call_writes_differentiable(&self, s: StmtId, callees: &[UnitId]) -> bool {
        let mut found_map = false;
        let deriv = self.g.deriv_zones(self.f.p);
        for (j, p) in self.f.pi.point.iter().enumerate() {
            if p.stmt != s {
                continue;
            }
            for m in &self.f.pi.effects[j].call_maps {
                if !m.in_expr || !callees.contains(&m.callee) {
                    continue;
                }
                found_map = true;
                let Some(ci) = self.g.info.procs.get(&m.callee) else {
                    return true;
                };
                for z in ci.summary.writes.iter() {
                    let Some(Some(tgt)) = m.tgt.get(z.0 as usize) else {
                        continue;
                    };
                    // Only memory with a derivative in this procedure would lose it: a
                    // SAVEd table the function fills from constants is real data that is
                    // active nowhere here (nothing to keep up to date).
                    if tgt
                        .iter()
                        .any(|&t| self.f.pi.zones.differentiable.contains(t) && deriv.contains(t))
                    {
                        return true;
                    }
                }
            }
        }
        if found_map {
            return false;
        }
        // No map for this call: any differentiable write of a callee counts.
        callees.iter().any(|c| {
            self.g
                .info
                .procs
                .get(c)
                .is_none_or(|ci| ci.summary.writes.intersects(&ci.zones.differentiable))
        })
    }
}

impl<'a> ProcGen<'_, 'a> {
    /// Whether `e` holds a reference to a differentiated function.
    pub fn has_differentiated_call(&self, e: ExprId) -> bool {
        if matches!(self.f.src.exprs[e], Expr::Call { .. }) && self.is_differentiated_call(e) {
            return true;
        }
        let mut kids = Vec::new();
        radtap_il::visit::expr_children(&self.f.src.exprs[e], &mut |k| kids.push(k));
        kids.into_iter().any(|k| self.has_differentiated_call(k))
    }

    /// Whether `e` or an expression inside it is a reference active at the current point.
    pub(crate) fn active_inside(&self, e: ExprId) -> bool {
        if self.ref_in(e, &self.cur) {
            return true;
        }
        let mut kids = Vec::new();
        radtap_il::visit::expr_children(&self.f.src.exprs[e], &mut |k| kids.push(k));
        kids.into_iter().any(|k| self.active_inside(k))
    }
}
