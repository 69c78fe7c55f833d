//! Tangent rules for calls, C `return`, memory statements, declarations with
//! initialisers.

use crate::prelude::*;

impl<'a> Tan<'_, '_, 'a> {
    /// `free(d)` (`f` the callee's name).
    fn free_call(&mut self, f: ExprId, d: ExprId) -> StmtId {
        self.u.stmts.alloc(Stmt {
            kind: StmtKind::Call {
                callee: f,
                args: vec![Arg {
                    keyword: None,
                    value: d,
                }],
                no_parens: false,
            },
            label: None,
            construct_name: None,
            directives: vec![],
            comment: None,
            omp: None,
        })
    }

    /// `call g(a…)`: `call g_d(a, ȧ, …)` when the call point is active and `g` has a
    /// derivative version; otherwise the primal call.
    pub(crate) fn call_rule(&mut self, s: StmtId, callee: ExprId, args: &'a [Arg]) -> Vec<StmtId> {
        if self.f.vector && self.f.lang == Lang::C && self.by_value_changed_by_call(s, args, true) {
            let msg = "in vector mode, passing by value what the call changes (`g(z, &z)`) is not supported: the derivative of the value is passed by address and the call overwrites it; pass a copy (`t = z; g(t, &z);`)";
            self.error(s, Code::Unsupported, msg);
            return vec![self.copy_stmt(s)];
        }
        if self.f.lang == Lang::C && self.callee_name(callee) == "free" {
            if let [a] = args {
                // The derivative twin of a freed pointer was allocated with it (`malloc`
                // twins, caller-owned buffers alike): freed with it.
                if let Some(d) = self.dptr(a.value) {
                    let primal = self.copy_stmt(s);
                    let f = self.b().opaque("free");
                    let call = self.free_call(f, d);
                    return vec![primal, call];
                }
            }
        }
        // `delete_matrix(m)`: the shadow is freed the way the primal is (`shadow.rs`).
        if let (Some(d), [a]) = (self.deallocator_of(callee), args) {
            if let Some(frees) = self.deallocator_frees(&d, a.value) {
                let mut out = vec![self.copy_stmt(s)];
                out.extend(frees);
                return out;
            }
        }
        // `delete_light_matrix_array(m, count)`: each record's shadow members, in a loop,
        // then the shadow block. Tangent only (the adjoint refuses it, `heap_records.rs`).
        if let Some(d) = self.deallocator_of(callee).filter(|d| d.each.is_some()) {
            if let Some(frees) = self.deallocator_frees_each(callee, &d, args) {
                let mut out = vec![self.copy_stmt(s)];
                out.extend(frees);
                return out;
            }
        }
        let Some(i) = self.pid(s) else {
            return vec![self.copy_stmt(s)];
        };
        self.cur = self.f.act.active_before[i].clone();
        let site = self.stmt_call_site(s);
        let mut out = Vec::new();
        self.hoisted.clear();
        for a in args {
            self.hoist_calls(s, a.value, &mut out);
        }
        let active_point = self.f.act.has_derivative[i];
        match site.map(|x| &x.callee) {
            Some(Callee::Defined(list))
                if (active_point && list.iter().any(|c| self.g.active.contains(c)))
                    || list.iter().any(|c| self.g.allocating.contains(c))
                    || (list.iter().any(|c| self.g.member_setters.contains(c))
                        && args.iter().any(|a| self.has_shadow(a.value)))
                    || list.iter().any(|&c| self.writes_global_derivative(c)) =>
            {
                if list.len() != 1 {
                    let msg = format!(
                        "{} is not differentiated yet; call the specific procedure",
                        self.several_procedures(callee)
                    );
                    self.error(s, Code::Unsupported, &msg);
                    return vec![self.copy_stmt(s)];
                }
                let c = list[0];
                self.warn_aliased_args(s, c, args);
                let mut pre = Vec::new();
                let mut new_args = self.derivative_args(s, c, args, &mut pre);
                out.extend(pre);
                // A C function called for what it writes, its result dropped
                // (`scale(x, n);`): its derivative still takes the primal result's address
                // last (and the result's derivative in vector mode), as when it is hoisted
                // out of an expression; the call left them out and did not compile.
                let result = self.prog().units[c]
                    .result
                    .filter(|_| self.f.lang == Lang::C);
                if let Some(r) = result {
                    let temps = self.result_temps(c, r, args);
                    self.result_args(r, temps, &None, &mut new_args);
                }
                if self.f.vector {
                    let nb = {
                        let v = self.nbdirs.expect("vector");
                        self.b().name(v)
                    };
                    // After an omitted OPTIONAL argument or a keyword argument, `nbdirs`
                    // goes by keyword (the callee's dummy is named `nbdirs` too).
                    let by_kw = self.f.lang == Lang::Fortran
                        && (args.len() < self.prog().units[c].params.len()
                            || args.iter().any(|a| a.keyword.is_some()));
                    new_args.push(Arg {
                        keyword: by_kw.then(|| "nbdirs".to_string()),
                        value: nb,
                    });
                }
                let callee = {
                    let v = self.g.dproc[&c];
                    self.b().name(v)
                };
                let st = &self.f.src.stmts[s];
                let call = self.new_like(
                    st,
                    StmtKind::Call {
                        callee,
                        args: new_args,
                        no_parens: false,
                    },
                );
                out.push(call);
                out.append(&mut self.post_call);
            }
            Some(Callee::External(name)) if active_point => {
                let msg = radtap_diff_gen::no_body_message(self.g.prog, name);
                self.error(s, Code::NoDerivative, &msg);
                out.push(self.copy_stmt(s));
            }
            callee => {
                if let Some(Callee::Defined(list)) =
                    callee.filter(|c| matches!(c, Callee::Defined(l) if l.len() == 1))
                {
                    if let Some(msg) = radtap_diff_gen::mpi::passive_message(
                        self.prog(),
                        self.f.src,
                        list[0],
                        args,
                    ) {
                        self.error(s, Code::Unsupported, &msg);
                    }
                }
                let c = self.copy_stmt(s);
                out.push(c);
                let callee = callee.cloned();
                self.reset_after_primal_call(s, i, args, callee.as_ref(), &mut out);
            }
        }
        self.hoisted.clear();
        out
    }

    /// After a call copied as primal code at point `i` (nothing it reads varies, or its
    /// callee has no derivative): what it overwrites has a zero derivative, and where that
    /// derivative is read later it must be written — `yd` accumulated into by a loop after
    /// a `clear(y)` kept the caller's garbage. A callee with source that only writes what
    /// it is given gets a derivative for that (the activity's `resets`); here, what the
    /// call overwrites whole is zeroed after it, and anything else refused.
    fn reset_after_primal_call(
        &mut self,
        s: StmtId,
        i: usize,
        args: &[Arg],
        callee: Option<&Callee>,
        out: &mut Vec<StmtId>,
    ) {
        let mut needed = self.f.pi.effects[i].writes.and(&self.f.act.useful_after[i]);
        needed.intersect_with(&self.g.deriv_zones(self.f.p));
        if needed.is_empty() {
            return;
        }
        let (covered, _) = self.zero_overwritten_args(s, i, args, &needed, out);
        needed.subtract(&covered);
        if needed.is_empty() {
            return;
        }
        let zones = &self.f.pi.zones;
        let mut names = Vec::new();
        for a in args {
            let Some(x) = radtap_dataflow::zones::base_symbol(self.prog(), self.f.p, a.value)
            else {
                continue;
            };
            let mut reach = zones.sym_zones(x).unwrap_or_else(|| zones.empty());
            if let Some(o) = zones.objects.get(&ObjKey::Pointee(x)) {
                reach.union_with(&zones.obj_set(o));
            }
            let name = &self.prog().symbols[x].spelling;
            if reach.intersects(&needed) && !names.contains(name) {
                names.push(name.clone());
            }
        }
        let what = if names.is_empty() {
            "a global variable".to_string()
        } else {
            names
                .iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let why = match callee {
            Some(Callee::External(name)) => format!("`{name}` has no source to differentiate"),
            Some(Callee::Defined(l)) if l.len() == 1 => format!(
                "`{}` reads what it overwrites, so its derivative would read the derivative the caller left there",
                unit_name(self.prog(), l[0])
            ),
            _ => "only a scalar or a whole Fortran array the call certainly overwrites can be zeroed after it".to_string(),
        };
        let msg = format!("this call is not differentiated (nothing it reads varies), but it overwrites {what}, whose derivative is read later and must be reset to zero: {why}; set the values with an assignment or a loop in this routine, or make the argument an independent");
        self.error(s, Code::Unsupported, &msg);
    }

    /// C `return e` of a function: `*f = e; return ė;` (vector: `ḟ[nd] = ė` per direction,
    /// `*f = e; return;`).
    pub(crate) fn c_return(&mut self, s: StmtId, e: ExprId) -> Vec<StmtId> {
        let Some(i) = self.pid(s) else {
            return vec![self.copy_stmt(s)];
        };
        self.cur = self.f.act.active_before[i].clone();
        self.hoisted.clear();
        let mut out = Vec::new();
        self.hoist_calls(s, e, &mut out);
        let n_hoisted = out.len();
        let rp = self.result_ptr.expect("C function");
        let k = self.real_kind(e);
        self.collect_shared(e);
        let d = self.tan(e);
        let d = match d {
            Some(d) => d,
            None => self.b().zero(k),
        };
        if self.f.vector {
            let r = self.f.src.result.expect("function");
            if let Some(&rd) = self.dvar.get(&r) {
                let l = self.dvec_name(rd);
                let st = assign(&mut self.u, l, d);
                let v = self.dir(vec![st]);
                out.extend(v);
            }
        }
        self.pre.clear();
        let pv = self.cp(e);
        let rpn = self.b().name(rp);
        let deref = self.b().e(Expr::Unary {
            op: UnOp::Deref,
            arg: rpn,
        });
        out.push(assign(&mut self.u, deref, pv));
        let ret = if self.f.vector { None } else { Some(d) };
        out.push(stmt(&mut self.u, StmtKind::Return(ret)));
        let defs = self.resolve_shared();
        out.splice(n_hoisted..n_hoisted, defs);
        self.hoisted.clear();
        out
    }

    /// A C declaration statement: the primal declaration, then the derivatives of its
    /// entities (initialised with the tangent of the initialiser).
    pub(crate) fn decl_rule(&mut self, s: StmtId, d: &'a Decl) -> Vec<StmtId> {
        let Decl::Var(v) = d else {
            return vec![self.copy_stmt(s)];
        };
        // A declarator's initialiser may read the declarator before it: when a call is
        // hoisted, each declarator becomes a declaration of its own, in order.
        let split = v.entities.len() > 1
            && v.entities
                .iter()
                .any(|e| matches!(e.init, Some(Init::Expr(x)) if self.has_differentiated_call(x)));
        let mut out = Vec::new();
        if split {
            for e in &v.entities {
                let mut one = v.clone();
                one.entities = vec![e.clone()];
                out.extend(self.var_decl_rule(s, &one));
            }
        } else {
            out = self.var_decl_rule(s, v);
        }
        self.hoisted.clear();
        out
    }

    /// [`Self::decl_rule`] for the declarators of `v`: references to differentiated functions
    /// in the initialisers are hoisted like those of an assignment (`ṫ = f_d(a, ȧ, &t)`
    /// before the declaration, which reads `t`).
    fn var_decl_rule(&mut self, s: StmtId, v: &VarDecl) -> Vec<StmtId> {
        if let Some(msg) = self.pointer_array_refusal(v) {
            self.error(s, Code::Unsupported, &msg);
            return vec![self.copy_stmt(s)];
        }
        let pid = self.pid(s);
        self.hoisted.clear();
        let mut out = Vec::new();
        if let Some(i) = pid {
            self.cur = self.f.act.active_before[i].clone();
            for e in &v.entities {
                if let Some(Init::Expr(x)) = e.init {
                    self.hoist_calls(s, x, &mut out);
                }
            }
        }
        let c = Copier { src: self.f.src };
        let Decl::Var(mut pd) = c.decl(&mut self.u, &Decl::var(v.clone())) else {
            unreachable!("a variable declaration copies to one")
        };
        if !self.hoisted.is_empty() {
            for (pe, e) in pd.entities.iter_mut().zip(&v.entities) {
                if let Some(Init::Expr(x)) = e.init {
                    pe.init = Some(Init::Expr(self.cp(x)));
                }
            }
        }
        let st = &self.f.src.stmts[s];
        let primal = self.new_like(st, StmtKind::Decl(Decl::Var(pd)));
        out.push(primal);
        let Some(mut dv) = self.derivative_decl(v, &c) else {
            return out;
        };
        let mut after = Vec::new();
        for e in dv.entities.iter_mut() {
            // The primal entity this derivative belongs to.
            let Some(prim) = v
                .entities
                .iter()
                .find(|pe| self.dvar.get(&pe.sym) == Some(&e.sym))
            else {
                continue;
            };
            let Some(Init::Expr(init)) = prim.init else {
                e.init = None;
                continue;
            };
            let is_ptr = self.prog().symbols[prim.sym]
                .ty
                .as_ref()
                .is_some_and(|t| t.pointers > 0);
            let record = self.prog().symbols[prim.sym].ty.as_ref().is_some_and(|t| {
                matches!(t.base, BaseClass::Record(_)) && t.pointers == 0 && t.dims.is_empty()
            });
            if record && matches!(self.f.src.exprs[init], Expr::ArrayCtor { .. }) {
                // A struct's brace list is positional over all its members; the derivative
                // struct has only the active ones (`{0.0, 0.0, 0}` gave it one too many, and
                // an active list would put values in the wrong members).
                let active = pid.is_some_and(|i| {
                    self.f.act.active_after[i].intersects(
                        &self
                            .f
                            .pi
                            .zones
                            .sym_zones(prim.sym)
                            .unwrap_or_else(|| self.f.pi.zones.empty()),
                    )
                });
                if active && self.tan(init).is_some() {
                    self.error(s, Code::Unsupported, "a brace initializer of a struct with values that carry derivatives is not supported; assign its members one by one");
                }
                let z = self.b().int(0);
                let all = self.b().e(Expr::ArrayCtor {
                    items: vec![z],
                    old_style: false,
                    type_spec: None,
                });
                e.init = Some(Init::Expr(all));
                continue;
            }
            let val = if is_ptr {
                // `Matrix *m = get_new_matrix(r, c);`: the shadow block, then its members
                // (`shadow.rs`).
                let d = if self.allocator_of(init).is_some() {
                    let d = self.allocator_block(init, Some(prim.sym));
                    if d.is_some() {
                        let members = self.allocator_members(init, Some(prim.sym), e.sym);
                        after.extend(members);
                    }
                    d
                } else {
                    self.dptr(init)
                };
                // A derivative pointer that cannot follow its primal would be read unset.
                self.lost_derivative |= d.is_none();
                d
            } else {
                let active = pid.is_some_and(|i| {
                    self.f.act.active_after[i].intersects(
                        &self
                            .f
                            .pi
                            .zones
                            .sym_zones(prim.sym)
                            .unwrap_or_else(|| self.f.pi.zones.empty()),
                    )
                });
                let t = if active { self.tan(init) } else { None };
                Some(match t {
                    Some(t) => t,
                    None => {
                        let k = self.bytes_of_sym(prim.sym);
                        // A C record holds its directions at its leaves: initialised whole,
                        // as in scalar mode (`struct Split_d td = sd;`).
                        if self.f.vector && !(record && self.f.lang == Lang::C) {
                            self.b().zero(k)
                        } else {
                            self.zero_like(init, k)
                        }
                    }
                })
            };
            if self.f.vector && self.f.lang == Lang::C && self.prog().symbols[prim.sym].attrs.save {
                // A `static` local's initialiser is a constant, run once before the program
                // runs: its derivative is zero, as static storage starts (filling it at each
                // call cut the recurrence of the derivative).
                e.init = None;
                continue;
            }
            if self.f.vector && !is_ptr && self.f.lang == Lang::C {
                if let Expr::ArrayCtor { items, .. } = &self.f.src.exprs[init] {
                    // `vd[j][nd] = ẋⱼ` for each item of a flat brace list; a passive list
                    // leaves the derivative zero-initialised (as are the elements past the
                    // list: `{{0.0}}`).
                    let k = self.bytes_of_sym(prim.sym);
                    let z = self.b().zero(k);
                    let row = self.b().e(Expr::ArrayCtor {
                        items: vec![z],
                        old_style: false,
                        type_spec: None,
                    });
                    let all = self.b().e(Expr::ArrayCtor {
                        items: vec![row],
                        old_style: false,
                        type_spec: None,
                    });
                    e.init = Some(Init::Expr(all));
                    let flat = items.iter().all(|&i| {
                        !matches!(
                            self.f.src.exprs[i],
                            Expr::ArrayCtor { .. } | Expr::Designated { .. }
                        )
                    });
                    if !flat {
                        self.lost_value = Some("a nested or designated brace initializer");
                        continue;
                    }
                    let mut body = Vec::new();
                    for (j, &item) in items.iter().enumerate() {
                        let t = if val.is_some() { self.tan(item) } else { None };
                        let t = t.unwrap_or_else(|| self.b().zero(k));
                        let n = self.b().name(e.sym);
                        let jj = self.b().int(j as i64);
                        let nd = self.nd_index();
                        let l = self
                            .b()
                            .index(n, vec![Subscript::Index(jj), Subscript::Index(nd)]);
                        body.push(assign(&mut self.u, l, t));
                    }
                    after.extend(self.dir(body));
                    continue;
                }
            }
            if self.f.vector && !is_ptr && !(record && self.f.lang == Lang::C) {
                e.init = None;
                if let Some(val) = val {
                    let n = self.b().name(e.sym);
                    let nd = self.nd_index();
                    let l = self.b().index(n, vec![Subscript::Index(nd)]);
                    let st = assign(&mut self.u, l, val);
                    let w = self.dir(vec![st]);
                    after.extend(w);
                }
            } else {
                e.init = val.map(Init::Expr);
            }
        }
        self.pre.clear();
        if !after.is_empty() {
            // Vector derivatives are filled by direction loops after the declaration.
            dv.spec.qualifiers.retain(|q| q != "const");
        }
        out.push(stmt(&mut self.u, StmtKind::Decl(Decl::var(dv))));
        out.extend(after);
        out
    }
}
