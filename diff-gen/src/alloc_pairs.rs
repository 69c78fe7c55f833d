//! Adjoint mode: the init/finalise pattern of real models. A procedure calls, at the top
//! level of its body, an initialisation routine that ALLOCATEs module arrays with derivatives
//! (`call ice_init()`), later a finalisation routine that only DEALLOCATEs them
//! (`call ice_finalize()`). The forward sweep runs the initialisation as the primal and
//! allocates the adjoint arrays beside it (zeroed); the finalisation is delayed to the
//! backward sweep, which frees the arrays (primal and adjoint) where it passes the
//! initialisation again, since everything between reads them backwards. The same holds for
//! an ALLOCATE/DEALLOCATE pair written in the procedure itself (`paired_here` in the adjoint);
//! these are the pairs made through calls. Other calls to procedures that allocate or free
//! module variables with derivatives stay refused (`allocating_call_refusals`).

use crate::gen::{AllocCall, Gen};
use radtap_flowgraph::Callee;
use radtap_il::*;
use std::collections::{BTreeSet, HashMap};

impl Gen<'_> {
    /// Finds the paired initialisation and finalisation calls of every active procedure
    /// (`Gen::alloc_calls`), and takes out of the active procedures the allocating ones
    /// that are called only there: they run as the primal and need no adjoint unit.
    pub(crate) fn pair_allocating_calls(&mut self) {
        let mut pairs = HashMap::new();
        for &p in &self.active {
            if let Some(found) = self.allocation_pairs_in(p) {
                pairs.extend(found.into_iter().map(|(s, c)| ((p, s), c)));
            }
        }
        let unpaired: BTreeSet<UnitId> = self
            .active
            .iter()
            .flat_map(|&p| {
                self.info
                    .callgraph
                    .sites_of(p)
                    .iter()
                    .filter(|c| !pairs.contains_key(&(p, c.stmt)))
                    .filter_map(|c| match &c.callee {
                        Callee::Defined(l) => Some(l.clone()),
                        _ => None,
                    })
                    .flatten()
                    .collect::<Vec<_>>()
            })
            .collect();
        let called_in_pairs: BTreeSet<UnitId> =
            pairs.values().map(|c: &AllocCall| c.callee()).collect();
        self.active.retain(|q| {
            !(self.allocating.contains(q) && called_in_pairs.contains(q) && !unpaired.contains(q))
        });
        self.alloc_calls = pairs;
    }

    /// The module allocatable that an ALLOCATE or DEALLOCATE item names, if it is one.
    fn module_allocatable(&self, u: &UnitData, it: ExprId) -> Option<SymbolId> {
        let base = match &u.exprs[it] {
            Expr::Index { base, .. } => *base,
            _ => it,
        };
        let Expr::Name(s) = u.exprs[base] else {
            return None;
        };
        let sd = &self.prog.symbols[s];
        let module = radtap_dataflow::zones::unit_of_scope(self.prog, sd.scope);
        (sd.attrs.allocatable
            && sd.common.is_none()
            && module.is_some_and(|m| self.prog.units[m].kind == UnitKind::Module))
        .then_some(s)
    }

    /// What an allocating procedure `q` does, when it is one of the two shapes handled:
    /// `Ok(allocated)` for an initialisation (every ALLOCATE of a module array at the top
    /// level of its body, no DEALLOCATE, no call to another allocating procedure),
    /// `Err(freed)` for a finalisation (a body of DEALLOCATEs of module arrays only).
    fn allocating_shape(&self, q: UnitId) -> Option<Result<Vec<SymbolId>, Vec<SymbolId>>> {
        let u = &self.prog.units[q];
        if self.prog.units.iter().any(|(_, x)| x.parent == Some(q)) {
            return None;
        }
        let calls_allocating = self.info.callgraph.sites_of(q).iter().any(|c| {
            matches!(&c.callee, Callee::Defined(l) if l.iter().any(|x| self.allocating.contains(x)))
        });
        if calls_allocating {
            return None;
        }
        let (mut allocated, mut freed) = (Vec::new(), Vec::new());
        for (s, st) in u.stmts.iter() {
            if let StmtKind::Memory { op, items, .. } = &st.kind {
                let top = u.body.contains(&s);
                for &it in items {
                    let v = self.module_allocatable(u, it);
                    match (op, v) {
                        (MemOp::Allocate, Some(v)) if top && !allocated.contains(&v) => {
                            allocated.push(v)
                        }
                        (MemOp::Deallocate, Some(v)) if top && !freed.contains(&v) => freed.push(v),
                        // Anything else (a local, a dummy, inside a branch, twice): refused.
                        _ => return None,
                    }
                }
            }
        }
        match (allocated.is_empty(), freed.is_empty()) {
            (false, true) => Some(Ok(allocated)),
            (true, false) => {
                let only_frees = u.body.iter().all(|&s| {
                    matches!(
                        &u.stmts[s].kind,
                        StmtKind::Memory {
                            op: MemOp::Deallocate,
                            ..
                        } | StmtKind::Decl(_)
                            | StmtKind::Comment(_)
                            | StmtKind::Empty
                            | StmtKind::Continue
                            | StmtKind::Return(None)
                    )
                });
                only_frees.then_some(Err(freed))
            }
            _ => None,
        }
    }

    /// The paired calls of procedure `p`, if every call it makes to an allocating
    /// procedure is one: a top-level call to an initialisation, or a top-level call to a
    /// finalisation freeing only arrays that initialisations called before it allocated
    /// (each freed once), with `p` itself neither allocating nor freeing those arrays.
    fn allocation_pairs_in(&self, p: UnitId) -> Option<Vec<(StmtId, AllocCall)>> {
        let u = &self.prog.units[p];
        let sites: Vec<(StmtId, UnitId)> = self
            .info
            .callgraph
            .sites_of(p)
            .iter()
            .filter_map(|c| match &c.callee {
                Callee::Defined(l) if l.iter().any(|q| self.allocating.contains(q)) => {
                    Some((c.stmt, l.clone(), c.expr))
                }
                _ => None,
            })
            .map(|(s, l, e)| match (l.as_slice(), e) {
                ([q], None) if u.body.contains(&s) => Some((s, *q)),
                _ => None,
            })
            .collect::<Option<_>>()?;
        if sites.is_empty() {
            return None;
        }
        let position = |s: StmtId| u.body.iter().position(|&b| b == s);
        let mut ordered = sites;
        ordered.sort_by_key(|&(s, _)| position(s));
        let mut allocated: Vec<SymbolId> = Vec::new();
        let mut freed: Vec<SymbolId> = Vec::new();
        let mut out: Vec<(StmtId, AllocCall)> = Vec::new();
        for (s, q) in ordered {
            match self.allocating_shape(q)? {
                Ok(a) => {
                    if a.iter().any(|v| allocated.contains(v)) {
                        return None;
                    }
                    allocated.extend(a.iter().copied());
                    out.push((
                        s,
                        AllocCall::Init {
                            callee: q,
                            allocated: a,
                            freed: Vec::new(),
                        },
                    ));
                }
                Err(f) => {
                    if f.iter()
                        .any(|v| !allocated.contains(v) || freed.contains(v))
                    {
                        return None;
                    }
                    freed.extend(f.iter().copied());
                    // Each freed array is freed backwards where its initialisation is reversed.
                    for (_, c) in out.iter_mut() {
                        if let AllocCall::Init {
                            allocated: a,
                            freed: fr,
                            ..
                        } = c
                        {
                            fr.extend(f.iter().filter(|v| a.contains(v)).copied());
                        }
                    }
                    out.push((s, AllocCall::Final { callee: q }));
                }
            }
        }
        // The procedure itself must leave those arrays alone.
        let touches = u.stmts.iter().any(|(_, st)| match &st.kind {
            StmtKind::Memory { items, .. } => items.iter().any(|&it| {
                self.module_allocatable(u, it)
                    .is_some_and(|v| allocated.contains(&v))
            }),
            _ => false,
        });
        (!touches).then_some(out)
    }
}
