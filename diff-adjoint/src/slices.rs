//! Snapshots of checkpointed calls sliced to what the callee can reach (issue 20): in
//! `do i = 1, n; call inner(x(i), c)` with a scalar dummy, `inner` can write `x(i)` and
//! nothing else of `x`, so the snapshot records that element, not the whole array (an
//! O(n) tape for the loop instead of O(n²)).
//!
//! An array `x` is sliced when every condition holds (else it is recorded whole, as before):
//! Fortran; the argument is an element `x(i, …)` (scalar subscripts) of a non-pointer array
//! passed to a scalar dummy of a procedure of the program; `x` is a dummy or a local of this
//! procedure, in no COMMON, and the callee is not contained in this procedure (so it cannot
//! see `x` by host association); no other argument of the call names `x`; and the call
//! writes nothing its subscripts read (they address the same element at the pop).

use crate::*;

impl<'a> Adj<'_, '_, 'a> {
    /// Takes out of `rec` (the zones a call's snapshot records) the arrays the callee reaches
    /// only through one element argument, and returns the pushes and pops of those elements.
    pub(crate) fn slice_element_args(
        &mut self,
        i: usize,
        callee: Option<UnitId>,
        args: &[Arg],
        rec: &mut ZoneSet,
    ) -> (Vec<StmtId>, Vec<StmtId>) {
        let (mut push, mut pop) = (Vec::new(), Vec::new());
        let Some(c) = callee else {
            return (push, pop);
        };
        if self.pg.lang != Lang::Fortran || self.pg.prog().units[c].parent == Some(self.pg.p) {
            return (push, pop);
        }
        let writes = self.pg.pi.effects[i].writes.clone();
        let prog = self.pg.prog();
        let src = self.pg.src;
        let cu = &prog.units[c];
        let bases: Vec<Option<SymbolId>> = args
            .iter()
            .map(|a| radtap_dataflow::zones::base_symbol(prog, self.pg.p, a.value))
            .collect();
        for (k, a) in args.iter().enumerate() {
            let fi = match &a.keyword {
                Some(kw) => cu
                    .params
                    .iter()
                    .position(|&p| prog.symbols[p].spelling.eq_ignore_ascii_case(kw)),
                None => Some(k),
            };
            let Some(formal) = fi.and_then(|fi| cu.params.get(fi)) else {
                continue;
            };
            let scalar_formal = prog.symbols[*formal]
                .ty
                .as_ref()
                .is_some_and(|t| t.dims.is_empty() && !prog.symbols[*formal].attrs.pointer);
            let Expr::Index { base, subs } = &src.exprs[a.value] else {
                continue;
            };
            let Expr::Name(x) = src.exprs[*base] else {
                continue;
            };
            let xs = &prog.symbols[x];
            let array = xs.ty.as_ref().is_some_and(|t| !t.dims.is_empty());
            let mine = src.params.contains(&x) || self.own_local(x);
            if !(scalar_formal && array && mine && xs.common.is_none() && !xs.attrs.pointer) {
                continue;
            }
            if bases
                .iter()
                .enumerate()
                .any(|(j, b)| j != k && *b == Some(x))
            {
                continue;
            }
            let Some(zx) = self.pg.pi.zones.sym_zones(x) else {
                continue;
            };
            if !rec.intersects(&zx) {
                continue;
            }
            // The subscripts: scalar, reading nothing the call writes.
            let mut ok = true;
            let mut todo: Vec<ExprId> = Vec::new();
            for sb in subs {
                match sb {
                    Subscript::Index(e) => todo.push(*e),
                    Subscript::Range(..) => ok = false,
                }
            }
            while let Some(e) = todo.pop() {
                match &src.exprs[e] {
                    Expr::Name(v) => match self.pg.pi.zones.sym_zones(*v) {
                        Some(z) if !z.intersects(&writes) => {}
                        _ => ok = false,
                    },
                    Expr::Call { .. } => ok = false,
                    other => radtap_il::visit::expr_children(other, &mut |c| todo.push(c)),
                }
            }
            if !ok {
                continue;
            }
            let Ok(sl) = self.slot_of_target(Target::Expr(a.value)) else {
                continue;
            };
            let (p1, p2) = self.push_pop(&sl);
            push.push(p1);
            pop.insert(0, p2);
            rec.subtract(&zx);
        }
        (push, pop)
    }
}
