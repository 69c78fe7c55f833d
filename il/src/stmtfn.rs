//! Statement functions are inlined before differentiation.
//!
//! `PSAT(TT) = EXP(1.2D1 - 4.0D3/(TT + 2.0D2))` and a reference `PSAT(TM)` in a statement
//! become `(EXP(1.2D1 - 4.0D3/((TM) + 2.0D2)))`: the body with each dummy replaced by its
//! actual, parenthesised, and the whole parenthesised. References inside the bodies of
//! other statement functions are inlined in turn. The analyses and both modes then see an
//! ordinary expression, whatever its arguments carry.
//!
//! A statement function converts its actuals to the types of its dummies and its value to
//! its own type: an actual (or body) that is not known to have that type already is
//! wrapped in the conversion (`dble(…)`, `real(…)`, `int(…)`); a dummy or result of another
//! type (logical, character, complex) is substituted only when it is known to match, and
//! the reference is left as it was otherwise (the generators then refuse it when its
//! arguments are active, AD020 at its use). The declaration stays, unused.

use crate::copy::expr_slots;
use crate::ir::*;
use std::collections::HashMap;

/// Inlines every reference to a statement function in the Fortran units of `prog`.
pub fn inline_statement_functions(prog: &mut Program) {
    let units: Vec<UnitId> = prog
        .units
        .iter()
        .filter(|(_, u)| {
            u.lang == Lang::Fortran
                && u.decls
                    .iter()
                    .any(|d| matches!(d, Decl::StmtFunction { .. }))
        })
        .map(|(id, _)| id)
        .collect();
    for uid in units {
        let mut fns: HashMap<SymbolId, (Vec<SymbolId>, ExprId)> = HashMap::new();
        for d in &prog.units[uid].decls {
            if let Decl::StmtFunction { name, params, body } = d {
                fns.insert(*name, (params.clone(), *body));
            }
        }
        // Only the references in statements: the declarations stay as written.
        let mut refs = Vec::new();
        {
            let u = &prog.units[uid];
            let mut stack: Vec<ExprId> = Vec::new();
            for (_, s) in u.stmts.iter() {
                crate::visit::stmt_children(&s.kind, &mut |e| stack.push(e), &mut |_| {});
            }
            while let Some(e) = stack.pop() {
                if let Expr::Call { callee, .. } = &u.exprs[e] {
                    if matches!(u.exprs[*callee], Expr::Name(f) if fns.contains_key(&f)) {
                        refs.push(e);
                    }
                }
                crate::visit::expr_children(&u.exprs[e], &mut |k| stack.push(k));
            }
        }
        let sym_types: HashMap<SymbolId, Option<Type>> = fns
            .iter()
            .flat_map(|(f, (ps, _))| std::iter::once(*f).chain(ps.iter().copied()))
            .map(|s| (s, type_or_implicit(prog, uid, s)))
            .collect();
        // The conversion intrinsics, as symbols of the unit like the frontend makes them
        // (an opaque name would be an unknown external to the analyses).
        let scope = prog.units[uid].scope;
        let mut conv = HashMap::new();
        for f in ["dble", "real", "int"] {
            let s = match prog.lookup(scope, f) {
                Some(s) if prog.symbols[s].kind == SymbolKind::Intrinsic => Some(s),
                Some(_) => None,
                None => Some(prog.add_symbol(
                    scope,
                    f.to_string(),
                    SymbolData {
                        spelling: f.to_string(),
                        kind: SymbolKind::Intrinsic,
                        scope,
                        ty: None,
                        attrs: SymAttrs::default(),
                        unit: None,
                        common: None,
                        implicit_type: false,
                    },
                )),
            };
            conv.insert(f, s);
        }
        let cx = Cx {
            prog,
            fns: &fns,
            types: &sym_types,
            conv: &conv,
        };
        let mut unit = prog.units[uid].clone();
        let u = &mut unit;
        for e in refs {
            // A reference inside the actual of one inlined before is still where it was
            // (the actual node moved into the inlined body) and is rewritten in place.
            if let Some(new) = cx.inline(u, e, 0) {
                u.exprs[e] = new;
            }
        }
        prog.units[uid] = unit;
    }
}

/// The type of `s`, or the one the implicit rules of unit `uid` give its name (a statement
/// function's type is often only implicit).
fn type_or_implicit(prog: &Program, uid: UnitId, s: SymbolId) -> Option<Type> {
    if let Some(t) = &prog.symbols[s].ty {
        return Some(t.clone());
    }
    let first = prog.symbols[s]
        .spelling
        .chars()
        .next()?
        .to_ascii_lowercase();
    if !first.is_ascii_lowercase() {
        return None;
    }
    let sc = &prog.scopes[prog.units[uid].scope];
    let (base, bytes) = match sc.implicit.get((first as u8 - b'a') as usize) {
        Some(Some(spec)) => (spec.class, spec.bytes),
        _ if sc.implicit_none => return None,
        _ if ('i'..='n').contains(&first) => (BaseClass::Integer, Some(4)),
        _ => (BaseClass::Real, Some(4)),
    };
    Some(Type {
        base,
        bytes,
        dims: Vec::new(),
        pointers: 0,
    })
}

struct Cx<'a> {
    prog: &'a Program,
    fns: &'a HashMap<SymbolId, (Vec<SymbolId>, ExprId)>,
    types: &'a HashMap<SymbolId, Option<Type>>,
    conv: &'a HashMap<&'static str, Option<SymbolId>>,
}

impl Cx<'_> {
    /// The node that replaces reference `e`, its body inlined, or `None` when it cannot be
    /// inlined.
    fn inline(&self, u: &mut UnitData, e: ExprId, depth: usize) -> Option<Expr> {
        if depth > 64 {
            return None;
        }
        let Expr::Call { callee, args } = u.exprs[e].clone() else {
            return None;
        };
        let Expr::Name(f) = u.exprs[callee] else {
            return None;
        };
        let (params, body) = self.fns.get(&f)?.clone();
        if params.len() != args.len() || args.iter().any(|a| a.keyword.is_some()) {
            return None;
        }
        // Each actual node is used at the dummy's first appearance and copied for the
        // others, so no sub-expression is left behind unreferenced.
        let mut actuals = HashMap::new();
        for (p, a) in params.iter().zip(&args) {
            let v = self.convert(u, a.value, self.types.get(p).cloned().flatten())?;
            actuals.insert(*p, (v, false));
        }
        let b = self.dup(u, body, &mut actuals, depth + 1)?;
        let t = self.types.get(&f).cloned().flatten();
        match self.conversion(u, b, t)? {
            None => Some(Expr::Paren(b)),
            Some(f) => {
                let callee = u.exprs.alloc(Expr::Name((*self.conv.get(f)?)?));
                Some(Expr::Call {
                    callee,
                    args: vec![Arg {
                        keyword: None,
                        value: b,
                    }],
                })
            }
        }
    }

    /// A copy of `e` with the dummies in `subst` replaced by (copies of) their actuals, and
    /// the statement function references in it inlined.
    fn dup(
        &self,
        u: &mut UnitData,
        e: ExprId,
        subst: &mut HashMap<SymbolId, (ExprId, bool)>,
        depth: usize,
    ) -> Option<ExprId> {
        if let Expr::Name(s) = u.exprs[e] {
            if let Some((a, used)) = subst.get_mut(&s) {
                let a = *a;
                let c = if *used {
                    self.dup(u, a, &mut HashMap::new(), depth)?
                } else {
                    *used = true;
                    a
                };
                let simple = matches!(
                    u.exprs[c],
                    Expr::Name(_)
                        | Expr::Literal(_)
                        | Expr::Index { .. }
                        | Expr::Field { .. }
                        | Expr::Call { .. }
                        | Expr::Paren(_)
                );
                return Some(if simple {
                    c
                } else {
                    u.exprs.alloc(Expr::Paren(c))
                });
            }
        }
        let mut node = u.exprs[e].clone();
        let mut ok = true;
        expr_slots(
            &mut node,
            &mut |slot| match self.dup(u, *slot, subst, depth) {
                Some(c) => *slot = c,
                None => ok = false,
            },
        );
        if !ok {
            return None;
        }
        let id = u.exprs.alloc(node);
        if let Expr::Call { callee, .. } = &u.exprs[id] {
            if matches!(u.exprs[*callee], Expr::Name(f) if self.fns.contains_key(&f)) {
                let b = self.inline(u, id, depth + 1)?;
                u.exprs[id] = b;
            }
        }
        Some(id)
    }

    /// The intrinsic converting `e` to type `t`: `Some(None)` when `e` has that type
    /// already, `None` when no conversion is known.
    fn conversion(&self, u: &UnitData, e: ExprId, t: Option<Type>) -> Option<Option<&'static str>> {
        let t = t?;
        if !t.dims.is_empty() {
            return None;
        }
        let want = (t.base, t.bytes);
        if self.type_of(u, e) == Some(want) {
            return Some(None);
        }
        match want {
            (BaseClass::Real, Some(8)) => Some(Some("dble")),
            (BaseClass::Real, Some(4)) => Some(Some("real")),
            (BaseClass::Integer, Some(4)) => Some(Some("int")),
            _ => None,
        }
    }

    /// `e` converted to type `t` (see [`Cx::conversion`]).
    fn convert(&self, u: &mut UnitData, e: ExprId, t: Option<Type>) -> Option<ExprId> {
        let Some(f) = self.conversion(u, e, t)? else {
            return Some(e);
        };
        let callee = u.exprs.alloc(Expr::Name((*self.conv.get(f)?)?));
        Some(u.exprs.alloc(Expr::Call {
            callee,
            args: vec![Arg {
                keyword: None,
                value: e,
            }],
        }))
    }

    /// The type of a scalar expression when it is sure: names, literals, arithmetic on
    /// operands of one type, and the elemental intrinsics that keep their argument's type.
    fn type_of(&self, u: &UnitData, e: ExprId) -> Option<(BaseClass, Option<u32>)> {
        match &u.exprs[e] {
            Expr::Name(s) => {
                let t = match self.types.get(s) {
                    Some(t) => t.clone(),
                    None => self.prog.symbols[*s].ty.clone(),
                }?;
                t.dims.is_empty().then_some((t.base, t.bytes))
            }
            Expr::Literal(l) => match l.kind {
                LitKind::Int if !l.text.contains('_') => Some((BaseClass::Integer, Some(4))),
                LitKind::Real => {
                    let t = l.text.to_ascii_lowercase();
                    if t.contains('_') || t.contains('q') {
                        None
                    } else if t.contains('d') {
                        Some((BaseClass::Real, Some(8)))
                    } else {
                        Some((BaseClass::Real, Some(4)))
                    }
                }
                _ => None,
            },
            // An element `x(i)`.
            Expr::Index { base, subs } => {
                let Expr::Name(b) = &u.exprs[*base] else {
                    return None;
                };
                let t = self.prog.symbols[*b].ty.as_ref()?;
                let elem = subs.len() == t.dims.len()
                    && subs.iter().all(|s| {
                        matches!(s, Subscript::Index(i)
                            if self.type_of(u, *i).is_some_and(|t| t.0 == BaseClass::Integer))
                    });
                elem.then_some((t.base, t.bytes))
            }
            Expr::Paren(a) | Expr::Unary { arg: a, .. } => self.type_of(u, *a),
            Expr::Binary { op, lhs, rhs } => {
                let (l, r) = (self.type_of(u, *lhs)?, self.type_of(u, *rhs)?);
                // Mixed arithmetic: an integer operand takes the real one's type.
                let mixed = match (l.0, r.0) {
                    (BaseClass::Real, BaseClass::Integer) => Some(l),
                    (BaseClass::Integer, BaseClass::Real) => Some(r),
                    _ => (l == r).then_some(l),
                };
                match op {
                    BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div => mixed,
                    // `x**2`: the base's type.
                    BinOp::Pow if r.0 == BaseClass::Integer => Some(l),
                    BinOp::Pow => (l == r).then_some(l),
                    _ => None,
                }
            }
            Expr::Call { callee, args } => {
                let name = match &u.exprs[*callee] {
                    Expr::Name(s) if self.prog.symbols[*s].kind == SymbolKind::Intrinsic => {
                        self.prog.symbols[*s].spelling.to_ascii_lowercase()
                    }
                    Expr::Opaque(n) => n.to_ascii_lowercase(),
                    Expr::Intrinsic(r) => r.spelling.to_string(),
                    _ => return None,
                };
                match name.as_str() {
                    "dble" | "dfloat" => Some((BaseClass::Real, Some(8))),
                    // Elemental functions whose value has the type of their argument.
                    n if args.len() == 1
                        && crate::vocab::is(n, Lang::Fortran, crate::vocab::SAME_TYPE) =>
                    {
                        self.type_of(u, args[0].value)
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }
}
