//! OpenMP in the derivative units (issue 45): the directive of a derivative loop.
//!
//! Tangent: the derivative loop is the primal loop with derivative statements, so it runs
//! in parallel under the same directive, each clause extended with the derivatives of its
//! variables (`private(t, td)`, `reduction(+: s, sd)`); the temporaries the tangent writes in
//! the loop and the derivatives of variables declared inside it are private. The adjoint
//! builds its clauses with [`ProcGen::omp_privates`] too (`diff-adjoint/src/omp.rs`).

use super::*;
use radtap_il::omp::{declared_below, stmts_below, written, OmpClause};

impl ProcGen<'_, '_> {
    /// `clauses` for the derivative loop `lp` of the primal parallel loop `s`, with a
    /// `private` clause added for what the derivative loop writes and nobody else may see:
    /// the temporaries of this unit, the derivatives of variables declared inside the primal
    /// loop, and the counters of the loops nested inside. `collapse(n)` is kept only when
    /// the derivative nest is still perfect (else the outer loop alone is parallel).
    pub fn omp_privates(
        &self,
        s: StmtId,
        lp: StmtId,
        mut clauses: Vec<OmpClause>,
    ) -> Vec<OmpClause> {
        let prog = &self.g.out;
        let src_body = loop_body(self.f.src, s);
        let inside = declared_below(self.f.src, &src_body);
        let body = loop_body(&self.u, lp);
        let declared_here = declared_below(&self.u, &body);
        let rev: HashMap<SymbolId, SymbolId> = self.dvar.iter().map(|(&y, &d)| (d, y)).collect();
        let listed: HashSet<SymbolId> = clauses.iter().flat_map(|c| c.vars().to_vec()).collect();
        let own = loop_counter(&self.u, lp);
        let mut counters = Vec::new();
        let mut all = Vec::new();
        stmts_below(&self.u, &body, &mut all);
        for x in all {
            if let Some(c) = loop_counter(&self.u, x) {
                counters.push(c);
            }
        }
        let mut private = Vec::new();
        for (x, whole) in written(prog, &self.u, &body) {
            if listed.contains(&x) || Some(x) == own || declared_here.contains(&x) {
                continue;
            }
            let generated = prog.symbols[x].scope == self.u.scope && !self.u.params.contains(&x);
            let p = match rev.get(&x) {
                Some(y) => inside.contains(y) || counters.contains(y),
                None => counters.contains(&x) || (generated && (whole || !self.dvar_values_has(x))),
            };
            if p && !private.contains(&x) {
                private.push(x);
            }
        }
        // Vector mode: the directions of a call's result (`act_resd[NBDirsMax]`, a temporary
        // declared only when the unit is assembled, so untyped here) are written through by
        // the call; shared, the threads' directions mixed.
        if self.f.vector {
            let mut all = Vec::new();
            stmts_below(&self.u, &body, &mut all);
            let mut args: Vec<ExprId> = Vec::new();
            for t in all {
                let mut todo = Vec::new();
                if let StmtKind::Call { args: a, .. } = &self.u.stmts[t].kind {
                    args.extend(a.iter().map(|a| a.value));
                }
                radtap_il::visit::stmt_children(
                    &self.u.stmts[t].kind,
                    &mut |e| todo.push(e),
                    &mut |_| {},
                );
                while let Some(e) = todo.pop() {
                    if let Expr::Call { args: a, .. } = &self.u.exprs[e] {
                        args.extend(a.iter().map(|a| a.value));
                    }
                    radtap_il::visit::expr_children(&self.u.exprs[e], &mut |c| todo.push(c));
                }
            }
            for a in args {
                let Expr::Name(x) = self.u.exprs[a] else {
                    continue;
                };
                // A temporary of the derivative (untyped until assembled), not the
                // primal's.
                let temp = prog.symbols[x].scope == self.u.scope
                    && !self.u.params.contains(&x)
                    && prog.symbols[x].ty.is_none()
                    && !self.src_has(x);
                if temp
                    && !listed.contains(&x)
                    && !declared_here.contains(&x)
                    && !private.contains(&x)
                {
                    private.push(x);
                }
            }
        }
        let perfect = |u: &UnitData, mut l: StmtId, n: u32| {
            for _ in 1..n {
                let b: Vec<StmtId> = loop_body(u, l)
                    .into_iter()
                    .filter(|&x| !matches!(u.stmts[x].kind, StmtKind::Comment(_) | StmtKind::Empty))
                    .collect();
                match b[..] {
                    [x] if loop_counter(u, x).is_some() => l = x,
                    _ => return false,
                }
            }
            true
        };
        clauses.retain(|c| match c {
            OmpClause::Collapse(n) => perfect(&self.u, lp, *n),
            OmpClause::Default(_) => false,
            _ => true,
        });
        if !private.is_empty() {
            clauses.push(OmpClause::Private(private));
        }
        clauses
    }

    /// Whether `x` is a symbol of the primal unit (not a temporary of the derivative).
    pub fn src_has(&self, x: SymbolId) -> bool {
        self.f
            .src
            .exprs
            .iter()
            .any(|(_, e)| matches!(e, Expr::Name(y) if *y == x))
    }

    fn dvar_values_has(&self, x: SymbolId) -> bool {
        self.dvar.values().any(|&d| d == x)
    }
}

/// The body of loop statement `s`.
pub fn loop_body(u: &UnitData, s: StmtId) -> Vec<StmtId> {
    match &u.stmts[s].kind {
        StmtKind::Do { body, .. } | StmtKind::CFor { body, .. } => body.clone(),
        _ => Vec::new(),
    }
}

/// The counter of a DO loop or of a C `for` whose initialisation assigns or declares one.
pub fn loop_counter(u: &UnitData, s: StmtId) -> Option<SymbolId> {
    match &u.stmts[s].kind {
        StmtKind::Do { var, .. } => match u.exprs[*var] {
            Expr::Name(x) => Some(x),
            _ => None,
        },
        StmtKind::CFor { init: Some(i), .. } => match &u.stmts[*i].kind {
            StmtKind::Assign { lhs, .. } => match u.exprs[*lhs] {
                Expr::Name(x) => Some(x),
                _ => None,
            },
            StmtKind::Decl(Decl::Var(v)) => v.entities.first().map(|e| e.sym),
            StmtKind::Expr(e) => match &u.exprs[*e] {
                Expr::Assign { lhs, .. } => match u.exprs[*lhs] {
                    Expr::Name(x) => Some(x),
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        },
        _ => None,
    }
}
