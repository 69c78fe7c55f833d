//! OpenMP in the tangent (issue 45): the derivative loop is the primal loop with derivative
//! statements, so it runs in parallel under the same directive, each clause extended with
//! the derivatives of its variables (`private(t, td)`, `reduction(+: s, sd)`); the
//! temporaries the tangent writes in the loop and the derivatives of variables declared
//! inside it are private ([`ProcGen::omp_privates`], shared with the adjoint).

use crate::prelude::*;
use radtap_il::omp::{written, Omp, OmpClause, OmpKind};

impl Tan<'_, '_, '_> {
    /// The tangent of an OpenMP statement `s` whose derivative statements are `out`: the
    /// loop among them gets the derivative directive, each update of an atomic statement
    /// stays atomic.
    pub(crate) fn tangent_omp(&mut self, s: StmtId, out: &[StmtId]) {
        let Some(o) = self.f.src.stmts[s].omp.as_deref() else {
            return;
        };
        match &o.kind {
            OmpKind::Atomic => {
                // Vector mode: the derivative update sits in a loop over directions, each
                // direction's update atomic on its own.
                let mut updates = Vec::new();
                for &x in out {
                    match &self.u.stmts[x].kind {
                        StmtKind::Do { body, .. } | StmtKind::CFor { body, .. }
                            if self.dir_loops.contains(&x) =>
                        {
                            updates.extend(body.iter().copied())
                        }
                        _ => updates.push(x),
                    }
                }
                for x in updates {
                    if !matches!(self.u.stmts[x].kind, StmtKind::Assign { .. }) {
                        continue;
                    }
                    if radtap_il::omp::atomic_form(&mut self.u, x) {
                        self.u.stmts[x].omp = Some(Box::new(o.clone()));
                    } else {
                        let msg = "the tangent of an atomic update other than `x = x + e` / `x = x - e` is not supported yet";
                        self.error(s, Code::Unsupported, msg);
                    }
                }
            }
            // The derivative statements stay in the critical section.
            OmpKind::Critical(_) => {
                for &x in out {
                    if matches!(self.u.stmts[x].kind, StmtKind::Block { .. }) {
                        self.u.stmts[x].omp = Some(Box::new(o.clone()));
                    }
                }
            }
            OmpKind::Section => {
                for &x in out {
                    if matches!(self.u.stmts[x].kind, StmtKind::Block { .. }) {
                        self.u.stmts[x].omp = Some(Box::new(o.clone()));
                    }
                }
            }
            // The sections' derivative statements stay in their sections; what the tangent
            // writes that no section shares (its temporaries) is private.
            OmpKind::Sections(clauses) => {
                let Some(&b) = out
                    .iter()
                    .find(|&&x| matches!(self.u.stmts[x].kind, StmtKind::Block { .. }))
                else {
                    return;
                };
                let mut cl = self.derivative_clauses(s, clauses);
                let listed: HashSet<SymbolId> = cl.iter().flat_map(|c| c.vars().to_vec()).collect();
                let rev: HashSet<SymbolId> = self.dvar.values().copied().collect();
                let prog = &self.g.out;
                let mut private = Vec::new();
                for (x, _) in written(prog, &self.u, &[b]) {
                    let temp = prog.symbols[x].scope == self.u.scope
                        && !self.u.params.contains(&x)
                        && !rev.contains(&x)
                        && !self.src_has(x);
                    if temp && !listed.contains(&x) && !private.contains(&x) {
                        private.push(x);
                    }
                }
                if !private.is_empty() {
                    cl.push(OmpClause::Private(private));
                }
                self.u.stmts[b].omp = Some(Box::new(Omp {
                    kind: OmpKind::Sections(cl),
                    span: o.span,
                }));
            }
            OmpKind::Loop(clauses) => {
                let Some(&lp) = out.iter().rev().find(|&&x| {
                    matches!(
                        self.u.stmts[x].kind,
                        StmtKind::Do { .. } | StmtKind::CFor { .. }
                    )
                }) else {
                    return;
                };
                let cl = self.derivative_clauses(s, clauses);
                let cl = self.omp_privates(s, lp, cl);
                self.u.stmts[lp].omp = Some(Box::new(Omp {
                    kind: OmpKind::Loop(cl),
                    span: o.span,
                }));
            }
        }
    }

    /// The primal's `clauses` with the derivatives of their variables added
    /// (`private(t, td)`, `reduction(+: s, sd)`).
    fn derivative_clauses(&mut self, s: StmtId, clauses: &[OmpClause]) -> Vec<OmpClause> {
        let mut cl = Vec::new();
        for c in clauses {
            let d = |v: &[SymbolId], pg: &Self| {
                let mut w = v.to_vec();
                w.extend(v.iter().filter_map(|x| pg.dvar.get(x).copied()));
                w
            };
            cl.push(match c {
                OmpClause::Private(v) => OmpClause::Private(d(v, self)),
                OmpClause::FirstPrivate(v) => OmpClause::FirstPrivate(d(v, self)),
                OmpClause::LastPrivate(v) => OmpClause::LastPrivate(d(v, self)),
                OmpClause::Shared(v) => OmpClause::Shared(d(v, self)),
                OmpClause::Reduction(op, v) => {
                    let active = v.iter().any(|x| self.dvar.contains_key(x));
                    if active && op != "+" && op != "-" {
                        let msg = format!("`reduction({op}: …)` of an active variable is not supported yet here (`*`, `max` and `min` reductions of real scalars are differentiated on one loop `for (i = a; i < b; i++)` / `do i = a, b` without `collapse` or `lastprivate`)");
                        self.error(s, Code::Unsupported, &msg);
                    }
                    OmpClause::Reduction(op.clone(), d(v, self))
                }
                // Written by the adjoint only.
                OmpClause::ArrayReduction(..) => c.clone(),
                OmpClause::Collapse(n) => OmpClause::Collapse(*n),
                OmpClause::Default(t) => OmpClause::Default(t.clone()),
                OmpClause::Other(t) => OmpClause::Other(t.clone()),
            });
        }
        cl
    }
}
