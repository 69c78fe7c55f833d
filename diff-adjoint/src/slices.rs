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
//! In C the same holds for a section: `step(b, &s[k*b])` with `void step(int b, double *v)`
//! writing `v[0 .. b)` records `s[k*b .. k*b + b)` (`slice_c_section_args`), the extent of
//! `v` taken from the callee's code (`radtap_il::extent`) with the actual arguments put in
//! for its parameters.

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
        if self.pg.lang == Lang::C {
            return self.slice_c_section_args(i, c, args, rec);
        }
        if self.pg.prog().units[c].parent == Some(self.pg.p) {
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
            let alone = xs.common.is_none() && !self.pg.pi.zones.equivalenced.contains(&x);
            if !(scalar_formal && array && mine && alone && !xs.attrs.pointer) {
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
            if !(ok && todo.iter().all(|&e| self.stable_across(e, &writes))) {
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

    /// Whether `e` (an index or count of the caller) reads only variables the call at point
    /// `writes` leaves alone and calls nothing, so it means the same at the push and the pop.
    fn stable_across(&self, e: ExprId, writes: &ZoneSet) -> bool {
        let src = self.pg.src;
        let mut todo = vec![e];
        while let Some(e) = todo.pop() {
            match &src.exprs[e] {
                Expr::Name(v) => match self.pg.pi.zones.sym_zones(*v) {
                    Some(z) if !z.intersects(writes) => {}
                    _ => return false,
                },
                Expr::Call { .. } | Expr::Assign { .. } | Expr::IncDec { .. } => return false,
                other => radtap_il::visit::expr_children(other, &mut |c| todo.push(c)),
            }
        }
        true
    }

    /// C: a call `g(…, &s[e], …)` (or `s + e`, or `s`) whose pointer parameter `v` reaches
    /// `v[0 .. m)` for an extent `m` the code of `g` shows over its integer parameters
    /// ([`radtap_il::extent`], exact mode) can write nothing of `s` but `s[e .. e + m)`: when
    /// `s` is an array or the memory behind a pointer dummy of this procedure that it never
    /// moves (no global), every other argument based on `s` is such a section too, and `e` and
    /// the actual arguments substituted in `m` read nothing the call writes, the sections are
    /// recorded instead of the whole `s`.
    fn slice_c_section_args(
        &mut self,
        i: usize,
        c: UnitId,
        args: &[Arg],
        rec: &mut ZoneSet,
    ) -> (Vec<StmtId>, Vec<StmtId>) {
        use radtap_il::extent::{pointer_extent, Mode};
        let (mut push, mut pop) = (Vec::new(), Vec::new());
        let writes = self.pg.pi.effects[i].writes.clone();
        let prog = self.pg.prog();
        let src = self.pg.src;
        let cu = &prog.units[c];
        let bases: Vec<Option<SymbolId>> = args
            .iter()
            .map(|a| radtap_dataflow::zones::base_symbol(prog, self.pg.p, a.value))
            .collect();
        let mut sections = Vec::new();
        for (k, a) in args.iter().enumerate() {
            let Some(&formal) = cu.params.get(k) else {
                continue;
            };
            let one_pointer = prog.symbols[formal]
                .ty
                .as_ref()
                .is_some_and(|t| t.pointers == 1 && t.dims.is_empty());
            if !one_pointer || a.keyword.is_some() {
                continue;
            }
            // `&s[e]`, `s + e`, `s`: the base and the offset.
            // `&(s[e])` and `(s) + e` too: parentheses are no wrapper to stop at.
            let unparen = |mut e: ExprId| {
                while let Expr::Paren(x) = src.exprs[e] {
                    e = x;
                }
                e
            };
            let (x, offset) = match &src.exprs[unparen(a.value)] {
                Expr::Unary {
                    op: UnOp::AddrOf,
                    arg,
                } => match &src.exprs[unparen(*arg)] {
                    Expr::Index { base, subs } => match (&src.exprs[*base], &subs[..]) {
                        (Expr::Name(x), [Subscript::Index(e)]) => (*x, Some(*e)),
                        _ => continue,
                    },
                    _ => continue,
                },
                Expr::Binary {
                    op: BinOp::Add,
                    lhs,
                    rhs,
                } => match &src.exprs[unparen(*lhs)] {
                    Expr::Name(x) => (*x, Some(*rhs)),
                    _ => continue,
                },
                Expr::Name(x) => (*x, None),
                _ => continue,
            };
            let xs = &prog.symbols[x];
            let Some(xt) = xs.ty.as_ref() else { continue };
            let (array, pointer) = (
                xt.dims.len() == 1 && xt.pointers == 0,
                xt.dims.is_empty() && xt.pointers == 1,
            );
            // A pointer dummy the procedure never moves: `x` means the same at the pop.
            let fixed = || {
                self.pg
                    .pi
                    .zones
                    .sym_zones(x)
                    .is_some_and(|z| !z.intersects(&self.written_anywhere))
            };
            let key = if array {
                ObjKey::Sym(x)
            } else if pointer && src.params.contains(&x) && fixed() {
                ObjKey::Pointee(x)
            } else {
                continue;
            };
            let mine = src.params.contains(&x) || self.own_local(x);
            if !mine || xs.attrs.save {
                continue;
            }
            let Some(zx) = self
                .pg
                .pi
                .zones
                .objects
                .get(&key)
                .map(|o| self.pg.pi.zones.obj_set(o))
            else {
                continue;
            };
            if !rec.intersects(&zx) {
                continue;
            }
            let Some(terms) = pointer_extent(prog, c, formal, Mode::Exact).and_then(|e| e.terms())
            else {
                continue;
            };
            // The callee's parameters in the count, as the actual arguments.
            let mut actual_of = HashMap::new();
            let mut ok = offset.is_none_or(|e| self.stable_across(e, &writes));
            for (syms, _) in &terms {
                for s in syms {
                    match cu
                        .params
                        .iter()
                        .position(|p| p == s)
                        .and_then(|j| args.get(j))
                    {
                        Some(arg) if self.stable_across(arg.value, &writes) => {
                            actual_of.insert(*s, arg.value);
                        }
                        _ => ok = false,
                    }
                }
            }
            let suffix = Self::suffix_of(&Type {
                dims: Vec::new(),
                pointers: 0,
                ..xt.clone()
            });
            let Some(suffix) = suffix.filter(|_| ok && !terms.is_empty()) else {
                continue;
            };
            let mut count: Option<ExprId> = None;
            for (syms, coef) in &terms {
                let mut t = if *coef == 1 && !syms.is_empty() {
                    None
                } else {
                    Some(self.pg.b().int(*coef))
                };
                for s in syms {
                    let e = self.pg.cp(actual_of[s]);
                    let e = self.pg.paren_if_compound(e);
                    t = Some(match t {
                        None => e,
                        Some(m) => self.pg.b().mul(m, e),
                    });
                }
                let Some(t) = t else { continue };
                count = Some(match count {
                    None => t,
                    Some(m) => self.pg.b().bin(BinOp::Add, m, t),
                });
            }
            sections.push((k, x, zx, suffix, count));
        }
        // An array is sliced when every argument based on it is a section: the sections are
        // recorded one after the other (`&s[k*2*b]` and `&s[k*2*b + b]` of ADBench's LSTM),
        // popped in the reverse order, so elements in two of them get the same value twice.
        let sliced: Vec<(usize, SymbolId)> = sections.iter().map(|s| (s.0, s.1)).collect();
        let whole = |x: SymbolId| {
            (0..bases.len()).any(|j| bases[j] == Some(x) && !sliced.contains(&(j, x)))
        };
        for (k, x, zx, suffix, count) in sections {
            if whole(x) {
                continue;
            }
            let primal = self.pg.cp(args[k].value);
            let sl = Slot {
                primal,
                suffix,
                count,
            };
            let (p1, p2) = self.push_pop(&sl);
            push.push(p1);
            pop.insert(0, p2);
            rec.subtract(&zx);
        }
        (push, pop)
    }
}
