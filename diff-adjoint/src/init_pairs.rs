//! Calls to an initialisation routine that allocates module arrays with derivatives and to
//! the finalisation routine that frees them (`Gen::alloc_calls`, found by the generator):
//! the forward sweep allocates the adjoint arrays beside the primal initialisation and
//! delays the finalisation; the backward sweep frees both where it passes the
//! initialisation again.

use crate::*;
use radtap_diff_gen::generator::AllocCall;

impl<'a> Adj<'_, '_, 'a> {
    /// The adjoint of call statement `s` when it is one half of an initialisation /
    /// finalisation pair; `None` for any other call.
    ///
    /// Forward: `call init()` then, for each module array `x` it allocates that has an
    /// adjoint, `allocate(xb(lbound(x,1):ubound(x,1), …))` and `xb = 0`; `call finalize()`
    /// becomes a comment. Backward, at the initialisation: `deallocate(xb, …)` and the
    /// primal arrays the finalisation would have freed. Refused when the initialisation
    /// overwrites a value that carries a derivative before it (its adjoint would have to be
    /// reset) or that the adjoint must record.
    pub(crate) fn adj_alloc_pair(&mut self, s: StmtId) -> Option<Rev> {
        let pair = self.pg.g.alloc_calls.get(&(self.pg.f.p, s))?.clone();
        let (allocated, freed) = match pair {
            AllocCall::Final { .. } => {
                let c = stmt(
                    &mut self.pg.u,
                    StmtKind::Comment(
                        "! finalisation delayed to the backward sweep (at the initialisation)"
                            .into(),
                    ),
                );
                return Some(Rev {
                    fwd: vec![c],
                    bwd: Vec::new(),
                });
            }
            AllocCall::Init {
                allocated, freed, ..
            } => (allocated, freed),
        };
        if let Some(i) = self.pg.pid(s) {
            let mut live = self.pg.f.pi.effects[i].writes.clone();
            live.intersect_with(&self.pg.f.act.active_before[i]);
            if !live.is_empty() || !self.to_record(i).is_empty() {
                return Some(self.unsupported(
                    s,
                    "a call to an initialisation routine allocating module arrays with derivatives that overwrites values the adjoint needs",
                ));
            }
        }
        // The arrays are named here (their bounds, the frees): a head USEing the module with
        // an ONLY list gets them by name.
        for &x in allocated.iter().chain(&freed) {
            if !(self.visible(x) || self.pg.use_foreign_module_var(x)) {
                let n = self.pg.name_of(x).to_string();
                let msg = format!("a call to an initialisation routine allocating the module array `{n}`, which cannot be made visible here,");
                return Some(self.unsupported(s, &msg));
            }
        }
        let mut r = self.fwd_only(s);
        let mut ditems = Vec::new();
        let mut zero = Vec::new();
        let mut dfree = Vec::new();
        for &x in &allocated {
            let Some(&dx) = self.pg.g.dglobal.get(&x) else {
                continue;
            };
            let ty = self.pg.prog().symbols[x].ty.clone();
            let Some(ty) = ty.filter(|t| t.base == BaseClass::Real) else {
                return Some(self.unsupported(
                    s,
                    "a call to an initialisation routine allocating a module array of records with derivatives",
                ));
            };
            let mut subs = Vec::new();
            for k in 1..=ty.dims.len() {
                let (n1, k1) = (self.pg.b().name(x), self.pg.b().int(k as i64));
                let lo = self.pg.b().call("lbound", vec![n1, k1]);
                let (n2, k2) = (self.pg.b().name(x), self.pg.b().int(k as i64));
                let hi = self.pg.b().call("ubound", vec![n2, k2]);
                subs.push(Subscript::Range(Some(lo), Some(hi), None));
            }
            let d = self.pg.b().name(dx);
            ditems.push(if subs.is_empty() {
                d
            } else {
                self.pg.b().index(d, subs)
            });
            let (d, z) = (
                self.pg.b().name(dx),
                self.pg.b().zero(ty.bytes.unwrap_or(8)),
            );
            zero.push(assign(&mut self.pg.u, d, z));
            dfree.push(self.pg.b().name(dx));
        }
        for &x in &freed {
            dfree.push(self.pg.b().name(x));
        }
        if !ditems.is_empty() {
            r.fwd.push(stmt(
                &mut self.pg.u,
                StmtKind::Memory {
                    op: MemOp::Allocate,
                    items: ditems,
                    options: Vec::new(),
                },
            ));
        }
        r.fwd.extend(zero);
        if !dfree.is_empty() {
            r.bwd.push(stmt(
                &mut self.pg.u,
                StmtKind::Memory {
                    op: MemOp::Deallocate,
                    items: dfree,
                    options: Vec::new(),
                },
            ));
        }
        Some(r)
    }
}
