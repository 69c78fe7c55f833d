//! Tangent statement rules: the statement dispatch, assignments (`v̇ = Σ ∂e/∂xᵢ·ẋᵢ`),
//! vector-mode direction loops, hoisted function references (shared sub-expressions:
//! `sharing.rs`).

use super::*;

// ---------------------------------------------------------------------- statements

impl<'a> ProcGen<'_, 'a> {
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
                    && (args.iter().any(|a| self.active_ref_or_expr(a.value))
                        || self.assigns_active(s)) =>
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

    /// Whether `s` assigns a reference active before or after it: a call there to one of
    /// several procedures may carry a derivative through what they read besides their
    /// arguments (a COMMON block: QUADPACK's integrands `f(x)` of a parameter in COMMON,
    /// passed to a rule that could not be specialised, whose derivative was silently zero).
    fn assigns_active(&self, s: StmtId) -> bool {
        match &self.f.src.stmts[s].kind {
            StmtKind::Assign { lhs, .. } => self.active_at(s, *lhs),
            _ => false,
        }
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
