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
        radtap_il::visit::same_expr(self.f.src, a, b)
    }

    pub fn pid(&self, s: StmtId) -> Option<usize> {
        self.f.pi.point_id(Point {
            stmt: s,
            part: Part::Whole,
        })
    }

    pub fn copy_stmt(&mut self, s: StmtId) -> StmtId {
        Copier { src: self.f.src }.stmt(&mut self.u, s)
    }

    pub fn b(&mut self) -> B<'_> {
        B {
            u: &mut self.u,
            lang: self.f.lang,
        }
    }

    /// Wraps derivative statements in a loop over directions (vector mode), after the
    /// partials computed for them.
    pub fn dir(&mut self, stmts: Vec<StmtId>) -> Vec<StmtId> {
        let mut out = std::mem::take(&mut self.pre);
        if !self.f.vector || stmts.is_empty() || self.deriv_only {
            out.extend(stmts);
            return out;
        }
        let (nd, nb) = (self.nd.expect("vector"), self.nbdirs.expect("vector"));
        let lp = match self.f.lang {
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
        self.f
            .src
            .source_map
            .stmt
            .get(s)
            .copied()
            .unwrap_or_default()
    }

    pub fn warn(&mut self, s: StmtId, code: Code, msg: &str) {
        let sp = self.span(s);
        self.g.diags.push(Diagnostic::warning(code, sp, msg));
    }

    pub fn error(&mut self, s: StmtId, code: Code, msg: &str) {
        let sp = self.span(s);
        self.g.diags.push(Diagnostic::error(code, sp, msg));
    }

    pub fn check_side_effects(&mut self, s: StmtId) {
        let Some(i) = self.pid(s) else { return };
        if self.f.pi.effects[i]
            .writes
            .intersects(&self.f.act.active_after[i])
            && self.f.pi.effects[i]
                .writes
                .intersects(&self.f.pi.zones.differentiable)
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
            .ref_zones(self.prog(), self.f.p, e)
            .is_some_and(|z| z.intersects(set))
    }

    pub fn has_dvar_ref(&self, e: ExprId) -> bool {
        radtap_dataflow::zones::base_symbol(self.prog(), self.f.p, e)
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
            self.f.src.exprs[e],
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
        match &self.f.src.exprs[e] {
            Expr::Literal(l) => {
                let t = l.text.to_ascii_lowercase();
                match self.f.lang {
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
            } => match radtap_dataflow::zones::base_symbol(self.prog(), self.f.p, e) {
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
        match &self.f.src.exprs[callee] {
            Expr::Name(s) => self.prog().symbols[*s].spelling.to_ascii_lowercase(),
            Expr::Opaque(s) => s.to_ascii_lowercase(),
            _ => String::new(),
        }
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

    pub fn primal_assign(
        &mut self,
        s: StmtId,
        lhs: ExprId,
        op: Option<BinOp>,
        rhs: ExprId,
    ) -> StmtId {
        let l = self.cp(lhs);
        let r = self.cp(rhs);
        let st = &self.f.src.stmts[s];
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
            return Copier { src: self.f.src }.expr(&mut self.u, e);
        }
        let mut node = self.f.src.exprs[e].clone();
        if let Expr::Cast { arg, .. } = self.f.src.exprs[e] {
            // The type is copied as is; the operand may hold a hoisted reference.
            let c = Copier { src: self.f.src }.expr(&mut self.u, e);
            let a = self.cp(arg);
            if let Expr::Cast { arg: slot, .. } = &mut self.u.exprs[c] {
                *slot = a;
            }
            return c;
        }
        if matches!(node, Expr::CompoundLit { .. } | Expr::SizeofType(_)) {
            return Copier { src: self.f.src }.expr(&mut self.u, e);
        }
        expr_slots(&mut node, &mut |slot| *slot = self.cp(*slot));
        self.u.exprs.alloc(node)
    }

    /// The call site of the function reference `e` in this procedure.
    pub fn expr_call_site(&self, e: ExprId) -> Option<&'a CallSite> {
        let info: &'a radtap_dataflow::ProgramInfo = self.g.info;
        info.callgraph.expr_site(self.f.p, e)
    }

    /// The call site of the call statement `s` in this procedure.
    pub fn stmt_call_site(&self, s: StmtId) -> Option<&'a CallSite> {
        let info: &'a radtap_dataflow::ProgramInfo = self.g.info;
        info.callgraph.stmt_site(self.f.p, s)
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
        let Expr::Call { args, callee } = &self.f.src.exprs[e] else {
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
                let msg = match &self.f.src.exprs[callee] {
                    Expr::Name(sym) if self.f.src.params.contains(sym) => format!(
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
                    let stmt_function = self.f.src.decls.iter().any(|d| {
                        matches!(d, Decl::StmtFunction { name: f, .. }
                            if self.g.prog.symbols[*f].spelling.eq_ignore_ascii_case(name))
                    });
                    let constructor = self.f.lang == Lang::Fortran
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
                || (self.f.lang == Lang::C && t.base == BaseClass::Opaque)
        });
        if record {
            // The result temporaries and the derivative's return type are scalars: the
            // output did not compile.
            return Some(if self.f.lang == Lang::C {
                format!("a reference to the function `{name}`, which returns a struct by value, is not differentiated yet; return it through a pointer argument")
            } else {
                format!("a reference to the function `{name}`, whose result is of derived type, is not differentiated yet; make it a subroutine with an intent(out) argument")
            });
        }
        if let Some(t) = prog.symbols[r].ty.as_ref().filter(|t| !t.dims.is_empty()) {
            // The result temporaries are shaped like the result, written over the actuals
            // (`qsat(ix,il)`, `r(n)`, `r(size(v))`).
            let bounds_known = t.dims.iter().all(|d| self.callee_dim_ok(c, d, args));
            if self.f.lang != Lang::Fortran || !bounds_known {
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
        if self.f.lang != Lang::Fortran || positional {
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

    /// A C pointer with a derivative pointer whose own address statement `s` takes (`&p`,
    /// `&(p)`, in its own expressions, not in nested statements).
    fn derivative_pointer_address(&self, s: StmtId) -> Option<String> {
        if self.f.lang != Lang::C {
            return None;
        }
        let src = self.f.src;
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

    fn active_ref_or_expr(&mut self, e: ExprId) -> bool {
        let cur = self.cur.clone();
        if self.ref_in(e, &cur) {
            return true;
        }
        let mut any = false;
        let mut kids = Vec::new();
        radtap_il::visit::expr_children(&self.f.src.exprs[e], &mut |k| kids.push(k));
        for k in kids {
            any |= self.active_ref_or_expr(k);
        }
        any
    }
}
