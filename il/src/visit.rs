//! Child enumeration for statements and expressions: the one place that knows every
//! variant's operands, so walks (verify, dump, analyses) cannot miss a new field.

use crate::ir::*;

/// Calls `f` on every direct sub-expression of `e`.
pub fn expr_children(e: &Expr, f: &mut dyn FnMut(ExprId)) {
    match e {
        Expr::Literal(_)
        | Expr::Name(_)
        | Expr::Opaque(_)
        | Expr::Intrinsic(_)
        | Expr::SizeofType(_) => {}
        Expr::Index { base, subs } => {
            f(*base);
            subs.iter().for_each(|s| subscript_children(s, f));
        }
        Expr::Call { callee, args } => {
            f(*callee);
            args.iter().for_each(|a| f(a.value));
        }
        Expr::Field { base, .. } => f(*base),
        Expr::Unary { arg, .. } | Expr::Paren(arg) | Expr::Cast { arg, .. } => f(*arg),
        Expr::IncDec { arg, .. } => f(*arg),
        Expr::Binary { lhs, rhs, .. } | Expr::Assign { lhs, rhs, .. } => {
            f(*lhs);
            f(*rhs);
        }
        Expr::ArrayCtor { items, .. } | Expr::Comma(items) => items.iter().for_each(|&i| f(i)),
        Expr::ImpliedDo {
            items,
            var,
            lo,
            hi,
            step,
        } => {
            items.iter().for_each(|&i| f(i));
            f(*var);
            f(*lo);
            f(*hi);
            step.iter().for_each(|&s| f(s));
        }
        Expr::Cond { cond, then, else_ } => {
            f(*cond);
            f(*then);
            f(*else_);
        }
        Expr::CompoundLit { init, .. } => f(*init),
        Expr::Designated { value, .. } => f(*value),
    }
}

/// Calls `f` on every expression of subscript `s`.
pub fn subscript_children(s: &Subscript, f: &mut dyn FnMut(ExprId)) {
    match s {
        Subscript::Index(e) => f(*e),
        Subscript::Range(a, b, c) => [a, b, c].into_iter().flatten().for_each(|&e| f(e)),
    }
}

/// Calls `fe` on every expression directly owned by statement `s`, and `fs` on every
/// directly nested statement (bodies of constructs).
pub fn stmt_children(s: &StmtKind, fe: &mut dyn FnMut(ExprId), fs: &mut dyn FnMut(StmtId)) {
    let block = |b: &Block, fs: &mut dyn FnMut(StmtId)| b.iter().for_each(|&x| fs(x));
    match s {
        StmtKind::Assign { lhs, rhs, .. } | StmtKind::PointerAssign { lhs, rhs } => {
            fe(*lhs);
            fe(*rhs);
        }
        StmtKind::Call { callee, args, .. } => {
            fe(*callee);
            args.iter().for_each(|a| fe(a.value));
        }
        StmtKind::Expr(e) => fe(*e),
        StmtKind::If {
            arms, else_block, ..
        }
        | StmtKind::Where {
            arms, else_block, ..
        } => {
            for (c, b) in arms {
                fe(*c);
                block(b, fs);
            }
            if let Some(b) = else_block {
                block(b, fs);
            }
        }
        StmtKind::Do {
            var,
            start,
            end,
            step,
            body,
            ..
        } => {
            fe(*var);
            fe(*start);
            fe(*end);
            step.iter().for_each(|&e| fe(e));
            block(body, fs);
        }
        StmtKind::While { cond, body, .. } | StmtKind::DoWhile { body, cond } => {
            fe(*cond);
            block(body, fs);
        }
        StmtKind::Loop { body } => block(body, fs),
        StmtKind::CFor {
            init,
            cond,
            step,
            body,
            ..
        } => {
            init.iter().for_each(|&s| fs(s));
            cond.iter().for_each(|&e| fe(e));
            step.iter().for_each(|&e| fe(e));
            block(body, fs);
        }
        StmtKind::Select { selector, cases } => {
            fe(*selector);
            for c in cases {
                for v in &c.values {
                    match v {
                        CaseValue::Value(e) => fe(*e),
                        CaseValue::Range(a, b) => [a, b].into_iter().flatten().for_each(|&e| fe(e)),
                    }
                }
                block(&c.body, fs);
            }
        }
        StmtKind::Switch { expr, body } => {
            fe(*expr);
            block(body, fs);
        }
        StmtKind::CaseLabel(e) => e.iter().for_each(|&e| fe(e)),
        StmtKind::Forall {
            specs, mask, body, ..
        } => {
            for sp in specs {
                fe(sp.var);
                fe(sp.lo);
                fe(sp.hi);
                sp.stride.iter().for_each(|&e| fe(e));
            }
            mask.iter().for_each(|&e| fe(e));
            block(body, fs);
        }
        StmtKind::Block {
            decls,
            body,
            associations,
            ..
        } => {
            decls.iter().for_each(|d| decl_exprs(d, fe));
            associations.iter().for_each(|(_, e)| fe(*e));
            block(body, fs);
        }
        StmtKind::Decl(d) => decl_exprs(d, fe),
        StmtKind::ComputedGoto { expr, .. } | StmtKind::ArithIf { expr, .. } => fe(*expr),
        StmtKind::Return(e) => e.iter().for_each(|&e| fe(e)),
        StmtKind::Stop { code, .. } => code.iter().for_each(|&e| fe(e)),
        StmtKind::Memory { items, options, .. } => {
            items.iter().for_each(|&e| fe(e));
            options.iter().for_each(|a| fe(a.value));
        }
        StmtKind::Io { items, .. } => items.iter().for_each(|&e| fe(e)),
        StmtKind::Exit(_)
        | StmtKind::Cycle(_)
        | StmtKind::Break
        | StmtKind::CContinue
        | StmtKind::Goto(_)
        | StmtKind::Continue
        | StmtKind::Empty
        | StmtKind::Format(_)
        | StmtKind::Entry { .. }
        | StmtKind::Comment(_) => {}
    }
}

fn dims_exprs(dims: &[Dim], fe: &mut dyn FnMut(ExprId)) {
    for d in dims {
        d.lower.iter().for_each(|&e| fe(e));
        if let DimUpper::Expr(e) = d.upper {
            fe(e);
        }
    }
}

fn spec_exprs(t: &TypeSpec, fe: &mut dyn FnMut(ExprId)) {
    match t.kind {
        KindSel::Paren(e) | KindSel::Keyword(e) => fe(e),
        KindSel::Default | KindSel::Star(_) => {}
    }
    if let Some(
        CharLen::Star(LenValue::Expr(e))
        | CharLen::Paren(LenValue::Expr(e))
        | CharLen::Keyword(LenValue::Expr(e)),
    ) = &t.char_len
    {
        fe(*e);
    }
}

fn cparam_exprs(p: &CParam, fe: &mut dyn FnMut(ExprId)) {
    spec_exprs(&p.spec, fe);
    ops_exprs(&p.derived, fe);
    p.dims.iter().flatten().for_each(|&e| fe(e));
}

fn ops_exprs(ops: &[DeclOp], fe: &mut dyn FnMut(ExprId)) {
    for op in ops {
        match op {
            DeclOp::Pointer(_) => {}
            DeclOp::Array(e) => e.iter().for_each(|&e| fe(e)),
            DeclOp::Function(ps, _) => ps.iter().for_each(|p| cparam_exprs(p, fe)),
        }
    }
}

/// Calls `fe` on every expression a declaration owns (bounds, kinds, initializers).
pub fn decl_exprs(d: &Decl, fe: &mut dyn FnMut(ExprId)) {
    match d {
        Decl::Var(v) => {
            spec_exprs(&v.spec, fe);
            for a in &v.attrs {
                if let Attr::Dimension(ds) = a {
                    dims_exprs(ds, fe);
                }
            }
            v.entities.iter().for_each(|en| entity_exprs(en, fe));
        }
        Decl::Parameter(ps) => ps.iter().for_each(|(_, e)| fe(*e)),
        Decl::Common(blocks) => blocks
            .iter()
            .flat_map(|(_, es)| es)
            .for_each(|en| entity_exprs(en, fe)),
        Decl::Equivalence(sets) => sets.iter().flatten().for_each(|&e| fe(e)),
        Decl::Data(sets) => {
            for s in sets {
                s.objects.iter().for_each(|&e| fe(e));
                s.values.iter().for_each(|v| data_value_exprs(v, fe));
            }
        }
        Decl::Attr(a) => a
            .items
            .iter()
            .filter_map(|i| i.dims.as_ref())
            .for_each(|d| dims_exprs(d, fe)),
        Decl::StmtFunction { body, .. } => fe(*body),
        Decl::Enumerators(es) => es.iter().filter_map(|(_, e)| *e).for_each(fe),
        Decl::Use(..)
        | Decl::Implicit(_)
        | Decl::TypeDef(_)
        | Decl::Interface(_)
        | Decl::Comment(_)
        | Decl::TrailingComment(_)
        | Decl::Directive(_)
        | Decl::Unit(_)
        | Decl::Preproc(_)
        | Decl::Verbatim(_) => {}
    }
}

fn data_value_exprs(v: &DataValue, fe: &mut dyn FnMut(ExprId)) {
    v.repeat.iter().for_each(|&e| fe(e));
    fe(v.value);
}

fn entity_exprs(en: &Entity, fe: &mut dyn FnMut(ExprId)) {
    if let Some(d) = &en.dims {
        dims_exprs(d, fe);
    }
    if let Some(LenValue::Expr(e)) = en.char_len {
        fe(e);
    }
    ops_exprs(&en.derived, fe);
    match &en.init {
        Some(Init::Expr(e) | Init::Pointer(e)) => fe(*e),
        Some(Init::Data(vs)) => vs.iter().for_each(|v| data_value_exprs(v, fe)),
        None => {}
    }
}

/// Expressions owned by a C type in a cast or `sizeof`.
pub fn cparam_children(p: &CParam, fe: &mut dyn FnMut(ExprId)) {
    cparam_exprs(p, fe)
}

/// Whether two expressions of unit `u` are the same access path, written alike (names,
/// literals as written, fields, operators, subscripts).
pub fn same_expr(u: &UnitData, a: ExprId, b: ExprId) -> bool {
    let (x, y) = (&u.exprs[a], &u.exprs[b]);
    match (x, y) {
        (Expr::Name(p), Expr::Name(q)) => p == q,
        (Expr::Literal(p), Expr::Literal(q)) => p.text == q.text,
        (Expr::Paren(p), Expr::Paren(q)) => same_expr(u, *p, *q),
        (
            Expr::Field {
                base: b1,
                field: f1,
                arrow: a1,
            },
            Expr::Field {
                base: b2,
                field: f2,
                arrow: a2,
            },
        ) => a1 == a2 && f1.eq_ignore_ascii_case(f2) && same_expr(u, *b1, *b2),
        (Expr::Unary { op: o1, arg: x1 }, Expr::Unary { op: o2, arg: x2 }) => {
            o1 == o2 && same_expr(u, *x1, *x2)
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
        ) => o1 == o2 && same_expr(u, *l1, *l2) && same_expr(u, *r1, *r2),
        (Expr::Index { base: b1, subs: s1 }, Expr::Index { base: b2, subs: s2 }) => {
            same_expr(u, *b1, *b2)
                && s1.len() == s2.len()
                && s1.iter().zip(s2).all(|(p, q)| match (p, q) {
                    (Subscript::Index(p), Subscript::Index(q)) => same_expr(u, *p, *q),
                    (Subscript::Range(a1, b1, c1), Subscript::Range(a2, b2, c2)) => {
                        let same = |x: &Option<ExprId>, y: &Option<ExprId>| match (x, y) {
                            (None, None) => true,
                            (Some(x), Some(y)) => same_expr(u, *x, *y),
                            _ => false,
                        };
                        same(a1, a2) && same(b1, b2) && same(c1, c2)
                    }
                    _ => false,
                })
        }
        _ => false,
    }
}
