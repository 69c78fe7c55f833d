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
//!
//! In C, a pointer into an array (`&x[o]`, `x + o` for a pointer dummy `x`) passed to a
//! pointer parameter whose accesses the callee makes are all known and surely made
//! (`radtap_il::extent`, exact mode: `q[0..k)`) is recorded as the slice `x[o..o+k)` (issue 21:
//! the LSTM layers pushed the whole state per layer): `slice_pointer_args`.

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

impl Adj<'_, '_, '_> {
    /// C: `&x[o]` passed to a pointer parameter `q` of the callee whose code reaches exactly
    /// `q[0..k)` (`radtap_il::extent` in its exact mode: every access understood and surely
    /// made; `k` over the callee's integer parameters, replaced by the actual arguments) is
    /// recorded as the slice `x[o..o+k)` instead of the whole of `*x` (`lstm_model(b, …,
    /// &s[j*2*b], …)` inside a loop over the layers `j` pushed all `l*2*b` elements of `s` per
    /// layer). Only when no other argument names `x` and the offset and the actual arguments
    /// in `k` read nothing the call writes (they address the same slice at the pop). Takes
    /// `*x` out of `rec` and returns the pushes and pops of the slices.
    pub(crate) fn slice_pointer_args(
        &mut self,
        i: usize,
        callee: Option<UnitId>,
        args: &[Arg],
        rec: &mut ZoneSet,
    ) -> (Vec<StmtId>, Vec<StmtId>) {
        use radtap_il::extent::{pointer_extent, Mode};
        let (mut push, mut pop) = (Vec::new(), Vec::new());
        let Some(c) = callee else {
            return (push, pop);
        };
        if self.pg.lang != Lang::C || rec.is_empty() {
            return (push, pop);
        }
        let writes = self.pg.pi.effects[i].writes.clone();
        let prog = self.pg.prog();
        let src = self.pg.src;
        let cu = &prog.units[c];
        if cu.params.len() != args.len() {
            return (push, pop);
        }
        let bases: Vec<Option<SymbolId>> = args
            .iter()
            .map(|a| radtap_dataflow::zones::base_symbol(prog, self.pg.p, a.value))
            .collect();
        // An expression that reads only variables the call does not write.
        let steady = |e: ExprId| -> bool {
            let mut todo = vec![e];
            while let Some(x) = todo.pop() {
                match &src.exprs[x] {
                    Expr::Name(v) => match self.pg.pi.zones.sym_zones(*v) {
                        Some(z) if !z.intersects(&writes) => {}
                        _ => return false,
                    },
                    Expr::Literal(_) => {}
                    Expr::Binary { lhs, rhs, .. } => {
                        todo.push(*lhs);
                        todo.push(*rhs);
                    }
                    Expr::Paren(a) => todo.push(*a),
                    Expr::Unary {
                        op: UnOp::Neg | UnOp::Plus,
                        arg,
                    } => todo.push(*arg),
                    _ => return false,
                }
            }
            true
        };
        let unparen = |mut e: ExprId| {
            while let Expr::Paren(x) = src.exprs[e] {
                e = x;
            }
            e
        };
        for (k, a) in args.iter().enumerate() {
            // `&x[o]`, `&(x[o])`, or `x + o` for a pointer dummy `x`: the base, the offset,
            // and the zones of what the base points to.
            let (x, off, zx) = match src.exprs[unparen(a.value)] {
                Expr::Unary {
                    op: UnOp::AddrOf,
                    arg,
                } => {
                    let elem = unparen(arg);
                    let Expr::Index { base, subs } = &src.exprs[elem] else {
                        continue;
                    };
                    let (Expr::Name(x), [Subscript::Index(off)]) = (&src.exprs[*base], &subs[..])
                    else {
                        continue;
                    };
                    let zx = self.pg.g.info.ref_zones(prog, self.pg.p, elem);
                    (*x, *off, zx)
                }
                Expr::Binary {
                    op: BinOp::Add,
                    lhs,
                    rhs,
                } => {
                    let Expr::Name(x) = src.exprs[unparen(lhs)] else {
                        continue;
                    };
                    let pointer = prog.symbols[x]
                        .ty
                        .as_ref()
                        .is_some_and(|t| t.pointers == 1 && t.dims.is_empty());
                    if !pointer || !src.params.contains(&x) {
                        continue;
                    }
                    let zx = self
                        .pg
                        .pi
                        .zones
                        .objects
                        .get(&ObjKey::Pointee(x))
                        .map(|o| self.pg.pi.zones.obj_set(o));
                    (x, rhs, zx)
                }
                _ => continue,
            };
            let Some(zx) = zx else {
                continue;
            };
            if bases
                .iter()
                .enumerate()
                .any(|(j, b)| j != k && *b == Some(x))
                || !steady(off)
            {
                continue;
            }
            let Some(ty) = prog.symbols[x].ty.as_ref() else {
                continue;
            };
            let Some(suffix) = Self::suffix_of(ty) else {
                continue;
            };
            if !rec.intersects(&zx) {
                continue;
            }
            let formal = cu.params[k];
            let Some(terms) = pointer_extent(prog, c, formal, Mode::Exact).and_then(|e| e.terms())
            else {
                continue;
            };
            // Each parameter of the count, the actual argument in its place.
            let mut actual = HashMap::new();
            let ok = terms.iter().flat_map(|(_, syms)| syms).all(|s| {
                match cu.params.iter().position(|p| p == s) {
                    Some(j) if steady(args[j].value) => {
                        actual.insert(*s, args[j].value);
                        true
                    }
                    _ => false,
                }
            });
            if !ok || terms.is_empty() {
                continue;
            }
            let mut count: Option<ExprId> = None;
            for (coef, syms) in &terms {
                let mut t =
                    (coef.abs() != 1 || syms.is_empty()).then(|| self.pg.b().int(coef.abs()));
                for s in syms {
                    let v = self.pg.cp(actual[s]);
                    let v = self.pg.paren_if_compound(v);
                    t = Some(match t {
                        Some(t) => self.pg.b().mul(t, v),
                        None => v,
                    });
                }
                let t = t.expect("a term has a coefficient or a factor");
                count = Some(match (count, *coef < 0) {
                    (None, false) => t,
                    (None, true) => self.pg.b().neg(t),
                    (Some(c0), false) => self.pg.b().add(c0, t),
                    (Some(c0), true) => self.pg.b().bin(BinOp::Sub, c0, t),
                });
            }
            let Some(count) = count else { continue };
            let sl = Slot {
                primal: self.pg.cp(a.value),
                suffix,
                count: Some(count),
            };
            let (p1, p2) = self.push_pop(&sl);
            push.push(p1);
            pop.insert(0, p2);
            rec.subtract(&zx);
        }
        (push, pop)
    }
}
