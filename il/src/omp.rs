//! OpenMP on statements (issue 45): a parallel loop (`#pragma omp parallel for`, `!$omp
//! parallel do`, or an `omp for` / `!$omp do` that is the only work of its `parallel` region,
//! fused into one parallel loop by the frontends) and an atomic update.
//!
//! The directive is a field of the statement it governs ([`Stmt::omp`]), not a comment:
//! the analyses read its clauses (private variables are per-iteration locals, reduction
//! variables accumulations) and the differentiators write new directives for the loops they
//! build. Clause variables are symbols, so a derivative unit names the derivatives of the
//! primal's private variables by the same map it uses for every other variable. Clauses the
//! differentiators need not understand (`schedule`, `num_threads(e)`, `if(e)`) are kept as
//! text and written back as they were.

use crate::ir::*;

pub use crate::omp_types::{OmpClauseOf, OmpKindOf, OmpLenOf, OmpOf};

/// An OpenMP directive governing one statement (`Stmt::omp`).
pub type Omp = OmpOf<SymbolId>;
/// The constructs radtap gives a meaning.
pub type OmpKind = OmpKindOf<SymbolId>;
/// A clause of a parallel loop.
pub type OmpClause = OmpClauseOf<SymbolId>;
/// The length of an array section in a clause.
pub type OmpLen = OmpLenOf<SymbolId>;

impl OmpClause {
    /// The variables of a data-sharing or reduction clause.
    pub fn vars(&self) -> &[SymbolId] {
        match self {
            OmpClause::Private(v)
            | OmpClause::FirstPrivate(v)
            | OmpClause::LastPrivate(v)
            | OmpClause::Shared(v)
            | OmpClause::Reduction(_, v) => v,
            OmpClause::ArrayReduction(_, x, _) => std::slice::from_ref(x),
            OmpClause::Collapse(_) | OmpClause::Default(_) | OmpClause::Other(_) => &[],
        }
    }

    fn text(&self, prog: &Program) -> String {
        let names = |v: &[SymbolId]| {
            v.iter()
                .map(|&s| prog.name(s).to_string())
                .collect::<Vec<_>>()
                .join(", ")
        };
        match self {
            OmpClause::Private(v) => format!("private({})", names(v)),
            OmpClause::FirstPrivate(v) => format!("firstprivate({})", names(v)),
            OmpClause::LastPrivate(v) => format!("lastprivate({})", names(v)),
            OmpClause::Shared(v) => format!("shared({})", names(v)),
            OmpClause::Reduction(op, v) => format!("reduction({op}: {})", names(v)),
            OmpClause::ArrayReduction(op, x, len) => match len {
                Some(OmpLen::Const(n)) => format!("reduction({op}: {}[:{n}])", prog.name(*x)),
                Some(OmpLen::Var(n)) => {
                    format!("reduction({op}: {}[:{}])", prog.name(*x), prog.name(*n))
                }
                None => format!("reduction({op}: {})", prog.name(*x)),
            },
            OmpClause::Collapse(n) => format!("collapse({n})"),
            OmpClause::Default(d) => format!("default({d})"),
            OmpClause::Other(t) => t.clone(),
        }
    }
}

impl Omp {
    /// The clauses of a parallel loop or sections construct (none for the others).
    pub fn clauses(&self) -> &[OmpClause] {
        match &self.kind {
            OmpKind::Loop(c) | OmpKind::Sections(c) => c,
            OmpKind::Atomic | OmpKind::Critical(_) | OmpKind::Section => &[],
        }
    }

    /// The variables the loop's clauses make private to an iteration or a thread
    /// (`private`, `firstprivate`, `lastprivate`).
    pub fn private_vars(&self) -> Vec<SymbolId> {
        let mut v = Vec::new();
        for c in self.clauses() {
            if let OmpClause::Private(x) | OmpClause::FirstPrivate(x) | OmpClause::LastPrivate(x) =
                c
            {
                v.extend(x.iter().copied());
            }
        }
        v
    }

    /// The reduction variables with their operator.
    pub fn reductions(&self) -> Vec<(String, SymbolId)> {
        let mut v = Vec::new();
        for c in self.clauses() {
            if let OmpClause::Reduction(op, x) = c {
                v.extend(x.iter().map(|&s| (op.clone(), s)));
            }
        }
        v
    }

    /// The directive lines written before the statement and, for a Fortran loop, after it.
    pub fn lines(&self, prog: &Program, lang: Lang) -> (String, Option<String>) {
        let (lead, word) = match lang {
            Lang::C => ("#pragma omp", "for"),
            Lang::Fortran => ("!$omp", "do"),
        };
        match &self.kind {
            OmpKind::Atomic => (format!("{lead} atomic"), None),
            OmpKind::Critical(name) => {
                let n = name
                    .as_deref()
                    .map(|n| format!(" ({n})"))
                    .unwrap_or_default();
                let end = (lang == Lang::Fortran).then(|| format!("{lead} end critical{n}"));
                (format!("{lead} critical{n}"), end)
            }
            OmpKind::Section => (format!("{lead} section"), None),
            OmpKind::Loop(clauses) | OmpKind::Sections(clauses) => {
                let word = match &self.kind {
                    OmpKind::Sections(_) => "sections",
                    _ => word,
                };
                let mut s = format!("{lead} parallel {word}");
                for c in clauses {
                    // An empty list is no clause (`private()` does not compile).
                    if matches!(
                        c,
                        OmpClause::Private(_)
                            | OmpClause::FirstPrivate(_)
                            | OmpClause::LastPrivate(_)
                            | OmpClause::Shared(_)
                            | OmpClause::Reduction(..)
                    ) && c.vars().is_empty()
                        || matches!(c, OmpClause::Collapse(_)) && word == "sections"
                    {
                        continue;
                    }
                    s.push(' ');
                    s.push_str(&c.text(prog));
                }
                let end = (lang == Lang::Fortran).then(|| format!("{lead} end parallel {word}"));
                (continued(&s, lang), end)
            }
        }
    }
}

/// A Fortran directive longer than fits a free-form line, continued on `!$omp&` lines.
fn continued(s: &str, lang: Lang) -> String {
    if lang == Lang::C || s.len() <= 100 {
        return s.to_string();
    }
    let mut out = String::new();
    let mut line = String::new();
    for w in s.split(' ') {
        if line.len() + w.len() > 90 && !line.is_empty() {
            out.push_str(&line);
            out.push_str(" &\n!$omp& ");
            line.clear();
        }
        if !line.is_empty() && !line.ends_with(' ') {
            line.push(' ');
        }
        line.push_str(w);
    }
    out.push_str(&line);
    out
}

/// Every statement of `b` and below, in order.
pub fn stmts_below(u: &UnitData, b: &[StmtId], out: &mut Vec<StmtId>) {
    for &s in b {
        out.push(s);
        if let StmtKind::CFor { init: Some(i), .. } = &u.stmts[s].kind {
            out.push(*i);
        }
        for c in crate::directives::child_blocks(&u.stmts[s].kind) {
            stmts_below(u, c, out);
        }
    }
}

/// What the statements of `b` (and below) write, by symbol: `(x, whole)` where `whole` is
/// true for a write of the variable itself (`x = …`, a loop counter, `&x` or a scalar passed
/// to a Fortran call) and false for a write of an element or part (`x[i] = …`).
pub fn written(prog: &Program, u: &UnitData, b: &[StmtId]) -> Vec<(SymbolId, bool)> {
    let mut all = Vec::new();
    stmts_below(u, b, &mut all);
    let mut out: Vec<(SymbolId, bool)> = Vec::new();
    let mut add = |x: SymbolId, whole: bool| {
        if !out.contains(&(x, whole)) {
            out.push((x, whole));
        }
    };
    for s in all {
        // Calls inside expressions (`td = f_d(x, xd, &t)`) write through their arguments too.
        let mut todo: Vec<ExprId> = Vec::new();
        crate::visit::stmt_children(&u.stmts[s].kind, &mut |e| todo.push(e), &mut |_| {});
        while let Some(e) = todo.pop() {
            if let Expr::Call { args, .. } = &u.exprs[e] {
                call_writes(prog, u, args, &mut add);
            }
            crate::visit::expr_children(&u.exprs[e], &mut |c| todo.push(c));
        }
        match &u.stmts[s].kind {
            StmtKind::Assign { lhs, .. } => match &u.exprs[*lhs] {
                Expr::Name(x) => add(*x, true),
                _ => {
                    if let Some(x) = base_name(u, *lhs) {
                        add(x, false)
                    }
                }
            },
            StmtKind::Do { var, .. } => {
                if let Expr::Name(x) = u.exprs[*var] {
                    add(x, true)
                }
            }
            StmtKind::Decl(Decl::Var(v)) => {
                for e in &v.entities {
                    add(e.sym, true)
                }
            }
            StmtKind::Expr(e) => match &u.exprs[*e] {
                Expr::IncDec { arg: t, .. } | Expr::Assign { lhs: t, .. } => {
                    if let Expr::Name(x) = u.exprs[*t] {
                        add(x, true)
                    } else if let Some(x) = base_name(u, *t) {
                        add(x, false)
                    }
                }
                _ => {}
            },
            StmtKind::Call { args, .. } => call_writes(prog, u, args, &mut add),
            _ => {}
        }
    }
    out
}

/// Whether `x` is declared in `u` (its declarations or declaration statements) with
/// dimensions or pointer derivations.
fn declared_with_dims(u: &UnitData, x: SymbolId) -> bool {
    let has = |v: &VarDecl| {
        v.entities
            .iter()
            .any(|e| e.sym == x && (e.dims.is_some() || !e.derived.is_empty()))
    };
    u.decls.iter().any(|d| matches!(d, Decl::Var(v) if has(v)))
        || u.stmts
            .iter()
            .any(|(_, s)| matches!(&s.kind, StmtKind::Decl(Decl::Var(v)) if has(v)))
}

/// What a call may write through its arguments: `&x` / `&x[i]` (C), a C pointer or array
/// passed by name (its elements), any variable or element (Fortran, by reference).
fn call_writes(prog: &Program, u: &UnitData, args: &[Arg], add: &mut dyn FnMut(SymbolId, bool)) {
    for a in args {
        match &u.exprs[a.value] {
            Expr::Unary {
                op: UnOp::AddrOf,
                arg,
            } => {
                if let Expr::Name(x) = u.exprs[*arg] {
                    add(x, true)
                } else if let Some(x) = base_name(u, *arg) {
                    add(x, false)
                }
            }
            Expr::Name(x) => {
                // A temporary may have no type: a scalar, unless declared with dimensions
                // (vector mode's `double act_resd[NBDirsMax]`).
                let t = prog.symbols[*x].ty.as_ref();
                let scalar = t.is_none_or(|t| t.dims.is_empty() && t.pointers == 0)
                    && !declared_with_dims(u, *x);
                if u.lang == Lang::Fortran || !scalar {
                    add(*x, scalar && u.lang == Lang::Fortran)
                }
            }
            _ => {
                if u.lang == Lang::Fortran {
                    if let Some(x) = base_name(u, a.value) {
                        add(x, false)
                    }
                }
            }
        }
    }
}

/// The variable at the base of a reference `x`, `x[i]`, `x(i, j)%f`.
pub fn base_name(u: &UnitData, mut e: ExprId) -> Option<SymbolId> {
    loop {
        match &u.exprs[e] {
            Expr::Name(x) => return Some(*x),
            Expr::Index { base, .. } => e = *base,
            Expr::Paren(x) => e = *x,
            _ => return None,
        }
    }
}

/// The variables declared by statements inside `b` (C block-scope locals of a loop body).
pub fn declared_below(u: &UnitData, b: &[StmtId]) -> Vec<SymbolId> {
    let mut all = Vec::new();
    stmts_below(u, b, &mut all);
    let mut out = Vec::new();
    for s in all {
        if let StmtKind::Decl(Decl::Var(v)) = &u.stmts[s].kind {
            out.extend(v.entities.iter().map(|e| e.sym));
        }
    }
    out
}

/// Whether `a` and `b` are the same reference, written alike: [`crate::visit::same_expr`]
/// that also takes a call (an intrinsic in a subscript, `y(mod(i, 3) + 1)`) as the same
/// when its callee and arguments are.
pub fn same_ref(u: &UnitData, a: ExprId, b: ExprId) -> bool {
    match (&u.exprs[a], &u.exprs[b]) {
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
            same_ref(u, *c1, *c2)
                && a1.len() == a2.len()
                && a1
                    .iter()
                    .zip(a2)
                    .all(|(p, q)| p.keyword == q.keyword && same_ref(u, p.value, q.value))
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
        ) => o1 == o2 && same_ref(u, *l1, *l2) && same_ref(u, *r1, *r2),
        (Expr::Paren(p), Expr::Paren(q)) => same_ref(u, *p, *q),
        (Expr::Index { base: b1, subs: s1 }, Expr::Index { base: b2, subs: s2 }) => {
            same_ref(u, *b1, *b2)
                && s1.len() == s2.len()
                && s1.iter().zip(s2).all(|(p, q)| match (p, q) {
                    (Subscript::Index(p), Subscript::Index(q)) => same_ref(u, *p, *q),
                    _ => false,
                })
        }
        _ => crate::visit::same_expr(u, a, b),
    }
}

/// The terms of the sum `e` (through `+`, `-` and parentheses), with their signs.
pub fn sum_terms(u: &UnitData, e: ExprId) -> Vec<(ExprId, bool)> {
    let mut terms = Vec::new();
    let mut todo = vec![(e, true)];
    while let Some((e, plus)) = todo.pop() {
        match &u.exprs[e] {
            Expr::Binary {
                op: BinOp::Add,
                lhs: a,
                rhs: b,
            } => {
                todo.push((*b, plus));
                todo.push((*a, plus));
            }
            Expr::Binary {
                op: BinOp::Sub,
                lhs: a,
                rhs: b,
            } => {
                todo.push((*b, !plus));
                todo.push((*a, plus));
            }
            Expr::Paren(a) => todo.push((*a, plus)),
            _ => terms.push((e, plus)),
        }
    }
    terms
}

/// Writes the increment `st` (`x = x + a - b`, `x += e`) in the form `omp atomic` takes,
/// `x = x + (a - b)`; false when `st` is no increment of its target.
pub fn atomic_form(u: &mut UnitData, st: StmtId) -> bool {
    let StmtKind::Assign { lhs, op, rhs } = u.stmts[st].kind.clone() else {
        return false;
    };
    if op.is_some() {
        return matches!(op, Some(BinOp::Add | BinOp::Sub | BinOp::Mul));
    }
    let mut own = None;
    let mut rest: Option<ExprId> = None;
    for (e, plus) in sum_terms(u, rhs) {
        if own.is_none() && plus && same_ref(u, e, lhs) {
            own = Some(e);
            continue;
        }
        rest = Some(match rest {
            None if plus => e,
            None => u.exprs.alloc(Expr::Unary {
                op: UnOp::Neg,
                arg: e,
            }),
            Some(r) => u.exprs.alloc(Expr::Binary {
                op: if plus { BinOp::Add } else { BinOp::Sub },
                lhs: r,
                rhs: e,
            }),
        });
    }
    let (Some(own), Some(rest)) = (own, rest) else {
        // `x = x * e` and the like: an update of another operator, taken as written.
        return matches!(&u.exprs[rhs], Expr::Binary { lhs: l, .. } if same_ref(u, *l, lhs));
    };
    let rest = u.exprs.alloc(Expr::Paren(rest));
    let sum = u.exprs.alloc(Expr::Binary {
        op: BinOp::Add,
        lhs: own,
        rhs: rest,
    });
    u.stmts[st].kind = StmtKind::Assign {
        lhs,
        op: None,
        rhs: sum,
    };
    true
}
