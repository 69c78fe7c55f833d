//! Values the optimisations before differentiation move, share or substitute (issue 47,
//! `il::invariant_expr`, `il::cse`, `il::inline`): expressions sure to be `double` /
//! `real(8)`, without effects, worth a temporary; compared structurally; and what a write
//! may change.
//!
//! Sure means: names and elements of `double` variables and arrays, `double` literals,
//! arithmetic on those (an integer operand converts exactly as it did), smooth math
//! functions (every argument evaluated, every partial computed wherever the call is) and
//! functions of the program without effects that read nothing but their arguments. Anything
//! else (records, pointers dereferenced by `*`, `float`, a kind the pass cannot see, `min`,
//! `max`, `merge`, conditionals, short-circuit operands) is left where it is.

use crate::invariant::{key, names_in, restrict, Writes};
use crate::ir::*;
use crate::visit::expr_children;
use std::collections::{HashMap, HashSet};

/// C math functions of `double`s whose arguments are all evaluated and differentiated.
const C_SMOOTH: &[&str] = &[
    "sqrt", "exp", "log", "log10", "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh",
    "cosh", "tanh", "pow", "hypot", "cbrt", "expm1", "log1p", "erf", "erfc", "fabs",
];

/// Fortran intrinsics whose value has the type of their (real) arguments, all differentiated.
const F_SMOOTH: &[&str] = &[
    "sqrt", "exp", "log", "log10", "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh",
    "cosh", "tanh", "abs", "dsqrt", "dexp", "dlog", "dlog10", "dsin", "dcos", "dtan", "dasin",
    "dacos", "datan", "datan2", "dsinh", "dcosh", "dtanh", "dabs",
];

/// Reading context: the program, the unit, and the functions without effects reading only
/// their arguments (`invariant::pure_callees`).
pub(crate) struct Cx<'a> {
    pub prog: &'a Program,
    pub u: &'a UnitData,
    pub pure: &'a HashMap<String, UnitId>,
    /// [`Cx::real8`] and [`Cx::costly`] of the nodes asked so far: the candidate searches
    /// ask them of every node of a tree, and each answer depends on the whole subtree (a sum
    /// of 20,000 terms took 180 s unremembered). The unit is borrowed for the context's life,
    /// so the answers stay true.
    memo: std::cell::RefCell<HashMap<ExprId, Known>>,
}

/// What [`Cx::real8`] and [`Cx::costly`] answered of one node, when asked.
type Known = (Option<bool>, Option<bool>);

fn real8(t: &Type) -> bool {
    t.base == BaseClass::Real && t.bytes == Some(8)
}

impl<'a> Cx<'a> {
    /// The reading context of unit `u`.
    pub(crate) fn new(
        prog: &'a Program,
        u: &'a UnitData,
        pure: &'a HashMap<String, UnitId>,
    ) -> Self {
        Cx {
            prog,
            u,
            pure,
            memo: Default::default(),
        }
    }

    fn var_ty(&self, s: SymbolId) -> Option<&Type> {
        let d = &self.prog.symbols[s];
        matches!(d.kind, SymbolKind::Variable | SymbolKind::Constant)
            .then_some(d.ty.as_ref())
            .flatten()
    }

    /// The smooth math function or pure program function `callee` names, if any: `Ok(true)`
    /// for a math function, `Ok(false)` for a function of the program.
    fn callee(&self, callee: ExprId) -> Option<bool> {
        let Expr::Name(f) = self.u.exprs[callee] else {
            return None;
        };
        let d = &self.prog.symbols[f];
        // Asked of every call node of every candidate search: no string is built unless the
        // program has pure functions to look up.
        if d.kind == SymbolKind::Intrinsic {
            let math = match self.u.lang {
                Lang::C => C_SMOOTH.contains(&d.spelling.as_str()),
                Lang::Fortran => F_SMOOTH.iter().any(|n| n.eq_ignore_ascii_case(&d.spelling)),
            };
            return math.then_some(true);
        }
        (!self.pure.is_empty() && self.pure.contains_key(&key(self.u.lang, &d.spelling)))
            .then_some(false)
    }

    /// Whether `e` is surely an integer value without effects.
    pub(crate) fn int(&self, e: ExprId) -> bool {
        match &self.u.exprs[e] {
            Expr::Literal(l) => l.kind == LitKind::Int && !l.text.contains('_'),
            Expr::Name(s) => self.var_ty(*s).is_some_and(|t| {
                t.base == BaseClass::Integer && t.dims.is_empty() && t.pointers == 0
            }),
            Expr::Paren(a)
            | Expr::Unary {
                op: UnOp::Neg | UnOp::Plus,
                arg: a,
            } => self.int(*a),
            Expr::Binary { op, lhs, rhs } => {
                matches!(
                    op,
                    BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem
                ) && self.int(*lhs)
                    && self.int(*rhs)
            }
            Expr::Index { .. } => self
                .element(e)
                .is_some_and(|t| t.base == BaseClass::Integer),
            _ => false,
        }
    }

    /// The type of array element `e` (`a[i]`, `a(i, j)` with integer subscripts, one per
    /// dimension; C: one subscript of a pointer or one-dimensional array).
    fn element(&self, e: ExprId) -> Option<&Type> {
        let Expr::Index { base, subs } = &self.u.exprs[e] else {
            return None;
        };
        let Expr::Name(b) = self.u.exprs[*base] else {
            return None;
        };
        let t = self.var_ty(b)?;
        let rank = match self.u.lang {
            Lang::C => (t.pointers as usize + t.dims.len() == 1).then_some(1)?,
            Lang::Fortran => (t.pointers == 0).then_some(t.dims.len())?,
        };
        let ok = subs.len() == rank
            && subs
                .iter()
                .all(|s| matches!(s, Subscript::Index(i) if self.int(*i)));
        ok.then_some(t)
    }

    /// Whether `e` is surely a `double` / `real(8)` value without effects.
    pub(crate) fn real8(&self, e: ExprId) -> bool {
        if let Some((Some(r), _)) = self.memo.borrow().get(&e) {
            return *r;
        }
        let r = self.real8_of(e);
        self.memo.borrow_mut().entry(e).or_default().0 = Some(r);
        r
    }

    fn real8_of(&self, e: ExprId) -> bool {
        let u = self.u;
        match &u.exprs[e] {
            Expr::Literal(l) => {
                l.kind == LitKind::Real && {
                    let t = l.text.to_ascii_lowercase();
                    match u.lang {
                        Lang::C => !t.ends_with('f') && !t.ends_with('l') && !t.contains('x'),
                        Lang::Fortran => t.contains('d') && !t.contains('_'),
                    }
                }
            }
            Expr::Name(s) => self
                .var_ty(*s)
                .is_some_and(|t| real8(t) && t.dims.is_empty() && t.pointers == 0),
            Expr::Index { .. } => self.element(e).is_some_and(real8),
            Expr::Paren(a)
            | Expr::Unary {
                op: UnOp::Neg | UnOp::Plus,
                arg: a,
            } => self.real8(*a),
            Expr::Binary { op, lhs, rhs } => match op {
                BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div => {
                    let (l, r) = (self.real8(*lhs), self.real8(*rhs));
                    (l && (r || self.int(*rhs))) || (r && self.int(*lhs))
                }
                BinOp::Pow => self.real8(*lhs) && (self.real8(*rhs) || self.int(*rhs)),
                _ => false,
            },
            Expr::Call { callee, args } => match self.callee(*callee) {
                Some(true) => {
                    !args.is_empty()
                        && args.iter().all(|a| {
                            a.keyword.is_none()
                                && (self.real8(a.value) || (u.lang == Lang::C && self.int(a.value)))
                        })
                }
                Some(false) => {
                    let Expr::Name(f) = u.exprs[*callee] else {
                        return false;
                    };
                    let f = self.pure[&key(u.lang, &self.prog.symbols[f].spelling)];
                    let fu = &self.prog.units[f];
                    let result = fu
                        .result
                        .and_then(|r| self.prog.symbols[r].ty.as_ref())
                        .is_some_and(|t| real8(t) && t.dims.is_empty() && t.pointers == 0);
                    result
                        && args.len() == fu.params.len()
                        && args.iter().all(|a| self.plain(a.value))
                }
                None => false,
            },
            _ => false,
        }
    }

    /// An argument of a pure function: names, literals, elements and arithmetic on them.
    fn plain(&self, e: ExprId) -> bool {
        match &self.u.exprs[e] {
            Expr::Name(s) => self.var_ty(*s).is_some(),
            Expr::Literal(_) => true,
            Expr::Index { .. } => self.element(e).is_some(),
            _ => self.real8(e) || self.int(e),
        }
    }

    /// Whether `e` is worth a temporary: a division, a power, a call, or a product of two
    /// operands neither of which is a literal.
    pub(crate) fn costly(&self, e: ExprId) -> bool {
        if let Some((_, Some(c))) = self.memo.borrow().get(&e) {
            return *c;
        }
        let u = self.u;
        let literal = |mut x: ExprId| loop {
            match &u.exprs[x] {
                Expr::Paren(a) | Expr::Unary { arg: a, .. } => x = *a,
                Expr::Literal(_) => return true,
                _ => return false,
            }
        };
        let c = match &u.exprs[e] {
            Expr::Binary {
                op: BinOp::Div | BinOp::Pow,
                ..
            }
            | Expr::Call { .. } => true,
            Expr::Binary {
                op: BinOp::Mul,
                lhs,
                rhs,
            } if !literal(*lhs) && !literal(*rhs) => true,
            Expr::Index { .. } => false,
            k => {
                let mut any = false;
                expr_children(k, &mut |c| any = any || self.costly(c));
                any
            }
        };
        self.memo.borrow_mut().entry(e).or_default().1 = Some(c);
        c
    }

    /// The largest sub-expressions of `e` that are sure `double`s worth a temporary, for
    /// which `keep` holds, and are evaluated whenever `e` is (not an operand of `&&`/`||`
    /// after the first, not a branch of `?:`, not an argument of a call other than a smooth
    /// math function or pure function), in evaluation order.
    pub(crate) fn candidates(
        &self,
        e: ExprId,
        out: &mut Vec<ExprId>,
        keep: &dyn Fn(ExprId) -> bool,
    ) {
        // A value in parentheses is taken with them (its node is replaced).
        let v = unparen(self.u, e);
        if self.real8(v) && self.costly(v) && keep(v) {
            out.push(e);
            return;
        }
        self.each_evaluated_child(v, &mut |x| self.candidates(x, out, keep));
    }

    /// Every sub-expression of `e` [`Cx::candidates`] could give, the larger first (at most
    /// `cap`).
    pub(crate) fn nested_candidates(&self, e: ExprId, out: &mut Vec<ExprId>, cap: usize) {
        if out.len() >= cap {
            return;
        }
        let v = unparen(self.u, e);
        if self.real8(v) && self.costly(v) {
            out.push(e);
        }
        self.each_evaluated_child(v, &mut |x| self.nested_candidates(x, out, cap));
    }

    /// The operands of `e` evaluated whenever `e` is and whose values can be candidates (the
    /// first operand of `&&`/`||`, the condition of `?:`, the arguments of smooth math and
    /// pure functions; not subscripts).
    /// (Called for every node of every candidate search: `f` is called in place, with no
    /// list built.)
    pub(crate) fn each_evaluated_child(&self, e: ExprId, f: &mut dyn FnMut(ExprId)) {
        match &self.u.exprs[e] {
            Expr::Binary {
                op: BinOp::And | BinOp::Or,
                lhs,
                ..
            } => f(*lhs),
            Expr::Cond { cond, .. } => f(*cond),
            Expr::Call { callee, args } => {
                if self.callee(*callee).is_some() {
                    args.iter().for_each(|a| f(a.value));
                }
            }
            Expr::Index { .. } | Expr::Assign { .. } | Expr::Comma(_) | Expr::IncDec { .. } => {}
            k => expr_children(k, f),
        }
    }

    /// Whether nothing `w` writes can change the value of `e` (`taken`: the unit's variables
    /// whose address is taken or that arrays alias, [`exposed`]).
    pub(crate) fn unchanged(&self, e: ExprId, w: &Writes, taken: &HashSet<SymbolId>) -> bool {
        let (prog, u) = (self.prog, self.u);
        let mut ok = true;
        names_in(u, e, &mut |s| {
            let d = &prog.symbols[s];
            if !matches!(d.kind, SymbolKind::Variable | SymbolKind::Constant) {
                return;
            }
            if w.vars.contains(&s) || w.through.contains(&s) || d.attrs.pointer || d.attrs.target {
                ok = false;
                return;
            }
            if u.lang == Lang::C && !w.through.is_empty() {
                // A write through a pointer may reach memory `s` reads unless `s` is a local
                // scalar never aliased, or a `restrict` pointer parameter never reassigned
                // and every pointer written through is one too.
                let ty = d.ty.as_ref();
                let indirect = ty.is_some_and(|t| t.pointers > 0 || !t.dims.is_empty());
                let local = local_of(prog, u, s);
                let stable = |p: SymbolId| restrict(prog, u, p) && !taken.contains(&p);
                let safe = if indirect {
                    stable(s) && w.through.iter().all(|&q| stable(q))
                } else {
                    local && !taken.contains(&s)
                };
                if !safe {
                    ok = false;
                }
            }
        });
        ok
    }
}

/// Whether `s` is a variable of unit `u`'s own scope or one of its C block scopes.
fn local_of(prog: &Program, u: &UnitData, s: SymbolId) -> bool {
    let mut sc = Some(prog.symbols[s].scope);
    while let Some(x) = sc {
        if x == u.scope {
            return prog.symbols[s].common.is_none();
        }
        sc = match prog.scopes[x].kind {
            ScopeKind::Block => prog.scopes[x].parent,
            _ => None,
        };
    }
    false
}

/// The C variables of unit `u` whose address is taken (`&x`, `&a[i]`) and the pointers it
/// assigns whole (`q = p`, `p++`): what a write through a pointer may reach, and pointers
/// whose `restrict` the passes do not trust.
pub(crate) fn exposed(prog: &Program, u: &UnitData) -> HashSet<SymbolId> {
    let mut out = HashSet::new();
    if u.lang != Lang::C {
        return out;
    }
    let pointer = |s: SymbolId| prog.symbols[s].ty.as_ref().is_none_or(|t| t.pointers > 0);
    let whole = |lhs: ExprId, out: &mut HashSet<SymbolId>| {
        if let Expr::Name(s) = u.exprs[lhs] {
            if pointer(s) {
                out.insert(s);
            }
        }
    };
    for (_, e) in u.exprs.iter() {
        match e {
            Expr::Unary {
                op: UnOp::AddrOf,
                arg,
            } => {
                let mut x = *arg;
                loop {
                    match &u.exprs[x] {
                        Expr::Name(s) => {
                            out.insert(*s);
                            break;
                        }
                        Expr::Index { base, .. } | Expr::Field { base, .. } => x = *base,
                        Expr::Paren(a) => x = *a,
                        _ => break,
                    }
                }
            }
            Expr::Assign { lhs, .. } | Expr::IncDec { arg: lhs, .. } => whole(*lhs, &mut out),
            _ => {}
        }
    }
    for (_, st) in u.stmts.iter() {
        if let StmtKind::Assign { lhs, .. } = &st.kind {
            whole(*lhs, &mut out);
        }
    }
    out
}

/// Whether `a` and `b` compute the same value alike (same names, literals as written,
/// operators, subscripts, callees and arguments).
pub(crate) fn same_value(u: &UnitData, a: ExprId, b: ExprId) -> bool {
    let (a, b) = (unparen(u, a), unparen(u, b));
    match (&u.exprs[a], &u.exprs[b]) {
        (Expr::Name(p), Expr::Name(q)) => p == q,
        (Expr::Literal(p), Expr::Literal(q)) => p.kind == q.kind && p.text == q.text,
        (Expr::Unary { op: o1, arg: x1 }, Expr::Unary { op: o2, arg: x2 }) => {
            o1 == o2 && same_value(u, *x1, *x2)
        }
        (
            Expr::Binary {
                op: o1,
                lhs: l1,
                rhs: r1,
            },
            Expr::Binary {
                op: o2,
                lhs: l2,
                rhs: r2,
            },
        ) => o1 == o2 && same_value(u, *l1, *l2) && same_value(u, *r1, *r2),
        (Expr::Index { base: b1, subs: s1 }, Expr::Index { base: b2, subs: s2 }) => {
            same_value(u, *b1, *b2)
                && s1.len() == s2.len()
                && s1.iter().zip(s2).all(|(p, q)| match (p, q) {
                    (Subscript::Index(p), Subscript::Index(q)) => same_value(u, *p, *q),
                    _ => false,
                })
        }
        (
            Expr::Call {
                callee: c1,
                args: a1,
            },
            Expr::Call {
                callee: c2,
                args: a2,
            },
        ) => {
            same_value(u, *c1, *c2)
                && a1.len() == a2.len()
                && a1
                    .iter()
                    .zip(a2)
                    .all(|(p, q)| p.keyword == q.keyword && same_value(u, p.value, q.value))
        }
        _ => false,
    }
}

/// `e` without the parentheses around it (the tree already orders its operations).
pub(crate) fn unparen(u: &UnitData, mut e: ExprId) -> ExprId {
    while let Expr::Paren(x) = u.exprs[e] {
        e = x;
    }
    e
}

/// Moves the value of `e` to a new node (its source position too), makes `e` name `t`,
/// and returns the assignment `t = value` (without the parentheses around the value).
pub(crate) fn move_to(
    u: &mut UnitData,
    e: ExprId,
    t: SymbolId,
    span: Option<crate::Span>,
) -> StmtId {
    let inner = unparen(u, e);
    let value = u.exprs[inner].clone();
    let moved = u.exprs.alloc(value);
    if let Some(sp) = u.source_map.expr.get(e).copied() {
        u.source_map.expr.insert(moved, sp);
    }
    u.exprs[e] = Expr::Name(t);
    u.assign_var(t, moved, span)
}

/// Whether unit `u` is one the passes leave alone: an OpenMP directive (a temporary would be
/// shared by the threads) or a Fortran EQUIVALENCE (names that alias).
pub(crate) fn untouchable(u: &UnitData) -> bool {
    u.stmts.iter().any(|(_, s)| s.omp.is_some())
        || u.decls.iter().any(|d| matches!(d, Decl::Equivalence(_)))
}

/// A new `double` / `real(8)` local of unit `uid` named `base` (or `base1`, …); Fortran:
/// declared after the unit's declarations; C: its declaration pushed on `pending`, for
/// [`declare`] to put after the body's leading declarations.
pub(crate) fn double_temp(
    prog: &mut Program,
    uid: UnitId,
    base: &str,
    pending: &mut Vec<StmtId>,
) -> SymbolId {
    let ty = Type {
        base: BaseClass::Real,
        bytes: Some(8),
        dims: Vec::new(),
        pointers: 0,
    };
    let scope = prog.units[uid].scope;
    let t = prog.add_fresh_variable(scope, base, Some(ty));
    let u = &mut prog.units[uid];
    let lang = u.lang;
    let kind = match lang {
        Lang::C => KindSel::Default,
        Lang::Fortran => KindSel::Paren(u.int_literal(8)),
    };
    let spec = TypeSpec {
        class: BaseClass::Real,
        keyword: match lang {
            Lang::C => "double",
            Lang::Fortran => "real",
        }
        .into(),
        name: None,
        kind,
        char_len: None,
        bytes: Some(8),
        qualifiers: Vec::new(),
        inline_def: None,
    };
    let mut decl = Decl::one(spec, t, Vec::new());
    if let Decl::Var(v) = &mut decl {
        v.double_colon = lang == Lang::Fortran;
    }
    match lang {
        Lang::C => pending.push(u.new_stmt(StmtKind::Decl(decl), None)),
        Lang::Fortran => {
            let at = u
                .decls
                .iter()
                .rposition(|d| matches!(d, Decl::Var(_)))
                .map_or(u.decls.len(), |i| i + 1);
            u.decls.insert(at, decl);
        }
    }
    t
}

/// Puts the C declarations `pending` after the leading declarations of unit `uid`'s body.
pub(crate) fn declare(prog: &mut Program, uid: UnitId, pending: Vec<StmtId>) {
    let u = &mut prog.units[uid];
    let at = u
        .body
        .iter()
        .position(|&s| !matches!(u.stmts[s].kind, StmtKind::Decl(_)))
        .unwrap_or(u.body.len());
    u.body.splice(at..at, pending);
}
