//! State a procedure keeps in its own saved locals (Fortran SAVE, DATA, initialised locals;
//! C `static`) cannot be shared with its derivative: `p_d`, `p_b`, `p_fwd` each declare their
//! own copy, and nothing the generated code can name reaches the original's. Two runs then
//! read two states, and derivatives come out silently wrong:
//! - the original `p` is called during a run (from a procedure that is not differentiated,
//!   or at a call site without derivatives): it advances its copy, `p_d` reads another (a
//!   table filled by a first call from an `init` routine was empty in `p_d`);
//! - adjoint, joint mode: a checkpointed call runs the original `p` forwards and `p_b`
//!   backwards, with its own copy, so whatever the adjoint reads of the state is stale.
//!
//! Both are refused, naming the variable. A state nothing reads across calls (written before
//! it is read in every call; for an array, whose first touch in the code is a write: a
//! scratch array; or whose slices by a constant subscript each are, or are only read), a
//! table only read (DATA, `static const`), and a head called by no
//! differentiated procedure (its runs are the user's) are accepted.

use super::*;

impl<'a> ProcGen<'_, 'a> {
    /// The saved locals of this procedure that carry state from one call to the next: read
    /// before they are written, and written.
    fn carried_state(&self) -> Vec<SymbolId> {
        let prog = self.g.prog;
        let sum = &self.f.pi.summary;
        let mut out: Vec<SymbolId> = prog.scopes[self.f.src.scope]
            .order
            .iter()
            .copied()
            .filter(|&s| {
                let sd = &prog.symbols[s];
                sd.attrs.save
                    && sd.kind == SymbolKind::Variable
                    && !sd.attrs.dummy
                    && !sd.attrs.constant
                    && sd.common.is_none()
                    && !self.f.src.params.contains(&s)
                    && radtap_dataflow::zones::unit_of_scope(prog, sd.scope) == Some(self.f.p)
                    && self.f.pi.zones.sym_zones(s).is_some_and(|z| {
                        // An array written in part is read "on entry" for the summary: a
                        // scratch array filled before it is read (its first touch a write)
                        // carries nothing.
                        let array = sd.ty.as_ref().is_some_and(|t| !t.dims.is_empty());
                        // Split by a constant subscript (MINPACK-2's `dt(i, 1)` from DATA,
                        // `dt(i, 2)` written before it is read), no slice may carry anything.
                        z.intersects(&sum.reads)
                            && z.intersects(&sum.writes)
                            && (!array
                                || (self.first_touch_reads(&z)
                                    && !radtap_il::slices::slices_carry_nothing(prog, self.f.p, s)))
                    })
            })
            .collect();
        out.sort();
        out.dedup();
        out
    }

    /// Refuses what [the module doc](self) describes, once per procedure and mode.
    pub(crate) fn refuse_unshared_state(&mut self) {
        if self.f.sweep == Sweep::Bwd {
            return;
        }
        let state = self.carried_state();
        if state.is_empty() {
            return;
        }
        let prog = self.g.prog;
        let names = state
            .iter()
            .map(|&s| format!("`{}`", prog.symbols[s].spelling))
            .collect::<Vec<_>>()
            .join(", ");
        let me = crate::gen::unit_name(prog, self.f.p);
        if let Some((q, s)) = self.original_called() {
            let sp = prog.units[q]
                .source_map
                .stmt
                .get(s)
                .copied()
                .unwrap_or_default();
            let msg = format!(
                "`{me}` keeps {names} from one call to the next, and this call runs the original `{me}` during a differentiated run: its derivative keeps its own copy, which this call does not update; differentiate this call too (make it depend on the independents) or move {names} to a module or COMMON (C: file scope)"
            );
            self.g
                .diags
                .push(Diagnostic::error(Code::Unsupported, sp, &msg));
            return;
        }
        // A reference inside an expression to a function with a side effect runs its split
        // pair (`Gen::effect_split`): only the other calls are checkpointed.
        let split_refs = self.g.effect_split.contains(&self.f.p);
        let checkpointed = self.f.adjoint
            && self.f.sweep == Sweep::Joint
            && self
                .g
                .info
                .callgraph
                .callers(self.f.p)
                .iter()
                .filter(|c| self.g.active.contains(c))
                .any(|&c| {
                    !split_refs
                        || self.g.info.callgraph.sites_of(c).iter().any(|site| {
                            site.expr.is_none()
                                && matches!(&site.callee,
                                    radtap_flowgraph::Callee::Defined(l) if l.contains(&self.f.p))
                        })
                });
        if !checkpointed {
            return;
        }
        let needed = state.iter().any(|&s| {
            let Some(z) = self.f.pi.zones.sym_zones(s) else {
                return false;
            };
            self.f.pi.effects.iter().enumerate().any(|(i, e)| {
                (self.f.act.live[i] && e.reads.intersects(&z))
                    || self.f.act.deriv_uses[i].intersects(&z)
            })
        });
        if needed {
            let sp = self.f.src.source_map.header.unwrap_or_default();
            let msg = format!(
                "`{me}` keeps {names} from one call to the next, and its adjoint needs the value: a checkpointed call runs the original `{me}` forwards and `{me}_b` backwards, which keeps its own copy; split the calls (-nocheckpoint, or NOCHECKPOINT on the calls or on `{me}`), or move {names} to a module or COMMON (C: file scope)"
            );
            self.g
                .diags
                .push(Diagnostic::error(Code::Unsupported, sp, &msg));
        }
    }

    /// A call of the original procedure during a run of a head: in a procedure the heads
    /// reach that is not differentiated, or at a call site without derivatives.
    fn original_called(&self) -> Option<(UnitId, StmtId)> {
        let info = self.g.info;
        let mut reach: Vec<UnitId> = info.heads.iter().map(|h| h.head).collect();
        let mut k = 0;
        while k < reach.len() {
            let q = reach[k];
            k += 1;
            for site in info.callgraph.sites_of(q) {
                if let radtap_flowgraph::Callee::Defined(l) = &site.callee {
                    for &c in l {
                        if !reach.contains(&c) {
                            reach.push(c);
                        }
                    }
                }
            }
        }
        for &q in &reach {
            for site in info.callgraph.sites_of(q) {
                let calls_me = matches!(&site.callee,
                    radtap_flowgraph::Callee::Defined(l) if l.contains(&self.f.p));
                if !calls_me {
                    continue;
                }
                if !self.g.active.contains(&q) {
                    return Some((q, site.stmt));
                }
                let qi = info.procs.get(&q)?;
                let passive = qi
                    .point_id(radtap_flowgraph::Point {
                        stmt: site.stmt,
                        part: radtap_flowgraph::Part::Whole,
                    })
                    .zip(qi.activity.as_ref())
                    .is_some_and(|(i, a)| !a.has_derivative[i]);
                if passive {
                    return Some((q, site.stmt));
                }
            }
        }
        None
    }

    /// Whether the first statement, in source order, that reads or writes any of `z` reads
    /// it (a read before any write on the straight path through the code).
    pub(super) fn first_touch_reads(&self, z: &ZoneSet) -> bool {
        let mut order = Vec::new();
        let mut stack: Vec<StmtId> = self.f.src.body.iter().rev().copied().collect();
        while let Some(s) = stack.pop() {
            order.push(s);
            let mut kids = Vec::new();
            radtap_il::visit::stmt_children(&self.f.src.stmts[s].kind, &mut |_| {}, &mut |k| {
                kids.push(k)
            });
            stack.extend(kids.into_iter().rev());
        }
        for s in order {
            let Some(e) = self.pid(s).and_then(|i| self.f.pi.effects.get(i)) else {
                continue;
            };
            if e.reads.intersects(z) {
                return true;
            }
            if e.writes.intersects(z) {
                return false;
            }
        }
        false
    }
}
