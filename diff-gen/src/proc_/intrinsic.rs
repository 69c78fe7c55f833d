//! The tangent of an intrinsic call: the partials of its vocabulary record instantiated on
//! the call's arguments (`instantiate`), the calls with a rule of their own (`tan_special`),
//! and the guards and helpers the partials need (`pow` at a zero base, digamma).

use super::*;

impl<'a> ProcGen<'_, 'a> {
    /// Tangent of an intrinsic call from the derivative table.
    pub(crate) fn tan_call(
        &mut self,
        e: ExprId,
        callee: ExprId,
        args: &'a [Arg],
    ) -> Option<ExprId> {
        let name = self.callee_name(callee);
        let routine = self.src_routine(e, callee);
        let row = routine.map(|r| r.routine()).filter(|r| r.rule().is_some());
        let pos: Vec<ExprId> = args
            .iter()
            .filter(|a| a.keyword.is_none())
            .map(|a| a.value)
            .collect();
        let k = self.real_kind(e);
        if let Some(d) = self.tan_complex(e, &name, routine, &pos, args) {
            return d;
        }
        let Some((row, rule)) = row.and_then(|r| Some((r, r.rule()?))) else {
            if let Some(d) = self.tan_special(routine, &pos, args.len(), k) {
                return d;
            }
            // A function of the program with no derivative version here, or a
            // non-differentiable intrinsic: zero. Anything else was reported when hoisting;
            // a differentiated function that was not hoisted is never a silent zero.
            let active = args.iter().any(|a| self.active_inside(a.value));
            if self.is_differentiated_call(e) && active {
                self.lost_value = Some("a reference to a differentiated function");
            } else if active
                && self.is_intrinsic_call(e)
                && !routine.is_some_and(|r| r.routine().deriv == vocab::Deriv::Zero)
            {
                // An intrinsic whose derivative is not identically zero (`bessel_j0`, `norm2`,
                // `pack`, `modulo`, ...) is never a silent zero: refused at the statement.
                self.no_rule = Some(format!("the intrinsic `{name}`"));
            }
            return None;
        };
        if matches!(rule, Rule::Extremum { .. } | Rule::Product | Rule::Norm2) && args.len() > 1 {
            // `maxval(a, dim=k)`, `product(a, mask=m)`: the rules below are for the whole array.
            if args.iter().any(|a| self.active_inside(a.value)) {
                self.no_rule = Some(format!("`{name}` with a DIM or MASK argument"));
            }
            return None;
        }
        match rule {
            Rule::Elementwise(partials) => {
                // A call with fewer positional arguments than the partials read (`sign(z)`,
                // which the frontend accepts) is refused here, never indexed past its end.
                let needed = partials
                    .iter()
                    .filter_map(|p| max_arg(&vocab::parsed(p)))
                    .max();
                if needed.is_some_and(|n| n >= pos.len()) {
                    self.lost_value =
                        Some("an intrinsic call with fewer arguments than its derivative reads");
                    return None;
                }
                let mut sum = None;
                for (i, p) in partials.iter().enumerate() {
                    let Some(&x) = pos.get(i) else { break };
                    let Some(dx) = self.tan(x) else { continue };
                    let tpl = vocab::parsed(p);
                    let kx = self.real_kind(x);
                    let outer = self.cur_call.replace((e, row));
                    let mut partial = self.instantiate(&tpl, &pos, kx);
                    self.cur_call = outer;
                    // (A complex partial stays in the loop: the temporary is real.)
                    if self.f.vector
                        && self.in_branch == 0
                        && !self.in_masked
                        && !self.is_trivial(partial)
                        && self.rank_of(x) == 0
                        && !self.complex_src(x)
                    {
                        // Computed once, before the direction loop.
                        let t = self.temp(
                            "temp",
                            TempKind::Real {
                                bytes: kx,
                                deriv: false,
                            },
                        );
                        let l = self.b().name(t);
                        let st = assign(&mut self.u, l, partial);
                        self.pre.push(st);
                        partial = self.b().name(t);
                    }
                    let partial = self.b().factor(partial);
                    let dx = self.b().factor(dx);
                    let term = self.b().mul(partial, dx);
                    sum = self.b().add_opt(sum, Some(term));
                }
                sum
            }
            Rule::Linear => {
                // Linear in its arguments of a differentiable type jointly, as the signature
                // gives them: `sum`'s array, `reshape`'s source and pad. The others are
                // copied (`dim`, `mask`, `shape`).
                let sig = row.signature();
                let bound = sig.bind_args(args);
                let first = args.first()?;
                let Some(d) = self.tan(first.value) else {
                    if args[1..].iter().any(|a| self.active_inside(a.value)) {
                        self.no_rule = Some(format!("`{name}` of a passive first argument"));
                    }
                    return None;
                };
                let mut new_args = vec![Arg {
                    keyword: first.keyword.clone(),
                    value: d,
                }];
                for (a, p) in args[1..].iter().zip(&bound[1..]) {
                    let param = p.map(|p| &sig.params[p]);
                    let v = if param.is_some_and(|p| !p.ty.differentiable()) {
                        self.cp(a.value)
                    } else if param.is_some_and(|p| p.name == "pad") && !self.complex_src(a.value) {
                        // `reshape`'s pad fills the result cyclically: its derivative, or a
                        // zero of one element (vocab's `linear_extra_params_are_pads`).
                        match self.tan(a.value) {
                            Some(d) => d,
                            None => {
                                let z = self.b().zero(k);
                                self.b().e(Expr::ArrayCtor {
                                    items: vec![z],
                                    old_style: false,
                                    type_spec: None,
                                })
                            }
                        }
                    } else {
                        self.no_rule = Some(format!("`{name}` with this argument"));
                        return None;
                    };
                    new_args.push(Arg {
                        keyword: a.keyword.clone(),
                        value: v,
                    });
                }
                let c = self.b().callee(&name);
                Some(self.b().e(Expr::Call {
                    callee: c,
                    args: new_args,
                }))
            }
            Rule::Bilinear => {
                let (x, y) = (*pos.first()?, *pos.get(1)?);
                let (dx, dy) = (self.tan(x), self.tan(y));
                let t1 = dx.map(|dx| {
                    let yy = self.cp(y);
                    self.b().call(&name, vec![dx, yy])
                });
                let t2 = dy.map(|dy| {
                    let xx = self.cp(x);
                    self.b().call(&name, vec![xx, dy])
                });
                self.b().add_opt(t1, t2)
            }
            Rule::Select { max } => {
                // Fold left: d(max(a, b, c)) = d(max(max(a, b), c)).
                let mut acc_val = self.cp(*pos.first()?);
                let mut acc_d = self.tan(pos[0]);
                for &x in &pos[1..] {
                    let dx = self.tan(x);
                    if acc_d.is_some() || dx.is_some() {
                        let a = acc_d.unwrap_or_else(|| self.b().zero(k));
                        let b = dx.unwrap_or_else(|| self.b().zero(k));
                        let xv = self.cp(x);
                        let cmp = if max {
                            BinOp::Ge(RelSpell::Symbol)
                        } else {
                            BinOp::Le(RelSpell::Symbol)
                        };
                        let cond = self.b().bin(cmp, acc_val, xv);
                        acc_d = Some(match self.f.lang {
                            Lang::Fortran => self.b().call("merge", vec![a, b, cond]),
                            Lang::C => {
                                let c = self.b().e(Expr::Cond {
                                    cond,
                                    then: a,
                                    else_: b,
                                });
                                self.b().e(Expr::Paren(c))
                            }
                        });
                    }
                    let xv2 = self.cp(x);
                    // The running extremum as a primal expression.
                    let fname = match (self.f.lang, max) {
                        (Lang::Fortran, true) => "max",
                        (Lang::Fortran, false) => "min",
                        (Lang::C, true) => "fmax",
                        (Lang::C, false) => "fmin",
                    };
                    acc_val = self.b().call(fname, vec![acc_val, xv2]);
                }
                acc_d
            }
            Rule::Extremum { .. } => {
                // Any rank, section or expression: the derivatives where the extremum is
                // reached, averaged over ties: sum(ẋ, mask=m)/count(m), m = (x == maxval(x)).
                let x = *pos.first()?;
                let dx = self.tan(x)?;
                let mut mask = || {
                    let xv = self.cp(x);
                    let xv = self.paren_if_compound(xv);
                    let x2 = self.cp(x);
                    let ext = self.b().call(&name, vec![x2]);
                    self.b().bin(BinOp::Eq(RelSpell::Symbol), xv, ext)
                };
                let (m1, m2) = (mask(), mask());
                let callee = self.b().callee("sum");
                let s = self.b().e(Expr::Call {
                    callee,
                    args: vec![
                        Arg {
                            keyword: None,
                            value: dx,
                        },
                        Arg {
                            keyword: Some("mask".into()),
                            value: m1,
                        },
                    ],
                });
                let n = self.b().call("count", vec![m2]);
                Some(self.b().div(s, n))
            }
            Rule::Product => {
                // Σ ẋᵢ Πⱼ≠ᵢ xⱼ, never dividing by a zero element (`product(x)/x` was 0/0:
                // NaN): product(x)/x where x ≠ 0; where x = 0, the product of the others
                // when it is the only zero, else 0.
                let x = *pos.first()?;
                let dx = self.tan(x)?;
                let k = self.real_kind(x);
                let rel = |pg: &mut Self, op: BinOp| {
                    let xv = pg.cp(x);
                    let xv = pg.paren_if_compound(xv);
                    let z = pg.b().zero(k);
                    pg.b().bin(op, xv, z)
                };
                let xx = self.cp(x);
                let p = self.b().call("product", vec![xx]);
                let x2 = self.cp(x);
                let x2 = self.paren_if_compound(x2);
                let q = self.b().div(p, x2);
                let x3 = self.cp(x);
                let nz = rel(self, BinOp::Ne(RelSpell::Symbol));
                let callee = self.b().callee("product");
                let others = self.b().e(Expr::Call {
                    callee,
                    args: vec![
                        Arg {
                            keyword: None,
                            value: x3,
                        },
                        Arg {
                            keyword: Some("mask".into()),
                            value: nz,
                        },
                    ],
                });
                let zeros = rel(self, BinOp::Eq(RelSpell::Symbol));
                let count = self.b().call("count", vec![zeros]);
                let one = self.b().int(1);
                let only = self.b().bin(BinOp::Eq(RelSpell::Symbol), count, one);
                let z = self.b().zero(k);
                let at_zero = self.b().call("merge", vec![others, z, only]);
                let nz2 = rel(self, BinOp::Ne(RelSpell::Symbol));
                let coef = self.b().call("merge", vec![q, at_zero, nz2]);
                let dxp = self.b().factor(dx);
                let m = self.b().mul(dxp, coef);
                Some(self.b().call("sum", vec![m]))
            }
            Rule::Norm2 => {
                // Σ ẋᵢ xᵢ / norm2(x), written sum(ẋ * merge(x / norm2(x), 0, norm2(x) /= 0)):
                // no derivative exists at x = 0, where the rule gives 0 rather than 0/0.
                let x = *pos.first()?;
                let dx = self.tan(x)?;
                let k = self.real_kind(x);
                let norm = |pg: &mut Self| {
                    let xv = pg.cp(x);
                    pg.b().call("norm2", vec![xv])
                };
                let xv = self.cp(x);
                let xv = self.paren_if_compound(xv);
                let n1 = norm(self);
                let q = self.b().div(xv, n1);
                let n2 = norm(self);
                let z = self.b().zero(k);
                let nz = self.b().bin(BinOp::Ne(RelSpell::Symbol), n2, z);
                let z2 = self.b().zero(k);
                let coef = self.b().call("merge", vec![q, z2, nz]);
                let dxp = self.b().factor(dx);
                let m = self.b().mul(dxp, coef);
                Some(self.b().call("sum", vec![m]))
            }
        }
    }

    /// Intrinsics differentiated here rather than from the table: Fortran `merge` (linear in
    /// its first two arguments), `dim(a, b) = max(a - b, 0)` (and F77's `ddim`) and `cshift`
    /// (linear in its first). `None` when `name` is none of them; `Some(None)` when no argument is active.
    fn tan_special(
        &mut self,
        routine: Option<vocab::RoutineId>,
        pos: &[ExprId],
        nargs: usize,
        k: u32,
    ) -> Option<Option<ExprId>> {
        let r = routine?;
        if self.f.lang != Lang::Fortran || nargs != pos.len() {
            return None;
        }
        match pos.len() {
            3 if r.is_one_of(&["merge"]) => {
                let (da, db) = (self.tan(pos[0]), self.tan(pos[1]));
                if da.is_none() && db.is_none() {
                    return Some(None);
                }
                let da = da.unwrap_or_else(|| self.b().zero(k));
                let db = db.unwrap_or_else(|| self.b().zero(k));
                let m = self.cp(pos[2]);
                Some(Some(self.b().call("merge", vec![da, db, m])))
            }
            2 if r.is_one_of(&["dim", "ddim"]) => {
                let (da, db) = (self.tan(pos[0]), self.tan(pos[1]));
                let db = db.map(|d| self.b().factor(d));
                let Some(d) = self.b().sub_opt(da, db) else {
                    return Some(None);
                };
                let d = self.paren_if_compound(d);
                let (a, b) = (self.cp(pos[0]), self.cp(pos[1]));
                let cond = self.b().bin(BinOp::Gt(RelSpell::Symbol), a, b);
                let z = self.b().zero(k);
                Some(Some(self.b().call("merge", vec![d, z, cond])))
            }
            2 if r.is_one_of(&["cshift"]) => {
                let Some(d) = self.tan(pos[0]) else {
                    return Some(None);
                };
                let sh = self.cp(pos[1]);
                Some(Some(self.b().call("cshift", vec![d, sh])))
            }
            _ => None,
        }
    }

    /// Whether the template call `f(a…)` is the intrinsic call being differentiated (its
    /// value, `exp(x0)` in the row of `exp`), so the partial can reuse the primal's value.
    /// An empty `a` matches on the name only.
    fn is_current_call(&self, f: &str, a: &[Tpl]) -> bool {
        let Some((e, row)) = self.cur_call else {
            return false;
        };
        let Expr::Call { args, .. } = &self.f.src.exprs[e] else {
            return false;
        };
        let same_args = a.is_empty()
            || (a.len() == args.len()
                && a.iter()
                    .enumerate()
                    .all(|(i, t)| matches!(t, Tpl::Arg(j) if *j == i)));
        same_args && (row.fortran.contains(&f) || row.c.contains(&f))
    }

    /// The target of a [`Reuse::siblings`] call `g(b…)` matching the template call
    /// `f(x…)` over the arguments `args` of the call being differentiated: `g` spelled `f`,
    /// each `b` written as the argument the template names.
    fn sibling_result(&self, f: &str, a: &[Tpl], args: &[ExprId]) -> Option<ExprId> {
        self.reuse.siblings.iter().find_map(|&(call, target)| {
            let Expr::Call { callee, args: bs } = &self.f.src.exprs[call] else {
                return None;
            };
            let same = self.callee_name(*callee) == f
                && bs.len() == a.len()
                && a.iter().zip(bs).all(|(t, b)| {
                    matches!(t, Tpl::Arg(i) if args.get(*i).is_some_and(|&x| self.same_src(x, b.value)))
                });
            same.then_some(target)
        })
    }

    pub fn is_intrinsic_call(&self, e: ExprId) -> bool {
        self.expr_call_site(e)
            .is_none_or(|c| matches!(&c.callee, Callee::Intrinsic(_)))
    }

    fn is_trivial(&self, e: ExprId) -> bool {
        matches!(self.u.exprs[e], Expr::Literal(_) | Expr::Name(_))
    }

    /// Builds a partial-derivative template with the primal arguments.
    fn instantiate(&mut self, t: &Tpl, args: &[ExprId], kind: u32) -> ExprId {
        match t {
            Tpl::Arg(i) => self.cp(args[*i]),
            Tpl::Num(n) => {
                if n.contains('.') {
                    self.b().real(n, kind)
                } else {
                    self.b().int(n.parse().unwrap_or(1))
                }
            }
            Tpl::Pi => {
                let m1 = self.b().real("-1.0", kind);
                let acos = self.c_math_name("acos", kind);
                self.b().call(&acos, vec![m1])
            }
            Tpl::Neg(a) => {
                let x = self.instantiate(a, args, kind);
                let x = self.b().factor(x);
                self.b().neg(x)
            }
            Tpl::Bin('^', a, b)
                if matches!((&**a, &**b), (Tpl::Arg(0), Tpl::Arg(1)))
                    && self.is_current_call("pow", &[]) =>
            {
                // `x0**x1` in the row of `pow`: the call itself.
                self.cp(self.cur_call.expect("set").0)
            }
            Tpl::Bin(op, a, b) => {
                let x = self.instantiate(a, args, kind);
                let y = self.instantiate(b, args, kind);
                let op = match op {
                    '+' => BinOp::Add,
                    '-' => BinOp::Sub,
                    '*' => BinOp::Mul,
                    '/' => BinOp::Div,
                    _ => BinOp::Pow,
                };
                if let (Some(a), Some(b)) = (self.number(x), self.number(y)) {
                    // Fold constants: `x1 - 1` with `x1 = 2` is `1`.
                    let v = match op {
                        BinOp::Add => Some(a.0 + b.0),
                        BinOp::Sub => Some(a.0 - b.0),
                        BinOp::Mul => Some(a.0 * b.0),
                        _ => None,
                    };
                    if let Some(v) = v {
                        return self.constant(v, a.1 && b.1, kind);
                    }
                }
                // C's power is the call `pow(x, y)`: its arguments need no parentheses.
                let c_pow = op == BinOp::Pow && self.f.lang == Lang::C;
                let x = match op {
                    BinOp::Mul | BinOp::Div => self.b().factor(x),
                    BinOp::Pow if !c_pow => self.paren_if_compound(x),
                    _ => x,
                };
                let y = if !c_pow && matches!(op, BinOp::Mul | BinOp::Div | BinOp::Pow | BinOp::Sub)
                {
                    self.paren_if_compound(y)
                } else {
                    y
                };
                match op {
                    BinOp::Mul => self.b().mul(x, y),
                    BinOp::Div => self.b().div(x, y),
                    BinOp::Pow if self.number(y) == Some((1.0, true)) => x,
                    BinOp::Pow if c_pow => {
                        let pow = self.c_math_name("pow", kind);
                        self.b().call(&pow, vec![x, y])
                    }
                    _ => self.b().bin(op, x, y),
                }
            }
            Tpl::Call(f, a) if self.is_current_call(f, a) => self.cp(self.cur_call.expect("set").0),
            Tpl::Call(f, a) => {
                if let Some(target) = self.sibling_result(f, a, args) {
                    return Copier { src: self.f.src }.expr(&mut self.u, target);
                }
                let xs: Vec<ExprId> = a.iter().map(|x| self.instantiate(x, args, kind)).collect();
                match (f.as_str(), self.f.lang) {
                    ("sgn", Lang::Fortran) => {
                        let one = self.b().real("1.0", kind);
                        self.b().call("sign", vec![one, xs[0]])
                    }
                    ("sgn", Lang::C) => {
                        let one = self.b().real("1.0", kind);
                        let copysign = self.c_math_name("copysign", kind);
                        self.b().call(&copysign, vec![one, xs[0]])
                    }
                    ("trunc", Lang::Fortran) => self.b().call("aint", xs),
                    // `nz(c, e)`: e where c ≠ 0, 0 elsewhere (folded when c is a number).
                    ("nz", _) => match self.number(xs[0]) {
                        Some((v, _)) if v != 0.0 => xs[1],
                        Some(_) => self.b().zero(kind),
                        None => {
                            let z = self.b().int(0);
                            let c = self.b().bin(BinOp::Ne(RelSpell::Symbol), xs[0], z);
                            self.guarded(xs[1], c, kind)
                        }
                    },
                    // `pos(c, e)`: e where c > 0, 0 elsewhere.
                    ("pos", _) if self.number(xs[0]).is_some_and(|(v, _)| v > 0.0) => xs[1],
                    ("pos", _) => {
                        let z = self.b().int(0);
                        let c = self.b().bin(BinOp::Gt(RelSpell::Symbol), xs[0], z);
                        self.guarded(xs[1], c, kind)
                    }
                    ("gamma", Lang::C) => {
                        let tgamma = self.c_math_name("tgamma", kind);
                        self.b().call(&tgamma, xs)
                    }
                    ("psi", _) => {
                        self.need_digamma();
                        // The helper is double precision.
                        let xs = if self.f.lang == Lang::Fortran && kind != 8 {
                            xs.into_iter()
                                .map(|x| self.b().call("dble", vec![x]))
                                .collect()
                        } else {
                            xs
                        };
                        self.b().call("radtap_digamma", xs)
                    }
                    (f, _) => {
                        let f = self.c_math_name(f, kind);
                        self.b().call(&f, xs)
                    }
                }
            }
        }
    }

    /// The spelling of the C math function `f` for partials of kind `kind`: `sqrtl` for
    /// `long double` (`sqrt` would round them to `double`); `f` itself otherwise, and in
    /// Fortran (generic intrinsics).
    fn c_math_name<'f>(&self, f: &'f str, kind: u32) -> std::borrow::Cow<'f, str> {
        // Checked in this order so a `double` partial allocates nothing (tests/scaling.rs).
        if self.f.lang == Lang::C
            && kind >= 10
            && radtap_il::clib::c_library(f) == Some(radtap_il::clib::CLibrary::Math)
        {
            std::borrow::Cow::Owned(format!("{f}l"))
        } else {
            std::borrow::Cow::Borrowed(f)
        }
    }

    /// `∂(aᵇ)/∂a`. A constant integer exponent `n` (also a real constant of integer value,
    /// `2.0d0`) takes the integer-power rule `n·aⁿ⁻¹` with an integer exponent, exact at
    /// `a = 0` (`n = 0`: no term, `n = 1`: `1`). Another exponent `b` gives `b·aᵇ⁻¹` where
    /// `b ≠ 0` and 0 elsewhere, so `aᵇ` at `a = 0, b = 0` gets 0 rather than `0·∞`.
    pub(crate) fn pow_base_partial(&mut self, a: ExprId, b: ExprId, k: u32) -> Option<ExprId> {
        let aa = self.cp(a);
        let aa = self.paren_if_compound(aa);
        if let Some(v) = self.const_value(b) {
            if v == v.trunc() && v.abs() < 1e9 {
                let n = v as i64;
                return match n {
                    0 => None,
                    1 => Some(self.b().int(1)),
                    2 => {
                        let two = self.b().int(2);
                        Some(self.b().mul(two, aa))
                    }
                    n => {
                        let nn = self.b().int(n);
                        let m = self.b().int(n - 1);
                        let m = if n - 1 < 0 {
                            self.b().e(Expr::Paren(m))
                        } else {
                            m
                        };
                        let p = self.b().bin(BinOp::Pow, aa, m);
                        Some(self.b().mul(nn, p))
                    }
                };
            }
            // A non-integer constant is not zero: no guard.
            let bb = self.cp(b);
            let bb = self.paren_if_compound(bb);
            let b2 = self.cp(b);
            let b2 = self.paren_if_compound(b2);
            let one = self.b().int(1);
            let m = self.b().bin(BinOp::Sub, b2, one);
            let m = self.b().e(Expr::Paren(m));
            let p = self.b().bin(BinOp::Pow, aa, m);
            return Some(self.b().mul(bb, p));
        }
        let bb = self.cp(b);
        let bb = self.paren_if_compound(bb);
        let b2 = self.cp(b);
        let b2 = self.paren_if_compound(b2);
        let one = self.b().int(1);
        let m = self.b().bin(BinOp::Sub, b2, one);
        let m = self.b().e(Expr::Paren(m));
        let p = self.b().bin(BinOp::Pow, aa, m);
        let partial = self.b().mul(bb, p);
        let b3 = self.cp(b);
        let z = self.b().int(0);
        let nz = self.b().bin(BinOp::Ne(RelSpell::Symbol), b3, z);
        Some(self.guarded(partial, nz, k))
    }

    fn need_digamma(&mut self) {
        if self.g.needs_digamma && self.digamma_declared {
            return;
        }
        self.g.needs_digamma = true;
        if self.f.lang == Lang::Fortran && !self.digamma_declared {
            let s = self.g.new_symbol(self.u.scope, "radtap_digamma", None);
            let t = Type {
                base: BaseClass::Real,
                bytes: Some(8),
                dims: Vec::new(),
                pointers: 0,
            };
            self.u.decls.push(Decl::var(VarDecl {
                spec: spec_of_type(Lang::Fortran, &t),
                attrs: vec![Attr::Keyword("external".into())],
                entities: vec![plain_entity(s)],
                double_colon: true,
            }));
        }
        self.digamma_declared = true;
    }
}

/// The largest argument index a derivative template reads.
fn max_arg(t: &Tpl) -> Option<usize> {
    match t {
        Tpl::Arg(i) => Some(*i),
        Tpl::Num(_) | Tpl::Pi => None,
        Tpl::Call(_, a) => a.iter().filter_map(max_arg).max(),
        Tpl::Neg(a) => max_arg(a),
        Tpl::Bin(_, a, b) => max_arg(a).max(max_arg(b)),
    }
}
