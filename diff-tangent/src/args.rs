//! The derivative arguments of a call to a differentiated procedure: each actual's
//! derivative, a zero temporary for an inactive actual whose formal has one, a temporary
//! holding an active expression's tangent.

use crate::prelude::*;

impl<'a> Tan<'_, '_, 'a> {
    /// The argument list of a call to `c`'s derivative: each actual, followed by its
    /// derivative when the formal has one (a zero temporary for an inactive actual, a
    /// temporary holding the tangent of an active expression).
    pub(crate) fn derivative_args(
        &mut self,
        s: StmtId,
        c: UnitId,
        args: &'a [Arg],
        pre: &mut Vec<StmtId>,
    ) -> Vec<Arg> {
        let cu = &self.prog().units[c];
        let flags = self.g.dparams[&c].clone();
        let cinfo = &self.g.info.procs[&c];
        let cvaried = cinfo.activity.as_ref().map(|a| a.varied_in.clone());
        let mut out = Vec::new();
        for (k, a) in args.iter().enumerate() {
            let fi = match &a.keyword {
                Some(kw) => cu
                    .params
                    .iter()
                    .position(|&p| self.prog().symbols[p].spelling.eq_ignore_ascii_case(kw))
                    .unwrap_or(k),
                None => k,
            };
            let v = self.cp(a.value);
            out.push(Arg {
                keyword: a.keyword.clone(),
                value: v,
            });
            if !flags.get(fi).copied().unwrap_or(false) {
                continue;
            }
            let formal = cu.params[fi];
            let formal_read = cvaried
                .as_ref()
                .zip(cinfo.zones.sym_zones(formal))
                .is_some_and(|(v, z)| v.intersects(&z))
                || cinfo
                    .zones
                    .objects
                    .get(&ObjKey::Pointee(formal))
                    .zip(cvaried.as_ref())
                    .is_some_and(|(o, v)| cinfo.zones.obj_set(o).intersects(v));
            let formal_ty = self.prog().symbols[formal].ty.clone();
            let formal_array = formal_ty.as_ref().is_some_and(|t| !t.dims.is_empty());
            let by_pointer = self.f.lang == Lang::C
                && formal_ty
                    .as_ref()
                    .is_some_and(|t| t.pointers > 0 || !t.dims.is_empty());
            // C vector mode: the directions of a by-value real parameter are an array of
            // its own type; a `double` actual's (`xd[0]`) taken as a `float` one's read
            // the bytes wrongly.
            let other_kind = self.f.lang == Lang::C
                && self.f.vector
                && !by_pointer
                && formal_ty.as_ref().is_some_and(|t| {
                    t.base == BaseClass::Real && t.bytes != Some(self.real_kind(a.value))
                })
                && self.has_dvar_ref(a.value);
            if other_kind {
                self.error(s, Code::Unsupported, "in vector mode, a real argument of another precision than its parameter (a `double` given to a `float`) is not supported yet; convert it into a variable of the parameter's type first");
            }
            let kw = a
                .keyword
                .as_ref()
                .map(|k| self.g.dummy_name(&pattern(&self.g.opts.var_pattern, k)));
            let site = (c, fi, args);
            let d = self.derivative_actual(
                s,
                a.value,
                (formal_array, by_pointer, formal_read),
                site,
                pre,
            );
            out.push(Arg {
                keyword: kw,
                value: d,
            });
        }
        self.mpi_error_arg(c, args, &mut out);
        out
    }

    pub(crate) fn derivative_actual(
        &mut self,
        s: StmtId,
        a: ExprId,
        (formal_array, by_pointer, formal_read): (bool, bool, bool),
        site: (UnitId, usize, &'a [Arg]),
        pre: &mut Vec<StmtId>,
    ) -> ExprId {
        let src = self.f.src;
        let is_ref = self.g.info.ref_zones(self.prog(), self.f.p, a).is_some();
        let base = radtap_dataflow::zones::base_symbol(self.prog(), self.f.p, a);
        let has = base.is_some_and(|b| self.dvar.contains_key(&b));
        let cur = self.cur.clone();
        // Fortran, vector mode: an array component of a record with a derivative
        // (`f(m%p)`): the derivative is an array of records, one per direction, so
        // `md(:)%p` is no actual argument (two part references with nonzero rank).
        if self.f.lang == Lang::Fortran
            && self.f.vector
            && has
            && self.names_member(a)
            && self.rank_of(a) > 0
        {
            self.error(s, Code::Unsupported, "in vector mode, passing an array component of a record with a derivative (`m%p`) to a procedure is not supported yet (its derivative is one record per direction); copy it into an array first");
            return self.b().zero(8);
        }
        // C: an address (`x`, `&v`, `a + i`) passes the derivative address.
        if self.f.lang == Lang::C && by_pointer {
            // A record member (`s.y`, `p->data + k`): the derivative record holds the
            // member's directions innermost (`double (*data)[NBDirsMax]`), so its address
            // is what the callee takes, as for a variable.
            if let Some(d) = self.dptr(a) {
                return d;
            }
            // An inactive array or scalar: a zero temporary like it.
            let Some(like) = base else {
                self.error(s, Code::Unsupported, "this pointer argument designates no variable (a null or computed address) but the callee's derivative needs one; pass a variable");
                return self.b().zero(8);
            };
            // A record whose members point to blocks: a zero record with blocks of zeros
            // as large as the callee reads (`shadow.rs`).
            if let Some(z) = self.zero_record_shadow(a, like, site, pre) {
                return z;
            }
            if self.refuse_passive_pointer_actual(s, like) {
                return self.b().zero(8);
            }
            let t = self.temp(
                "dummyzero",
                TempKind::Like {
                    sym: like,
                    deriv: true,
                },
            );
            let tn = self.b().name(t);
            let is_scalar = self.prog().symbols[like]
                .ty
                .as_ref()
                .is_some_and(|t| t.dims.is_empty() && t.pointers == 0);
            // A scalar's temporary by its address; in vector mode that is the address of
            // its direction array (`double (*)[NBDirsMax]`), as for a variable.
            return if is_scalar {
                self.b().e(Expr::Unary {
                    op: UnOp::AddrOf,
                    arg: tn,
                })
            } else {
                tn
            };
        }
        if is_ref && has {
            let dir = if !self.f.vector {
                Dir::Nd
            } else {
                match &src.exprs[a] {
                    Expr::Name(_) => Dir::Omit,
                    Expr::Index { subs, .. }
                        if subs.iter().all(|x| matches!(x, Subscript::Index(_))) =>
                    {
                        if formal_array {
                            Dir::First
                        } else {
                            Dir::All
                        }
                    }
                    _ => Dir::All,
                }
            };
            if formal_read && !self.ref_in(a, &cur) {
                // Implicit zero: the derivative variable may hold a stale value.
                let k = self.real_kind(a);
                let record = self.record_of(a).filter(|_| self.f.lang == Lang::Fortran);
                // C vector mode: a direction loop (`ad = 0.0` on the array `ad[NBDirsMax]`
                // did not compile; NLopt's `levy`); Fortran clears `ad(:)` at once.
                let c_vector = self.f.vector && self.f.lang == Lang::C;
                // A record: direction by direction too (`md(:)%xy = 0` is no Fortran when
                // the component `xy` is an array).
                let whole = if self.f.vector && !c_vector && record.is_none() {
                    Dir::All
                } else {
                    Dir::Nd
                };
                if let Some(dl) = self.dref(a, whole) {
                    // An assumed-size array passed whole to an array dummy: the elements
                    // the dummy declares (`Yd = 0` on `Y(*)` did not compile).
                    let dl = if formal_array && self.f.lang == Lang::Fortran && record.is_none() {
                        match self.dummy_section(s, a, dl, site) {
                            Some(d) => d,
                            None => return self.b().zero(k),
                        }
                    } else {
                        dl
                    };
                    match record {
                        Some(td) if self.f.vector => {
                            let z = self.zero_record_leaves(dl, td);
                            let v = self.dir(z);
                            pre.extend(v);
                        }
                        Some(td) => pre.extend(self.zero_record_leaves(dl, td)),
                        None => {
                            let z = self.b().zero(k);
                            let st = assign(&mut self.u, dl, z);
                            if c_vector {
                                let v = self.dir(vec![st]);
                                pre.extend(v);
                            } else {
                                pre.push(st);
                            }
                        }
                    }
                }
            }
            let d = self.dref(a, dir);
            if let Some(d) = d {
                return d;
            }
        }
        // An expression or an inactive variable: a temporary.
        let k = self.real_kind(a);
        let tan = if formal_array { None } else { self.tan(a) };
        match tan {
            Some(d) => {
                let kind = self.deriv_temp_kind(a, k);
                let t = self.temp("argd", kind);
                let l = self.dvec_name(t);
                let st = assign(&mut self.u, l, d);
                let v = self.dir(vec![st]);
                pre.extend(v);
                self.b().name(t)
            }
            None => {
                if self.f.lang == Lang::C && !self.f.vector {
                    return self.b().zero(k);
                }
                let kind = match base {
                    Some(b) if formal_array && is_ref => TempKind::Like {
                        sym: b,
                        deriv: true,
                    },
                    _ => self.deriv_temp_kind(a, k),
                };
                if formal_array
                    && !matches!(src.exprs[a], Expr::Name(_))
                    && !(is_ref && self.zeroed_like_base(a, base))
                {
                    // An element or section is inactive here; any other actual is an
                    // expression (`1.1*t`, `-g`), which may well be active.
                    let msg = if matches!(src.exprs[a], Expr::Index { .. } | Expr::Field { .. }) {
                        "an inactive array element or section passed to an array dummy that has a derivative is not supported yet; pass a whole array"
                    } else {
                        "an array expression passed to an array dummy that has a derivative is not supported yet; assign it to an array variable and pass that"
                    };
                    self.error(s, Code::Unsupported, msg);
                }
                // A zero array like an assumed-size one cannot be declared.
                let assumed =
                    |t: &Type| t.dims.last().is_some_and(|d| d.upper == DimUpper::Assumed);
                if let TempKind::Like { sym, .. } = kind {
                    if self.prog().symbols[sym].ty.as_ref().is_some_and(assumed) {
                        let name = self.prog().symbols[sym].spelling.clone();
                        self.error(s, Code::Unsupported, &format!("the assumed-size array `{name}`, inactive here, is passed to a dummy that has a derivative: a zero derivative of unknown extent cannot be declared (it did not compile); declare `{name}` with explicit bounds"));
                        return self.b().zero(k);
                    }
                }
                let like = match kind {
                    TempKind::Like { sym, .. } => Some(sym),
                    _ => None,
                };
                let t = self.temp("dummyzerod", kind);
                if self.f.lang == Lang::Fortran {
                    if let Some(sym) = like {
                        let alloc = self.alloc_like(t, sym);
                        pre.extend(alloc);
                    }
                    let l = self.b().name(t);
                    let z = self.b().zero(k);
                    pre.push(assign(&mut self.u, l, z));
                }
                self.b().name(t)
            }
        }
    }

    /// The derivative `dl` of the actual `a`, a whole rank-1 assumed-size array (`Y(*)`),
    /// over the elements array dummy `fi` of callee `c` declares (`Yd(1:3)`; the callee's
    /// bounds over the call's actuals), else over `-size`, for clearing them before the
    /// call (`Yd = 0` did not compile); refused at the call (`None`) when neither tells.
    /// Other actuals: `dl`.
    fn dummy_section(
        &mut self,
        s: StmtId,
        a: ExprId,
        dl: ExprId,
        (c, fi, args): (UnitId, usize, &'a [Arg]),
    ) -> Option<ExprId> {
        let Expr::Name(base) = self.f.src.exprs[a] else {
            return Some(dl);
        };
        let Some(ty) = self.prog().symbols[base].ty.clone() else {
            return Some(dl);
        };
        if ty.dims.last().is_none_or(|d| d.upper != DimUpper::Assumed) {
            return Some(dl);
        }
        let count = self.dummy_count(c, fi, args).or_else(|| {
            (ty.dims.len() == 1)
                .then(|| self.pointee_size(base))
                .flatten()
                .map(|n| self.b().opaque(&format!("({n})")))
        });
        let Some(count) = count.filter(|_| ty.dims.len() == 1) else {
            let name = self.prog().symbols[base].spelling.clone();
            self.error(s, Code::Unsupported, &format!("clearing the derivative of the assumed-size array `{name}` before this call needs its extent: declare the callee's dummy with explicit bounds, or give -size {name}=N (one-dimensional arrays only)"));
            return None;
        };
        let lo = ty.dims[0].lower;
        let (lo, hi) = match lo {
            None => (self.b().int(1), count),
            Some(e) => {
                let lo = Copier { src: self.f.src }.expr(&mut self.u, e);
                let lo2 = self.dup(lo);
                let one = self.b().int(1);
                let last = self.b().bin(BinOp::Add, lo2, count);
                (lo, self.b().bin(BinOp::Sub, last, one))
            }
        };
        let range = Subscript::Range(Some(lo), Some(hi), None);
        // Vector mode names the directions first (`Yd(:, :)`).
        Some(match self.u.exprs[dl].clone() {
            Expr::Index { base, mut subs } => {
                let n = subs.len();
                subs[n - 1] = range;
                self.b().index(base, subs)
            }
            _ if self.f.vector => self
                .b()
                .index(dl, vec![Subscript::Range(None, None, None), range]),
            _ => self.b().index(dl, vec![range]),
        })
    }

    /// Whether the address `a` reaches its memory through a record member (`s.y`,
    /// `&p->y[1]`, `s.y + 2`).
    pub(crate) fn names_member(&self, a: ExprId) -> bool {
        let mut e = a;
        loop {
            match &self.f.src.exprs[e] {
                Expr::Field { .. } => return true,
                Expr::Paren(x)
                | Expr::Cast { arg: x, .. }
                | Expr::Unary { arg: x, .. }
                | Expr::Index { base: x, .. }
                | Expr::Binary { lhs: x, .. } => e = *x,
                _ => return false,
            }
        }
    }

    /// Whether the active procedure `q` may write a module variable, COMMON member or SAVE
    /// local that carries a derivative in it. Called where nothing it reads varies, the
    /// primal `q` would leave that global's derivative as it was, though the value `q` writes
    /// there depends on no independent: `call vaccum(h, 0)` resetting an accumulator in
    /// COMMON whose derivative later accumulates kept the previous run's derivative (a
    /// second call of the head gave another tangent). Its derivative procedure sets it.
    pub(crate) fn writes_global_derivative(&self, q: UnitId) -> bool {
        if !self.g.active.contains(&q) {
            return false;
        }
        let Some(qi) = self.g.info.procs.get(&q) else {
            return false;
        };
        let mut w = self.g.deriv_zones(q);
        w.intersect_with(&qi.summary.writes);
        let writes_one = w.iter().any(|z| qi.zones.global_of_local(z).is_some());
        writes_one
    }
}
