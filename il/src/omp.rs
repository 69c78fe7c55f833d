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

/// An OpenMP directive governing one statement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Omp {
    /// What it is.
    pub kind: OmpKind,
    /// Where the directive is, when it came from the source.
    pub span: Option<crate::diag::Span>,
}

/// The constructs radtap gives a meaning.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OmpKind {
    /// A parallel loop (`parallel for` / `parallel do`) over a DO or counted C `for`.
    Loop(Vec<OmpClause>),
    /// `omp atomic` on an update `x = x op e` / `x op= e`.
    Atomic,
}

/// A clause of a parallel loop.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OmpClause {
    /// `private(…)`.
    Private(Vec<SymbolId>),
    /// `firstprivate(…)`.
    FirstPrivate(Vec<SymbolId>),
    /// `lastprivate(…)`.
    LastPrivate(Vec<SymbolId>),
    /// `shared(…)`.
    Shared(Vec<SymbolId>),
    /// `reduction(op: …)`, the operator as written (`+`, `*`, `max`, `min`, …).
    Reduction(String, Vec<SymbolId>),
    /// `collapse(n)`.
    Collapse(u32),
    /// `default(…)`, the argument as written.
    Default(String),
    /// Anything else (`schedule(static)`, `num_threads(4)`, `nowait`), as written.
    Other(String),
}

impl OmpClause {
    /// The variables of a data-sharing or reduction clause.
    pub fn vars(&self) -> &[SymbolId] {
        match self {
            OmpClause::Private(v)
            | OmpClause::FirstPrivate(v)
            | OmpClause::LastPrivate(v)
            | OmpClause::Shared(v)
            | OmpClause::Reduction(_, v) => v,
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
            OmpClause::Collapse(n) => format!("collapse({n})"),
            OmpClause::Default(d) => format!("default({d})"),
            OmpClause::Other(t) => t.clone(),
        }
    }
}

impl Omp {
    /// The clauses of a parallel loop (none for an atomic update).
    pub fn clauses(&self) -> &[OmpClause] {
        match &self.kind {
            OmpKind::Loop(c) => c,
            OmpKind::Atomic => &[],
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
            OmpKind::Loop(clauses) => {
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
            StmtKind::Call { args, .. } => {
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
                        Expr::Name(x) if u.lang == Lang::Fortran => {
                            let scalar = prog.symbols[*x]
                                .ty
                                .as_ref()
                                .is_some_and(|t| t.dims.is_empty());
                            add(*x, scalar)
                        }
                        _ => {
                            if let Some(x) = base_name(u, a.value) {
                                if u.lang == Lang::Fortran {
                                    add(x, false)
                                }
                            }
                        }
                    }
                }
            }
            _ => {}
        }
    }
    out
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
