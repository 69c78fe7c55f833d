//! `tan(e)`: the tangent of an expression from the derivative table, with constant folding
//! and the instantiation of the table's templates.

use super::*;

impl<'a> ProcGen<'_, 'a> {
    /// A zero of the shape of C initializer `e`: `{0.0, {0.0, 0.0}}` for a brace list, the
    /// designators kept.
    pub fn zero_like(&mut self, e: ExprId, k: u32) -> ExprId {
        match &self.f.src.exprs[e] {
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
}

impl ProcGen<'_, '_> {
    /// The tangent of `of`, its derivative references and shared definitions, reading the
    /// values of `reuse` where a partial needs them.
    pub fn tangent(&mut self, of: TanOf, sharing: Sharing, reuse: &Reuse) -> Tangent {
        let outer = (
            self.refs.replace(Vec::new()),
            std::mem::replace(&mut self.reuse, reuse.clone()),
        );
        if sharing == Sharing::Collected {
            self.collect_shared(of.expr());
        }
        let deriv = match of {
            TanOf::Expr(e) => self.tan(e),
            TanOf::Update { op, lhs, rhs } => self.tan_binary(op, lhs, rhs, None),
            TanOf::Passive(_) => None,
        };
        let shared = match sharing {
            Sharing::Untouched => Vec::new(),
            Sharing::Resolved | Sharing::Collected => self.resolve_shared(),
        };
        let refs = self.refs.take().unwrap_or_default();
        (self.refs, self.reuse) = outer;
        Tangent {
            deriv,
            refs,
            shared,
        }
    }
}

impl Tangents for ProcGen<'_, '_> {
    fn tan(&mut self, e: ExprId) -> Option<ExprId> {
        let src = self.f.src;
        if let Some(&(_, Some(td))) = self.hoisted.get(&e) {
            let d = if self.f.vector {
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
            Expr::Literal(_) | Expr::Opaque(_) | Expr::Intrinsic(_) | Expr::SizeofType(_) => None,
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
}
