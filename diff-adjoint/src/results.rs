//! The derivative of a user function written with its result (issue 21).
//!
//! `gates[i] = sigmoid(a)` with `double sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }`:
//! the adjoint called `sigmoid_b(a, &ab, gatesb[i])`, which evaluates `exp(-a)` again. When
//! the value the forward sweep stored is still in `gates[i]` at the adjoint (the proof
//! [`Adj::stored_result`] uses for intrinsics), the partial is computed from it instead:
//! `ab = ab + gatesb[i] * (y * y * (1.0 / y - 1.0))` with `y` the stored result, one division
//! instead of an `exp`.
//!
//! The partial is derived from the function's body, not from a table of known functions: a
//! C function of one real parameter passed by value whose body is `return E;`, `E` reaching
//! the parameter through a chain of one-operand steps (`-a`, `a ± K`, `K - a`, `a * K`,
//! `a / K`, `K / a`, `exp(a)`, `tanh(a)`, `sqrt(a)`, `K` a literal constant). Walking down
//! the chain from the result, each step's partial is written with its own output value
//! (`exp`: `v`; `K / a`: `-v²/K`; `tanh`: `1 - v²`; `sqrt`: `1/(2v)`), and each output value
//! is the previous one's input, recovered by inverting the cheap steps (`a = K / v`,
//! `a = v - K`, `a = v²`). A step whose input cannot be recovered cheaply (`exp`, `tanh`)
//! ends the derivation when a deeper step would need that value: the call is kept.
//! `-nooptim sharepartials` keeps every call.

use crate::*;

/// One step of the chain from a function's result down to its parameter.
#[derive(Clone, Copy)]
enum Step {
    Neg,
    /// `a + K` or `K + a`.
    AddK(ExprId),
    /// `a - K`.
    SubK(ExprId),
    /// `K - a`.
    KSub(ExprId),
    /// `a * K` or `K * a`.
    MulK(ExprId),
    /// `a / K`.
    DivK(ExprId),
    /// `K / a`.
    KDiv(ExprId),
    Exp,
    Tanh,
    Sqrt,
}

impl Step {
    /// Whether the step's partial is written with its output value.
    fn reads_value(self) -> bool {
        matches!(self, Step::KDiv(_) | Step::Exp | Step::Tanh | Step::Sqrt)
    }

    /// Whether its input is recovered from its output without a transcendental call.
    fn cheap_inverse(self) -> bool {
        !matches!(self, Step::Exp | Step::Tanh)
    }
}

impl Adj<'_, '_, '_> {
    /// Whether the adjoint of the assignment at point `i` may read back the value it stores
    /// (`stored_result`, `results.rs`): `-nooptim sharepartials` off, a plain `=` whose
    /// target is not restored before its adjoint, kept in the forward sweep, joint C sweeps.
    pub(crate) fn may_read_stored(&self, i: usize, op: Option<BinOp>, restored: bool) -> bool {
        self.pg.g.opts.share_partials
            && op.is_none()
            && !restored
            && self.is_live(i)
            && self.pg.f.sweep == Sweep::Joint
            && self.pg.f.lang == Lang::C
    }

    /// Whether the value statement `s` stores in `lhs` (an element or a scalar) is still
    /// there when the adjoint of `s` runs: no statement that may run after `s` writes it
    /// (`extent::stored_until_adjoint`, `extent::stored::kept_scalars`). C, no directive in
    /// the procedure.
    pub(crate) fn stored_intact(&mut self, s: StmtId, lhs: ExprId) -> bool {
        if self.pg.f.lang != Lang::C
            || self
                .pg
                .f
                .src
                .stmts
                .iter()
                .any(|(_, st)| !st.directives.is_empty())
        {
            return false;
        }
        if matches!(self.pg.f.src.exprs[lhs], Expr::Name(_)) {
            self.kept().stores.contains_key(&s)
        } else {
            let g = &self.pg.g;
            radtap_il::extent::stored::stored_until_adjoint(g.prog, &g.int_macros, self.pg.f.p, s)
        }
    }

    /// The chain of function `c` (see the module documentation), or `None`.
    fn result_chain(&self, c: UnitId) -> Option<Vec<Step>> {
        let cu = &self.pg.prog().units[c];
        if cu.lang != Lang::C || cu.params.len() != 1 {
            return None;
        }
        let x = cu.params[0];
        let real_scalar = |s: SymbolId| {
            self.pg.prog().symbols[s]
                .ty
                .as_ref()
                .is_some_and(|t| t.base == BaseClass::Real && t.pointers == 0 && t.dims.is_empty())
        };
        if !real_scalar(x) {
            return None;
        }
        let mut body = cu
            .body
            .iter()
            .filter(|&&s| !matches!(cu.stmts[s].kind, StmtKind::Comment(_)));
        let (Some(&ret), None) = (body.next(), body.next()) else {
            return None;
        };
        let StmtKind::Return(Some(mut e)) = cu.stmts[ret].kind else {
            return None;
        };
        // A literal constant, possibly negated or parenthesised.
        let constant = |k: ExprId| {
            let mut k = k;
            loop {
                match &cu.exprs[k] {
                    Expr::Paren(a)
                    | Expr::Unary {
                        op: UnOp::Neg | UnOp::Plus,
                        arg: a,
                    } => k = *a,
                    Expr::Literal(l) => return matches!(l.kind, LitKind::Int | LitKind::Real),
                    _ => return false,
                }
            }
        };
        let mut steps = Vec::new();
        loop {
            if steps.len() > 32 {
                return None;
            }
            match &cu.exprs[e] {
                Expr::Paren(a)
                | Expr::Unary {
                    op: UnOp::Plus,
                    arg: a,
                } => e = *a,
                Expr::Name(v) if *v == x => return Some(steps),
                Expr::Unary { op: UnOp::Neg, arg } => {
                    steps.push(Step::Neg);
                    e = *arg;
                }
                Expr::Binary { op, lhs, rhs } => {
                    let (l, r) = (*lhs, *rhs);
                    let (step, next) = match op {
                        BinOp::Add if constant(r) => (Step::AddK(r), l),
                        BinOp::Add if constant(l) => (Step::AddK(l), r),
                        BinOp::Sub if constant(r) => (Step::SubK(r), l),
                        BinOp::Sub if constant(l) => (Step::KSub(l), r),
                        BinOp::Mul if constant(r) => (Step::MulK(r), l),
                        BinOp::Mul if constant(l) => (Step::MulK(l), r),
                        BinOp::Div if constant(r) => (Step::DivK(r), l),
                        BinOp::Div if constant(l) => (Step::KDiv(l), r),
                        _ => return None,
                    };
                    steps.push(step);
                    e = next;
                }
                Expr::Call { callee, args } if args.len() == 1 && args[0].keyword.is_none() => {
                    let name = match &cu.exprs[*callee] {
                        Expr::Opaque(n) => n.clone(),
                        Expr::Intrinsic(r) => r.spelling.to_string(),
                        Expr::Name(s) if self.pg.prog().symbols[*s].unit.is_none() => {
                            self.pg.prog().symbols[*s].spelling.clone()
                        }
                        _ => return None,
                    };
                    steps.push(match name.as_str() {
                        "exp" => Step::Exp,
                        "tanh" => Step::Tanh,
                        "sqrt" => Step::Sqrt,
                        _ => return None,
                    });
                    e = args[0].value;
                }
                _ => return None,
            }
        }
    }

    /// Whether function `c` has a chain (cached per function: the statements calling it
    /// check it before the proof that walks the procedure).
    fn has_result_chain(&mut self, c: UnitId) -> bool {
        if let Some(&b) = self.chains.get(&c) {
            return b;
        }
        let b = self.result_chain(c).is_some();
        self.chains.insert(c, b);
        b
    }

    /// The partial derivative of function `c` with respect to its parameter, written with
    /// its result `y` (an expression of the output unit, duplicated where used), or `None`.
    pub(crate) fn partial_from_result(&mut self, c: UnitId, y: ExprId) -> Option<ExprId> {
        let steps = self.result_chain(c)?;
        // The last step whose partial reads its output value: the values down to it must be
        // recovered, each from the one above.
        let deepest = steps.iter().rposition(|s| s.reads_value());
        if let Some(d) = deepest {
            if !steps[..d].iter().all(|s| s.cheap_inverse()) {
                return None;
            }
        }
        let cu = &self.pg.prog().units[c];
        let copy = |me: &mut Self, k: ExprId| {
            let k = Copier { src: cu }.expr(&mut me.pg.u, k);
            me.pg.paren_if_compound(k)
        };
        let one = |me: &Self, k: ExprId| {
            let mut k = k;
            while let Expr::Paren(a) = &me.pg.u.exprs[k] {
                k = *a;
            }
            matches!(&me.pg.u.exprs[k], Expr::Literal(l) if l.text.parse::<f64>().ok() == Some(1.0))
        };
        let mut value = self.dup(y);
        let mut negative = false;
        let mut num: Vec<ExprId> = Vec::new();
        let mut den: Vec<ExprId> = Vec::new();
        for (i, &step) in steps.iter().enumerate() {
            let v = value;
            match step {
                Step::Neg | Step::KSub(_) => negative = !negative,
                Step::AddK(_) | Step::SubK(_) => {}
                Step::MulK(k) => {
                    let k = copy(self, k);
                    if !one(self, k) {
                        num.push(k);
                    }
                }
                Step::DivK(k) => {
                    let k = copy(self, k);
                    if !one(self, k) {
                        den.push(k);
                    }
                }
                Step::KDiv(k) => {
                    negative = !negative;
                    let (a, b) = (self.dup(v), self.dup(v));
                    num.push(a);
                    num.push(b);
                    let k = copy(self, k);
                    if !one(self, k) {
                        den.push(k);
                    }
                }
                Step::Exp => num.push(self.dup(v)),
                Step::Tanh => {
                    let (a, b) = (self.dup(v), self.dup(v));
                    let sq = self.pg.b().mul(a, b);
                    let one = self.pg.b().real("1.0", 8);
                    let t = self.pg.b().bin(BinOp::Sub, one, sq);
                    num.push(self.pg.paren_if_compound(t));
                }
                Step::Sqrt => {
                    let two = self.pg.b().real("2.0", 8);
                    let a = self.dup(v);
                    let t = self.pg.b().mul(two, a);
                    den.push(self.pg.paren_if_compound(t));
                }
            }
            if deepest.is_none_or(|d| i >= d) {
                continue;
            }
            // The step's input: the next step's output.
            let a = self.dup(v);
            value = match step {
                Step::Neg => self.pg.b().neg(a),
                Step::AddK(k) => {
                    let k = copy(self, k);
                    self.pg.b().bin(BinOp::Sub, a, k)
                }
                Step::SubK(k) => {
                    let k = copy(self, k);
                    self.pg.b().add(a, k)
                }
                Step::KSub(k) => {
                    let k = copy(self, k);
                    self.pg.b().bin(BinOp::Sub, k, a)
                }
                Step::MulK(k) => {
                    let k = copy(self, k);
                    self.pg.b().div(a, k)
                }
                Step::DivK(k) => {
                    let k = copy(self, k);
                    self.pg.b().mul(a, k)
                }
                Step::KDiv(k) => {
                    let k = copy(self, k);
                    self.pg.b().div(k, a)
                }
                Step::Sqrt => {
                    let b = self.dup(v);
                    self.pg.b().mul(a, b)
                }
                Step::Exp | Step::Tanh => return None,
            };
            value = self.pg.paren_if_compound(value);
        }
        let mut d = match num.split_first() {
            Some((&first, rest)) => rest.iter().fold(first, |acc, &f| {
                let f = self.pg.paren_if_compound(f);
                self.pg.b().mul(acc, f)
            }),
            None => self.pg.b().real("1.0", 8),
        };
        for f in den {
            let f = self.pg.paren_if_compound(f);
            d = self.pg.b().div(d, f);
        }
        if negative {
            let d2 = self.pg.paren_if_compound(d);
            d = self.pg.b().neg(d2);
        }
        Some(d)
    }

    /// `lhs = f(a)` with `f` a user function whose partial [`Self::partial_from_result`]
    /// writes with its result, the value stored in `lhs` still there at the adjoint
    /// ([`Self::stored_intact`]): the call of `f_b` among `h.calls` becomes `ā += l̄·∂f(lhs)`.
    pub(crate) fn reuse_function_result(
        &mut self,
        s: StmtId,
        i: usize,
        targets: &[Target],
        op: Option<BinOp>,
        value: ExprId,
        restored: bool,
        h: &mut Hoisted,
    ) {
        let [Target::Expr(lhs)] = targets else {
            return;
        };
        let mut value = value;
        while let Expr::Paren(a) = self.pg.f.src.exprs[value] {
            value = a;
        }
        let Some((_, call, c)) = h.result.filter(|r| r.0 == value) else {
            return;
        };
        if !self.may_read_stored(i, op, restored)
            || !self.has_result_chain(c)
            || !self.stored_intact(s, *lhs)
        {
            return;
        }
        // `f_b(a, &ab, tb)`: the adjoint of the parameter and of the result.
        let StmtKind::Expr(ce) = self.pg.u.stmts[call].kind else {
            return;
        };
        let Expr::Call { args, .. } = &self.pg.u.exprs[ce] else {
            return;
        };
        let [_, ad, rb] = &args[..] else { return };
        let (ad, rb) = (ad.value, rb.value);
        let Expr::Unary {
            op: UnOp::AddrOf,
            arg: target,
        } = self.pg.u.exprs[ad]
        else {
            return;
        };
        let y = self.pg.cp(*lhs);
        let Some(d) = self.partial_from_result(c, y) else {
            return;
        };
        let d = self.pg.paren_if_compound(d);
        let inc = self.pg.b().mul(rb, d);
        let (t1, t2) = (self.dup(target), self.dup(target));
        let sum = self.pg.b().add(t2, inc);
        self.pg.u.stmts[call].kind = StmtKind::Assign {
            lhs: t1,
            op: None,
            rhs: sum,
        };
    }
}
