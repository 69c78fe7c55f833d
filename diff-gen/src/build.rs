//! Small constructors for new expressions and statements in a unit being built, with the
//! algebraic simplifications every derivative needs (`1*a = a`, `0` dropped from sums).

use radtap_il::*;

/// Builds expressions into `u`.
pub struct B<'u> {
    pub u: &'u mut UnitData,
    pub lang: Lang,
}

impl B<'_> {
    pub fn e(&mut self, x: Expr) -> ExprId {
        self.u.exprs.alloc(x)
    }
    pub fn name(&mut self, s: SymbolId) -> ExprId {
        self.e(Expr::Name(s))
    }
    pub fn opaque(&mut self, s: &str) -> ExprId {
        self.e(Expr::Opaque(s.to_string()))
    }
    pub fn int(&mut self, v: i64) -> ExprId {
        self.e(Expr::Literal(Literal {
            kind: LitKind::Int,
            text: v.to_string(),
        }))
    }
    /// A real literal of `bytes` bytes: `2.0d0` / `0.5` in Fortran, `2.0` in C.
    pub fn real(&mut self, text: &str, bytes: u32) -> ExprId {
        let mut t = text.to_string();
        if !t.contains('.') && !t.contains('e') {
            t.push_str(".0");
        }
        if self.lang == Lang::Fortran && bytes == 8 {
            t.push_str("d0");
        }
        self.e(Expr::Literal(Literal {
            kind: LitKind::Real,
            text: t,
        }))
    }
    /// Zero of a real kind: `0.0_8`, `0.0`.
    pub fn zero(&mut self, bytes: u32) -> ExprId {
        let text = match (self.lang, bytes) {
            (Lang::Fortran, 8) => "0.0_8",
            _ => "0.0",
        };
        self.e(Expr::Literal(Literal {
            kind: LitKind::Real,
            text: text.into(),
        }))
    }
    /// The callee `f`: typed by its record ([`Expr::Intrinsic`]) when `f` is a spelling of a
    /// routine of the vocabulary in the unit's language, opaque otherwise (the runtime's
    /// `pushReal8`, the OpenMP entry points, derivative routines).
    pub fn callee(&mut self, f: &str) -> ExprId {
        match radtap_il::vocab::resolve(f, self.lang) {
            Some(r) => self.e(Expr::Intrinsic(r)),
            None => self.opaque(f),
        }
    }
    /// `f(a, …)`, the callee as [`B::callee`] types it.
    pub fn call(&mut self, f: &str, args: Vec<ExprId>) -> ExprId {
        let callee = self.callee(f);
        self.e(Expr::Call {
            callee,
            args: args
                .into_iter()
                .map(|value| Arg {
                    keyword: None,
                    value,
                })
                .collect(),
        })
    }
    /// `f(a, …, k=b, …)`: each argument with its keyword, if any.
    pub fn call_kw(&mut self, f: &str, args: Vec<(Option<&str>, ExprId)>) -> ExprId {
        let callee = self.callee(f);
        self.e(Expr::Call {
            callee,
            args: args
                .into_iter()
                .map(|(k, value)| Arg {
                    keyword: k.map(str::to_string),
                    value,
                })
                .collect(),
        })
    }
    pub fn index(&mut self, base: ExprId, subs: Vec<Subscript>) -> ExprId {
        self.e(Expr::Index { base, subs })
    }

    fn lit_text(&self, e: ExprId) -> Option<&str> {
        match &self.u.exprs[e] {
            Expr::Literal(l) => Some(l.text.as_str()),
            _ => None,
        }
    }
    fn is_one(&self, e: ExprId) -> bool {
        matches!(self.lit_text(e), Some("1" | "1.0" | "1.0d0" | "1.d0"))
    }

    /// `a * b`, dropping a factor one.
    pub fn mul(&mut self, a: ExprId, b: ExprId) -> ExprId {
        if self.is_one(a) {
            return b;
        }
        if self.is_one(b) {
            return a;
        }
        self.bin(BinOp::Mul, a, b)
    }
    pub fn div(&mut self, a: ExprId, b: ExprId) -> ExprId {
        if self.is_one(b) {
            return a;
        }
        self.bin(BinOp::Div, a, b)
    }
    pub fn bin(&mut self, op: BinOp, a: ExprId, b: ExprId) -> ExprId {
        if op == BinOp::Pow && self.lang == Lang::C {
            return self.call("pow", vec![a, b]);
        }
        self.e(Expr::Binary { op, lhs: a, rhs: b })
    }
    pub fn neg(&mut self, a: ExprId) -> ExprId {
        if let Expr::Unary { op: UnOp::Neg, arg } = self.u.exprs[a] {
            return arg;
        }
        if let Expr::Paren(p) = self.u.exprs[a] {
            if let Expr::Unary { op: UnOp::Neg, arg } = self.u.exprs[p] {
                return arg; // -(-x) = x
            }
        }
        self.e(Expr::Unary {
            op: UnOp::Neg,
            arg: a,
        })
    }
    /// Sum of optional terms; `None` when all are zero.
    pub fn add_opt(&mut self, a: Option<ExprId>, b: Option<ExprId>) -> Option<ExprId> {
        match (a, b) {
            (None, x) | (x, None) => x,
            (Some(a), Some(b)) => Some(self.add(a, b)),
        }
    }
    /// `a + b`; `a + -c` reads better as `a - c`.
    pub fn add(&mut self, a: ExprId, b: ExprId) -> ExprId {
        if let Expr::Unary { op: UnOp::Neg, arg } = self.u.exprs[b] {
            return self.bin(BinOp::Sub, a, arg);
        }
        self.bin(BinOp::Add, a, b)
    }
    pub fn sub_opt(&mut self, a: Option<ExprId>, b: Option<ExprId>) -> Option<ExprId> {
        match (a, b) {
            (x, None) => x,
            (None, Some(b)) => Some(self.neg(b)),
            (Some(a), Some(b)) => Some(self.bin(BinOp::Sub, a, b)),
        }
    }
    /// Wraps a sum or difference in parentheses when it becomes a factor.
    pub fn factor(&mut self, a: ExprId) -> ExprId {
        match &self.u.exprs[a] {
            Expr::Binary {
                op: BinOp::Add | BinOp::Sub,
                ..
            }
            | Expr::Unary { op: UnOp::Neg, .. } => self.e(Expr::Paren(a)),
            _ => a,
        }
    }
}

/// A statement without label.
pub fn stmt(u: &mut UnitData, kind: StmtKind) -> StmtId {
    u.stmts.alloc(Stmt::new(kind))
}

/// `lhs = rhs`.
pub fn assign(u: &mut UnitData, lhs: ExprId, rhs: ExprId) -> StmtId {
    stmt(u, StmtKind::Assign { lhs, op: None, rhs })
}

/// Vector mode: the direction becomes the first dimension of a Fortran declaration
/// (`xd(nbdirsmax, n)`) or the last of a C one (`xd[n][NBDirsMax]`).
pub(crate) fn add_direction_dim(u: &mut UnitData, v: &mut VarDecl) {
    let deferred = v
        .attrs
        .iter()
        .any(|a| matches!(a, Attr::Keyword(k) if k == "allocatable" || k == "pointer"));
    match u.lang {
        Lang::Fortran => {
            // Deferred and assumed shapes (`:`) take a `:` direction dimension too.
            let mut dim_for = |shape: Option<&Vec<Dim>>| {
                if deferred
                    || shape.is_some_and(|ds| ds.iter().any(|d| d.upper == DimUpper::Deferred))
                {
                    Dim {
                        lower: None,
                        upper: DimUpper::Deferred,
                    }
                } else {
                    Dim {
                        lower: None,
                        upper: DimUpper::Expr(u.exprs.alloc(Expr::Opaque("nbdirsmax".into()))),
                    }
                }
            };
            let mut attr_shape = None;
            for a in &mut v.attrs {
                if let Attr::Dimension(ds) = a {
                    let d = dim_for(Some(ds));
                    ds.insert(0, d);
                    attr_shape = Some(ds.clone());
                }
            }
            for e in &mut v.entities {
                match &mut e.dims {
                    Some(ds) => {
                        let d = dim_for(Some(ds));
                        ds.insert(0, d)
                    }
                    None if attr_shape.is_none() => e.dims = Some(vec![dim_for(None)]),
                    None => {}
                }
            }
        }
        // A C record holds its directions at its real leaves (the derivative record type,
        // `Gen::type_decl`): `struct Matrix_d *md`, `md->data[k][nd]`.
        Lang::C if matches!(v.spec.class, BaseClass::Record(_)) => {}
        Lang::C => {
            for e in &mut v.entities {
                let n = u.exprs.alloc(Expr::Opaque("NBDirsMax".into()));
                e.derived.insert(0, DeclOp::Array(Some(n)));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn callee<'a>(b: &'a B, call: ExprId) -> &'a Expr {
        match &b.u.exprs[call] {
            Expr::Call { callee, .. } => &b.u.exprs[*callee],
            other => panic!("not a call: {other:?}"),
        }
    }

    #[test]
    fn a_known_routine_is_typed_by_its_record_anything_else_stays_opaque() {
        for (lang, known, generic, other) in [
            (Lang::Fortran, "dcos", "cos", "pushreal8"),
            (Lang::C, "cosf", "cos", "pushReal8"),
        ] {
            let mut u = UnitData::new(UnitKind::Subroutine, lang, ScopeId::from_raw(0));
            let mut b = B { u: &mut u, lang };
            let x = b.int(1);
            let c = b.call(known, vec![x]);
            match callee(&b, c) {
                Expr::Intrinsic(r) => {
                    assert_eq!(r.spelling, known);
                    assert_eq!(Some(r.id), vocab::id_of(generic, Lang::Fortran));
                }
                e => panic!("{known}: {e:?}"),
            }
            let c = b.call_kw(other, vec![(None, x)]);
            assert!(matches!(callee(&b, c), Expr::Opaque(n) if n == other));
        }
    }
}
