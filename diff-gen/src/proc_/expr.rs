//! `tan(e)`: the tangent of an expression from the derivative table, with constant folding
//! and the instantiation of the table's templates.

use super::*;

impl<'a> ProcGen<'_, 'a> {
    /// The tangent of primal expression `e` given the active zones `self.cur`: `None` when it
    /// is zero.
    pub fn tan(&mut self, e: ExprId) -> Option<ExprId> {
        let src = self.src;
        if let Some(&(_, Some(td))) = self.hoisted.get(&e) {
            let d = if self.vector {
                self.dvec_name(td)
            } else {
                self.b().name(td)
            };
            if let Some(m) = self.refs.as_mut() {
                m.push((d, e));
            }
            return Some(d);
        }
        match &src.exprs[e] {
            Expr::Literal(_) | Expr::Opaque(_) | Expr::SizeofType(_) => None,
            Expr::Name(_)
            | Expr::Index { .. }
            | Expr::Field { .. }
            | Expr::Unary {
                op: UnOp::Deref, ..
            } => {
                let cur = self.cur.clone();
                if !self.ref_in(e, &cur) {
                    return None;
                }
                let d = if self.has_dvar_ref(e) {
                    self.dref(e, Dir::Nd)
                } else {
                    None
                };
                if d.is_none() && matches!(self.kind_of(e), 4 | 8) {
                    // Active, real, and yet no derivative to read: never a silent zero.
                    self.lost_derivative = true;
                }
                if let (Some(m), Some(d)) = (self.refs.as_mut(), d) {
                    m.push((d, e));
                }
                d
            }
            Expr::Call { callee, args } => self.tan_call(e, *callee, args),
            Expr::Unary { op, arg } => match op {
                UnOp::Neg => self.tan(*arg).map(|d| {
                    let d = self.b().factor(d);
                    self.b().neg(d)
                }),
                UnOp::Plus => self.tan(*arg),
                UnOp::Not | UnOp::BitNot | UnOp::AddrOf | UnOp::Sizeof | UnOp::Deref => None,
            },
            Expr::Binary { op, lhs, rhs } => self.tan_binary(*op, *lhs, *rhs, Some(e)),
            Expr::Paren(a) => self.tan(*a).map(|d| self.paren_if_compound(d)),
            Expr::Cast { ty, arg } => {
                if matches!(ty.spec.class, BaseClass::Real) && ty.derived.is_empty() {
                    self.tan(*arg)
                } else {
                    None
                }
            }
            Expr::Cond { cond, then, else_ } => {
                self.in_branch += 1;
                let (a, b) = (self.tan(*then), self.tan(*else_));
                self.in_branch -= 1;
                if a.is_none() && b.is_none() {
                    return None;
                }
                let k = self.real_kind(e);
                let a = a.unwrap_or_else(|| self.b().zero(k));
                let b = b.unwrap_or_else(|| self.b().zero(k));
                let c = self.cp(*cond);
                Some(self.b().e(Expr::Cond {
                    cond: c,
                    then: a,
                    else_: b,
                }))
            }
            Expr::ArrayCtor {
                items,
                old_style,
                type_spec,
            } => {
                let ds: Vec<Option<ExprId>> = items.iter().map(|&i| self.tan(i)).collect();
                if ds.iter().all(|d| d.is_none()) {
                    return None;
                }
                let k = self.real_kind(e);
                // An item with no tangent is zeros of its size: a scalar zero in place of an
                // array item would shift every later element.
                let items = ds
                    .into_iter()
                    .zip(items.iter())
                    .map(|(d, &i)| {
                        d.unwrap_or_else(|| {
                            let z = self.b().zero(k);
                            if self.rank_of(i) > 0 {
                                let c = self.cp(i);
                                let c = self.paren_if_compound(c);
                                self.b().bin(BinOp::Mul, z, c)
                            } else {
                                z
                            }
                        })
                    })
                    .collect();
                Some(self.b().e(Expr::ArrayCtor {
                    items,
                    old_style: *old_style,
                    type_spec: type_spec.clone(),
                }))
            }
            Expr::Assign { .. } | Expr::IncDec { .. } | Expr::Comma(_) => {
                // Side effects are statements: an active value computed by one is never a
                // silent zero.
                if self.active_inside(e) {
                    self.lost_value = Some("an assignment, `++`/`--` or comma expression");
                }
                None
            }
            Expr::ImpliedDo {
                items,
                var,
                lo,
                hi,
                step,
            } => {
                // `(ẋ(i), i = lo, hi)`: the same loop over the items' tangents.
                let ds: Vec<Option<ExprId>> = items.iter().map(|&i| self.tan(i)).collect();
                if ds.iter().all(|d| d.is_none()) {
                    return None;
                }
                let k = self.real_kind(e);
                // An item with no tangent is zeros of its size: a scalar zero in place of an
                // array item would shift every later element.
                let items = ds
                    .into_iter()
                    .zip(items.iter())
                    .map(|(d, &i)| {
                        d.unwrap_or_else(|| {
                            let z = self.b().zero(k);
                            if self.rank_of(i) > 0 {
                                let c = self.cp(i);
                                let c = self.paren_if_compound(c);
                                self.b().bin(BinOp::Mul, z, c)
                            } else {
                                z
                            }
                        })
                    })
                    .collect();
                let (var, lo, hi) = (self.cp(*var), self.cp(*lo), self.cp(*hi));
                let step = step.map(|x| self.cp(x));
                Some(self.b().e(Expr::ImpliedDo {
                    items,
                    var,
                    lo,
                    hi,
                    step,
                }))
            }
            Expr::Designated { designators, value } => {
                let d = self.tan(*value)?;
                Some(self.b().e(Expr::Designated {
                    designators: designators.clone(),
                    value: d,
                }))
            }
            Expr::CompoundLit { .. } => {
                if self.active_inside(e) {
                    self.lost_value = Some("a compound literal");
                }
                None
            }
        }
    }

    /// A zero of the shape of C initializer `e`: `{0.0, {0.0, 0.0}}` for a brace list, the
    /// designators kept.
    pub fn zero_like(&mut self, e: ExprId, k: u32) -> ExprId {
        match &self.src.exprs[e] {
            Expr::ArrayCtor {
                items,
                old_style,
                type_spec,
            } => {
                let items = items.iter().map(|&i| self.zero_like(i, k)).collect();
                self.b().e(Expr::ArrayCtor {
                    items,
                    old_style: *old_style,
                    type_spec: type_spec.clone(),
                })
            }
            Expr::Designated { designators, value } => {
                let value = self.zero_like(*value, k);
                self.b().e(Expr::Designated {
                    designators: designators.clone(),
                    value,
                })
            }
            _ => self.b().zero(k),
        }
    }

    /// Tangent of `a op b`:
    /// `(a±b)˙ = ȧ ± ḃ`, `(ab)˙ = ȧb + aḃ`, `(a/b)˙ = (ȧ − (a/b)ḃ)/b`,
    /// `(aᵇ)˙ = b·aᵇ⁻¹·ȧ + aᵇ·log(a)·ḃ`.
    /// The tangent of `a op b`; `e` is that expression when it exists in the primal (not for
    /// a C compound assignment), so its value can be shared.
    pub fn tan_binary(
        &mut self,
        op: BinOp,
        a: ExprId,
        b: ExprId,
        e: Option<ExprId>,
    ) -> Option<ExprId> {
        match op {
            BinOp::Add => {
                let (da, db) = (self.tan(a), self.tan(b));
                self.b().add_opt(da, db)
            }
            BinOp::Sub => {
                let (da, db) = (self.tan(a), self.tan(b));
                let db = db.map(|d| self.b().factor(d));
                self.b().sub_opt(da, db)
            }
            BinOp::Mul => {
                let (da, db) = (self.tan(a), self.tan(b));
                let t1 = da.map(|d| {
                    let d = self.b().factor(d);
                    let bb = self.cp(b);
                    let bb = self.b().factor(bb);
                    self.b().mul(d, bb)
                });
                let t2 = db.map(|d| {
                    let d = self.b().factor(d);
                    let aa = self.cp(a);
                    let aa = self.b().factor(aa);
                    self.b().mul(aa, d)
                });
                self.b().add_opt(t1, t2)
            }
            BinOp::Div => {
                let (da, db) = (self.tan(a), self.tan(b));
                match (da, db) {
                    (None, None) => None,
                    (Some(da), None) => {
                        let da = self.b().factor(da);
                        let bb = self.cp(b);
                        let bb = self.paren_if_compound(bb);
                        Some(self.b().div(da, bb))
                    }
                    (None, Some(db))
                        if e.is_some() && self.const_value(a).is_some_and(|v| v != 0.0) =>
                    {
                        // c/b with a non-zero constant c: −(c/b)²·(1/c)·ḃ, no run-time division
                        // (the compiler folds 1/c).
                        let q = self.cp(e.expect("checked"));
                        let q = self.paren_if_compound(q);
                        let q2 = self.cp(e.expect("checked"));
                        let q2 = self.paren_if_compound(q2);
                        let qq = self.b().mul(q, q2);
                        let t = if self.const_value(a) == Some(1.0) {
                            qq
                        } else {
                            let k = self.real_kind(a);
                            let one = self.b().real("1.0", k);
                            let c = self.cp(a);
                            let c = self.paren_if_compound(c);
                            let inv = self.b().div(one, c);
                            let inv = self.b().e(Expr::Paren(inv));
                            self.b().mul(qq, inv)
                        };
                        let db = self.b().factor(db);
                        let t = self.b().mul(t, db);
                        Some(self.b().neg(t))
                    }
                    (da, Some(db)) => {
                        // (ȧ − (a/b)·ḃ)/b, the quotient shared with the primal.
                        let q = match e {
                            Some(e) => self.cp(e),
                            None => {
                                let aa = self.cp(a);
                                let aa = self.paren_if_compound(aa);
                                let bb = self.cp(b);
                                let bb = self.paren_if_compound(bb);
                                self.b().div(aa, bb)
                            }
                        };
                        let q = self.paren_if_compound(q);
                        let db = self.b().factor(db);
                        let t = self.b().mul(q, db);
                        let num = self.b().sub_opt(da, Some(t)).expect("non-zero");
                        let num = self.b().e(Expr::Paren(num));
                        let b2 = self.cp(b);
                        let b2 = self.paren_if_compound(b2);
                        Some(self.b().div(num, b2))
                    }
                }
            }
            BinOp::Pow => {
                if (self.complex_src(a) && self.const_value(b).is_none_or(|v| v != v.trunc()))
                    || self.complex_src(b)
                {
                    // A complex power with an exponent other than an integer constant: the
                    // guards of the real rule compare the base with 0.
                    if self.active_inside(a) || self.active_inside(b) {
                        self.no_rule = Some(
                            "a complex power whose exponent is not an integer constant".into(),
                        );
                    }
                    return None;
                }
                let (da, db) = (self.tan(a), self.tan(b));
                // The kind the partials are computed in (an integer exponent has kind 0).
                let k = match self.kind_of(a).max(self.kind_of(b)) {
                    0 => 8,
                    k => k,
                };
                let t1 = match da {
                    Some(da) => self.pow_base_partial(a, b, k).map(|partial| {
                        let da = self.b().factor(da);
                        self.b().mul(partial, da)
                    }),
                    None => None,
                };
                let t2 = db.map(|db| {
                    // aᵇ·log(a) where a > 0, 0 elsewhere: at a = 0 the power is 0 for every
                    // b > 0 (Tapenade's guard), and log(0) must not reach the result.
                    let db = self.b().factor(db);
                    let aa = self.cp(a);
                    let aa = self.paren_if_compound(aa);
                    let bb = self.cp(b);
                    let bb = self.paren_if_compound(bb);
                    let p = self.b().bin(BinOp::Pow, aa, bb);
                    let a2 = self.cp(a);
                    let l = self.b().call("log", vec![a2]);
                    let pl = self.b().mul(p, l);
                    let pl = if self.const_value(a).is_some_and(|v| v > 0.0) {
                        pl
                    } else {
                        let a3 = self.cp(a);
                        let z = self.b().int(0);
                        let pos = self.b().bin(BinOp::Gt(RelSpell::Symbol), a3, z);
                        self.guarded(pl, pos, k)
                    };
                    self.b().mul(pl, db)
                });
                self.b().add_opt(t1, t2)
            }
            BinOp::Rem
            | BinOp::Concat
            | BinOp::Eq(_)
            | BinOp::Ne(_)
            | BinOp::Lt(_)
            | BinOp::Le(_)
            | BinOp::Gt(_)
            | BinOp::Ge(_)
            | BinOp::And
            | BinOp::Or
            | BinOp::Eqv
            | BinOp::Neqv
            | BinOp::BitAnd
            | BinOp::BitOr
            | BinOp::BitXor
            | BinOp::Shl
            | BinOp::Shr => None,
        }
    }

    /// The value of a primal constant expression: literals and Fortran PARAMETERs with a
    /// literal value, under signs, parentheses and arithmetic.
    pub fn const_value(&self, e: ExprId) -> Option<f64> {
        match &self.src.exprs[e] {
            Expr::Literal(l) if matches!(l.kind, LitKind::Int | LitKind::Real) => {
                let t = l.text.to_ascii_lowercase();
                let t = t.split('_').next().unwrap_or("");
                t.trim_end_matches(['f', 'l'])
                    .replace('d', "e")
                    .parse()
                    .ok()
            }
            Expr::Unary { op: UnOp::Neg, arg } => self.const_value(*arg).map(|v| -v),
            Expr::Paren(a) => self.const_value(*a),
            Expr::Opaque(m) => self.g.int_macros.get(m).map(|&v| v as f64),
            Expr::Binary { op, lhs, rhs } => {
                let (x, y) = (self.const_value(*lhs)?, self.const_value(*rhs)?);
                match op {
                    BinOp::Add => Some(x + y),
                    BinOp::Sub => Some(x - y),
                    BinOp::Mul => Some(x * y),
                    BinOp::Div if y != 0.0 => Some(x / y),
                    _ => None,
                }
            }
            Expr::Name(s)
                if self.lang == Lang::Fortran && self.prog().symbols[*s].attrs.constant =>
            {
                self.src.decls.iter().find_map(|d| match d {
                    Decl::Var(v) => {
                        v.entities
                            .iter()
                            .find(|x| x.sym == *s)
                            .and_then(|x| match x.init {
                                Some(Init::Expr(i)) => self.const_value(i),
                                _ => None,
                            })
                    }
                    _ => None,
                })
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
        let Expr::Call { args, .. } = &self.src.exprs[e] else {
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
            let Expr::Call { callee, args: bs } = &self.src.exprs[call] else {
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

    /// The value of a numeric literal (possibly negated or parenthesised), and whether it is
    /// an integer.
    fn number(&self, e: ExprId) -> Option<(f64, bool)> {
        match &self.u.exprs[e] {
            Expr::Literal(l) if matches!(l.kind, LitKind::Int | LitKind::Real) => {
                let t = l.text.to_ascii_lowercase();
                let t = t.split('_').next().unwrap_or("");
                let t = t.trim_end_matches(['f', 'l']).replace('d', "e");
                t.parse().ok().map(|v| (v, l.kind == LitKind::Int))
            }
            Expr::Unary { op: UnOp::Neg, arg } => self.number(*arg).map(|(v, i)| (-v, i)),
            Expr::Paren(a) => self.number(*a),
            _ => None,
        }
    }

    /// A numeric constant of the template's kind.
    pub(crate) fn constant(&mut self, v: f64, int: bool, kind: u32) -> ExprId {
        let lit = if int {
            self.b().int(v.abs() as i64)
        } else {
            self.b().real(&format!("{:?}", v.abs()), kind)
        };
        if v < 0.0 {
            self.b().neg(lit)
        } else {
            lit
        }
    }

    pub fn paren_if_compound(&mut self, e: ExprId) -> ExprId {
        match &self.u.exprs[e] {
            Expr::Binary { .. } | Expr::Unary { .. } | Expr::Cond { .. } => {
                self.b().e(Expr::Paren(e))
            }
            _ => e,
        }
    }

    /// Tangent of an intrinsic call from the derivative table.
    fn tan_call(&mut self, e: ExprId, callee: ExprId, args: &'a [Arg]) -> Option<ExprId> {
        let name = self.callee_name(callee);
        let is_c = self.lang == Lang::C;
        let row = vocab::derivative(&name, is_c);
        let pos: Vec<ExprId> = args
            .iter()
            .filter(|a| a.keyword.is_none())
            .map(|a| a.value)
            .collect();
        let k = self.real_kind(e);
        if let Some(d) = self.tan_complex(e, &name, &pos, args) {
            return d;
        }
        let Some((row, rule)) = row.and_then(|r| Some((r, r.rule()?))) else {
            if let Some(d) = self.tan_special(&name, &pos, args.len(), k) {
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
                && !vocab::zero_derivative(&name, self.lang)
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
                    if self.vector
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
                let first = args.first()?;
                let d = self.tan(first.value)?;
                let mut new_args = vec![Arg {
                    keyword: first.keyword.clone(),
                    value: d,
                }];
                for a in &args[1..] {
                    let v = self.cp(a.value);
                    new_args.push(Arg {
                        keyword: a.keyword.clone(),
                        value: v,
                    });
                }
                let c = self.b().opaque(&name);
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
                        acc_d = Some(match self.lang {
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
                    let fname = match (self.lang, max) {
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
                let callee = self.b().opaque("sum");
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
                let callee = self.b().opaque("product");
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
        name: &str,
        pos: &[ExprId],
        nargs: usize,
        k: u32,
    ) -> Option<Option<ExprId>> {
        if self.lang != Lang::Fortran || nargs != pos.len() {
            return None;
        }
        match (name, pos.len()) {
            ("merge", 3) => {
                let (da, db) = (self.tan(pos[0]), self.tan(pos[1]));
                if da.is_none() && db.is_none() {
                    return Some(None);
                }
                let da = da.unwrap_or_else(|| self.b().zero(k));
                let db = db.unwrap_or_else(|| self.b().zero(k));
                let m = self.cp(pos[2]);
                Some(Some(self.b().call("merge", vec![da, db, m])))
            }
            ("dim" | "ddim", 2) => {
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
            ("cshift", 2) => {
                let Some(d) = self.tan(pos[0]) else {
                    return Some(None);
                };
                let sh = self.cp(pos[1]);
                Some(Some(self.b().call("cshift", vec![d, sh])))
            }
            _ => None,
        }
    }

    pub fn is_intrinsic_call(&self, e: ExprId) -> bool {
        self.expr_call_site(e)
            .is_none_or(|c| matches!(&c.callee, Callee::Intrinsic(_)))
    }

    fn is_trivial(&self, e: ExprId) -> bool {
        matches!(self.u.exprs[e], Expr::Literal(_) | Expr::Name(_))
    }

    /// Rank of a primal expression (Fortran arrays; C is always 0).
    pub fn rank_of(&self, e: ExprId) -> usize {
        if self.lang == Lang::C {
            return 0;
        }
        let compound = matches!(
            self.src.exprs[e],
            Expr::Binary { .. } | Expr::Unary { .. } | Expr::Paren(_) | Expr::Call { .. }
        );
        if !compound {
            return self.rank_of_node(e);
        }
        if let Some(&r) = self.ranks.borrow().get(&e) {
            return r;
        }
        let r = self.rank_of_node(e);
        self.ranks.borrow_mut().insert(e, r);
        r
    }

    fn rank_of_node(&self, e: ExprId) -> usize {
        match &self.src.exprs[e] {
            Expr::Name(s) => self.prog().symbols[*s]
                .ty
                .as_ref()
                .map_or(0, |t| t.dims.len()),
            Expr::Index { base, subs } => {
                let r = subs
                    .iter()
                    .filter(|s| matches!(s, Subscript::Range(..)))
                    .count();
                if r > 0 {
                    r
                } else {
                    match &self.src.exprs[*base] {
                        // `s%v(i)`: as ranked as `s`.
                        Expr::Field { base: b, .. } => self.rank_of(*b),
                        Expr::Name(_) => 0,
                        _ => self.rank_of(*base),
                    }
                }
            }
            Expr::Field { base, field, .. } => {
                // `s%v` is as ranked as the component, `a(:)%x` as the base.
                let comp = self.record_of(*base).and_then(|td| {
                    self.prog().typedefs[td]
                        .fields
                        .iter()
                        .find_map(|f| match f {
                            Decl::Var(v) => v
                                .entities
                                .iter()
                                .find(|x| {
                                    self.prog().symbols[x.sym]
                                        .spelling
                                        .eq_ignore_ascii_case(field)
                                })
                                .map(|x| {
                                    x.dims.as_ref().map_or(0, |d| d.len()).max(
                                        self.prog().symbols[x.sym]
                                            .ty
                                            .as_ref()
                                            .map_or(0, |t| t.dims.len()),
                                    )
                                }),
                            _ => None,
                        })
                });
                self.rank_of(*base).max(comp.unwrap_or(0))
            }
            Expr::Binary { lhs, rhs, .. } => self.rank_of(*lhs).max(self.rank_of(*rhs)),
            Expr::Unary { arg, .. } | Expr::Paren(arg) => self.rank_of(*arg),
            Expr::Call { args, .. } => args
                .iter()
                .map(|a| self.rank_of(a.value))
                .max()
                .unwrap_or(0),
            // A Fortran array constructor is rank 1, whatever its items.
            Expr::ArrayCtor { .. } => 1,
            _ => 0,
        }
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
                let c_pow = op == BinOp::Pow && self.lang == Lang::C;
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
                    return Copier { src: self.src }.expr(&mut self.u, target);
                }
                let xs: Vec<ExprId> = a.iter().map(|x| self.instantiate(x, args, kind)).collect();
                match (f.as_str(), self.lang) {
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
                        let xs = if self.lang == Lang::Fortran && kind != 8 {
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
        if self.lang == Lang::C
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
    fn pow_base_partial(&mut self, a: ExprId, b: ExprId, k: u32) -> Option<ExprId> {
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

    /// `p` where `cond` holds and 0 (of kind `k`) elsewhere: Fortran `merge(p, 0.0_k, cond)`,
    /// C `(cond ? p : 0.0)`. Only partial derivatives are guarded (never tangents), so the
    /// adjoint transposes the product around it unchanged.
    pub(crate) fn guarded(&mut self, p: ExprId, cond: ExprId, k: u32) -> ExprId {
        let z = self.b().zero(k);
        match self.lang {
            Lang::Fortran => self.b().call("merge", vec![p, z, cond]),
            Lang::C => {
                let c = self.b().e(Expr::Cond {
                    cond,
                    then: p,
                    else_: z,
                });
                self.b().e(Expr::Paren(c))
            }
        }
    }

    fn need_digamma(&mut self) {
        if self.g.needs_digamma && self.digamma_declared {
            return;
        }
        self.g.needs_digamma = true;
        if self.lang == Lang::Fortran && !self.digamma_declared {
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
