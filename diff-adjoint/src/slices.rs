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
//!
//! Fortran MPI calls (issue 46): a message buffer the call writes, passed as an element
//! `u(k)`, is recorded as the `count` elements from there (`slice_mpi_buffers`), as C's are.

use crate::*;

/// An MPI call's message buffer and its count: the indices of both arguments.
type BufferCount = (usize, usize);

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
        if self.pg.f.lang == Lang::C {
            return self.slice_c_section_args(i, c, args, rec);
        }
        if (self.pg.prog().described.get(&c)).is_some_and(radtap_il::library::is_mpi) {
            return self.slice_mpi_buffers(i, c, args, rec);
        }
        if self.pg.prog().units[c].parent == Some(self.pg.f.p) {
            return (push, pop);
        }
        let writes = self.pg.f.pi.effects[i].writes.clone();
        let prog = self.pg.prog();
        let src = self.pg.f.src;
        let cu = &prog.units[c];
        let bases: Vec<Option<SymbolId>> = args
            .iter()
            .map(|a| radtap_dataflow::zones::base_symbol(prog, self.pg.f.p, a.value))
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
            let mine = src.params.contains(&x)
                || self.own_local(x)
                || self.reached_only_through(i, c, *formal, x);
            let alone = xs.common.is_none() && !self.pg.f.pi.zones.equivalenced.contains(&x);
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
            let Some(zx) = self.pg.f.pi.zones.sym_zones(x) else {
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
            self.record_piece(&sl, &zx, (&mut push, &mut pop), rec);
        }
        (push, pop)
    }

    /// Module arrays that a callee writes at one element addressed by its integer dummies
    /// (SICOPOLIS's `thk_adjust(time, dtime, i, j)` writing `H_new(j,i)`, `smb_corr(j,i)`, …
    /// inside a loop over the grid): that element, the actual arguments put in for the
    /// dummies, is recorded instead of the whole array (an O(n) tape for the loop, not
    /// O(n²)). Each such array is taken out of `rec`. Fortran; every write of the array in
    /// the callee is a plain assignment (no call) to an element; a dimension that every write
    /// addresses by the same subscript made of literals and integer scalar dummies the callee
    /// never writes is that element, one addressed through the callee's integer locals is
    /// recorded whole (`calc_temp_r(…, i, j)` writing `temp_c_new(kc,j,i)` in `do kc`
    /// records the column `temp_c_new(:,j,i)`), and at least one dimension must be exact; the
    /// actuals read nothing the call writes, and no actual names the array.
    pub(crate) fn slice_global_elements(
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
        let prog = self.pg.prog();
        let cu = &prog.units[c];
        let Some(cpi) = self.pg.g.info.procs.get(&c) else {
            return (push, pop);
        };
        if self.pg.f.lang != Lang::Fortran
            || cu.lang != Lang::Fortran
            || cu.parent == Some(self.pg.f.p)
            || args.len() != cu.params.len()
            || args.iter().any(|a| a.keyword.is_some())
        {
            return (push, pop);
        }
        let writes = self.pg.f.pi.effects[i].writes.clone();
        let bases: Vec<Option<SymbolId>> = args
            .iter()
            .map(|a| radtap_dataflow::zones::base_symbol(prog, self.pg.f.p, a.value))
            .collect();
        // The dummies an element may be addressed by, with their actuals.
        let mut actual_of: HashMap<SymbolId, ExprId> = HashMap::new();
        for (f, a) in cu.params.iter().zip(args) {
            let int_scalar = prog.symbols[*f]
                .ty
                .as_ref()
                .is_some_and(|t| t.dims.is_empty() && t.base == BaseClass::Integer);
            let unwritten = cpi
                .zones
                .sym_zones(*f)
                .is_some_and(|z| cpi.effects.iter().all(|e| !e.writes.intersects(&z)));
            if int_scalar && unwritten && self.stable_across(a.value, &writes) {
                actual_of.insert(*f, a.value);
            }
        }
        let globals = self.zone_symbols();
        for x in globals {
            let xs = &prog.symbols[x];
            let module_array = xs.common.is_none()
                && !xs.attrs.pointer
                && xs.ty.as_ref().is_some_and(|t| !t.dims.is_empty())
                && radtap_dataflow::zones::unit_of_scope(prog, xs.scope)
                    .is_some_and(|u| matches!(prog.units[u].kind, UnitKind::Module))
                && !self.pg.f.pi.zones.equivalenced.contains(&x);
            if !module_array || bases.contains(&Some(x)) {
                continue;
            }
            let (Some(zx), Some(cz)) = (self.pg.f.pi.zones.sym_zones(x), cpi.zones.sym_zones(x))
            else {
                continue;
            };
            if !rec.intersects(&zx) {
                continue;
            }
            // Per dimension: the callee's subscript when every write has the same one made
            // of literals and the dummies of `actual_of` (`None`: some write addresses it
            // through a local of the callee, `kc` of `do kc = 0, n`: the whole dimension).
            let mut dims: Option<Vec<Option<ExprId>>> = None;
            let mut ok = true;
            for (p, e) in cpi.effects.iter().enumerate() {
                if !e.writes.intersects(&cz) {
                    continue;
                }
                let pt = cpi.point[p];
                let lhs = match cu.stmts[pt.stmt].kind {
                    StmtKind::Assign { lhs, .. } if pt.part == Part::Whole && !e.calls => lhs,
                    _ => {
                        ok = false;
                        break;
                    }
                };
                let Expr::Index { base, subs } = &cu.exprs[lhs] else {
                    ok = false;
                    break;
                };
                if !matches!(cu.exprs[*base], Expr::Name(b) if b == x) {
                    ok = false;
                    break;
                }
                let mut these = Vec::new();
                for sb in subs {
                    match sb {
                        Subscript::Index(e) => {
                            match callee_subscript(prog, c, cu, *e, &actual_of) {
                                Some(true) => these.push(Some(*e)),
                                Some(false) => these.push(None),
                                None => ok = false,
                            }
                        }
                        Subscript::Range(..) => ok = false,
                    }
                }
                if !ok {
                    break;
                }
                dims = Some(match dims {
                    None => these,
                    Some(d) if d.len() == these.len() => d
                        .into_iter()
                        .zip(these)
                        .map(|(a, b)| match (a, b) {
                            (Some(a), Some(b)) if radtap_il::visit::same_expr(cu, a, b) => Some(a),
                            _ => None,
                        })
                        .collect(),
                    Some(_) => {
                        ok = false;
                        break;
                    }
                });
            }
            let Some(dims) = dims.filter(|d| ok && d.iter().any(Option::is_some)) else {
                continue;
            };
            let Some(slot0) = self.slot_of_sym(x).ok() else {
                continue;
            };
            let mut subs = Vec::new();
            for d in &dims {
                match d {
                    Some(e) => match self.callee_index(cu, *e, &actual_of) {
                        Some(t) => subs.push(Subscript::Index(t)),
                        None => break,
                    },
                    None => subs.push(Subscript::Range(None, None, None)),
                }
            }
            if subs.len() != dims.len() {
                continue;
            }
            let section = dims.iter().any(Option::is_none);
            let base = self.pg.b().name(x);
            let primal = self.pg.b().index(base, subs);
            let count = section.then(|| {
                let p = self.pg.dup(primal);
                self.pg.b().call("size", vec![p])
            });
            let sl = Slot {
                primal,
                suffix: slot0.suffix,
                count,
            };
            self.record_piece(&sl, &zx, (&mut push, &mut pop), rec);
        }
        (push, pop)
    }

    /// A subscript of the callee `cu` in the caller's terms: literals, operators, and the
    /// dummies of `actual_of` replaced by (copies of) their actual arguments.
    fn callee_index(
        &mut self,
        cu: &UnitData,
        e: ExprId,
        actual_of: &HashMap<SymbolId, ExprId>,
    ) -> Option<ExprId> {
        let x = match &cu.exprs[e] {
            Expr::Literal(l) if l.kind == LitKind::Int => Expr::Literal(l.clone()),
            Expr::Name(v) => return actual_of.get(v).map(|a| self.pg.cp(*a)),
            Expr::Paren(a) => Expr::Paren(self.callee_index(cu, *a, actual_of)?),
            Expr::Unary { op: UnOp::Neg, arg } => Expr::Unary {
                op: UnOp::Neg,
                arg: self.callee_index(cu, *arg, actual_of)?,
            },
            Expr::Binary { op, lhs, rhs } if matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul) => {
                Expr::Binary {
                    op: *op,
                    lhs: self.callee_index(cu, *lhs, actual_of)?,
                    rhs: self.callee_index(cu, *rhs, actual_of)?,
                }
            }
            _ => return None,
        };
        Some(self.pg.b().e(x))
    }

    /// Whether the call of `c` at point `i` reaches `x` (a module variable, say) through its
    /// formal `formal` alone: no other zone of `c` (its view of the module variable, another
    /// dummy) is read from or written to `x`'s zones (`call limit(a(i))` with `a` a module
    /// array that `limit` does not name).
    fn reached_only_through(&self, i: usize, c: UnitId, formal: SymbolId, x: SymbolId) -> bool {
        let prog = self.pg.prog();
        let global = prog.symbols[x].common.is_none()
            && radtap_dataflow::zones::unit_of_scope(prog, prog.symbols[x].scope)
                .is_some_and(|u| matches!(prog.units[u].kind, UnitKind::Module));
        let (Some(zx), Some(cpi)) = (
            self.pg.f.pi.zones.sym_zones(x),
            self.pg.g.info.procs.get(&c),
        ) else {
            return false;
        };
        let Some(zf) = cpi.zones.sym_zones(formal) else {
            return false;
        };
        let maps: Vec<_> = self.pg.f.pi.effects[i]
            .call_maps
            .iter()
            .filter(|m| m.callee == c)
            .collect();
        global
            && maps.len() == 1
            && !maps[0].in_expr
            && (0..cpi.zones.len()).all(|z| {
                let z = radtap_dataflow::ZoneId(z as u32);
                zf.contains(z)
                    || (!maps[0]
                        .src
                        .get(z.index())
                        .and_then(Option::as_ref)
                        .is_some_and(|s| s.intersects(&zx))
                        && !maps[0]
                            .tgt
                            .get(z.index())
                            .and_then(Option::as_ref)
                            .is_some_and(|t| t.iter().any(|y| zx.contains(*y))))
            })
    }

    /// Records one piece (an element, a section) of an array for a call instead of the whole
    /// array: its push goes last, its pop first, and the array's zones `zx` leave `rec`.
    /// Fortran MPI calls: each array the call writes only through message buffers passed as
    /// elements (`call MPI_Recv(u(1), n, …)`) or whole (from its first element) is recorded as the `count` elements from
    /// there (`pushreal8array(u(1), n)`), the memory MPI itself writes (one call's buffer is
    /// contiguous from its first element), instead of the whole array. The count is the
    /// buffer's own (the next integer argument), which leaves out the root's side of a
    /// gather (`count` elements from each rank: recorded whole). The array is a dummy or a
    /// local of this procedure, not a pointer, in no COMMON or EQUIVALENCE; the subscripts
    /// and the count read nothing the call writes.
    fn slice_mpi_buffers(
        &mut self,
        i: usize,
        c: UnitId,
        args: &[Arg],
        rec: &mut ZoneSet,
    ) -> (Vec<StmtId>, Vec<StmtId>) {
        let (mut push, mut pop) = (Vec::new(), Vec::new());
        let writes = self.pg.f.pi.effects[i].writes.clone();
        let prog = self.pg.prog();
        let src = self.pg.f.src;
        let Some(d) = prog.described.get(&c) else {
            return (push, pop);
        };
        if args.iter().any(|a| a.keyword.is_some()) {
            return (push, pop);
        }
        let name = d.name.to_ascii_lowercase();
        let root_side = |k: usize| {
            k == 3
                && matches!(
                    name.as_str(),
                    "mpi_gather" | "mpi_allgather" | "mpi_gatherv"
                )
        };
        let buffer = |k: usize| {
            d.param(k).is_some_and(|f| {
                f.ty.array && f.written && f.ty.base != radtap_il::library::BaseHint::Integer
            })
        };
        let count_of = |k: usize| {
            (k + 1..d.arity()).find(|&j| {
                d.param(j).is_some_and(|f| {
                    !f.ty.array && f.ty.base == radtap_il::library::BaseHint::Integer
                })
            })
        };
        let bases: Vec<Option<SymbolId>> = args
            .iter()
            .map(|a| radtap_dataflow::zones::base_symbol(prog, self.pg.f.p, a.value))
            .collect();
        // (array, its buffers), the list None once one write cannot be sliced.
        let mut pieces: Vec<(SymbolId, Option<Vec<BufferCount>>)> = Vec::new();
        for (k, a) in args.iter().enumerate() {
            let Some(x) = bases[k] else { continue };
            let written = buffer(k) || d.param(k).is_some_and(|f| f.written);
            if !written {
                continue;
            }
            let slot = match pieces.iter().position(|(y, _)| *y == x) {
                Some(p) => p,
                None => {
                    pieces.push((x, Some(Vec::new())));
                    pieces.len() - 1
                }
            };
            let element = match &src.exprs[a.value] {
                Expr::Index { base, subs } => matches!(src.exprs[*base], Expr::Name(y) if y == x)
                    && subs.iter().all(
                        |sb| matches!(sb, Subscript::Index(e) if self.stable_across(*e, &writes)),
                    ),
                // The whole array: the buffer starts at its first element.
                Expr::Name(y) => *y == x,
                _ => false,
            };
            let count = count_of(k).filter(|&j| {
                args.get(j)
                    .is_some_and(|ca| self.stable_across(ca.value, &writes))
            });
            match (buffer(k) && element && !root_side(k), count) {
                (true, Some(j)) => {
                    if let Some(v) = pieces[slot].1.as_mut() {
                        v.push((k, j));
                    }
                }
                _ => pieces[slot].1 = None,
            }
        }
        for (x, list) in pieces {
            let Some(list) = list else { continue };
            let xs = &prog.symbols[x];
            let array = xs.ty.as_ref().is_some_and(|t| !t.dims.is_empty());
            let mine = src.params.contains(&x) || self.own_local(x);
            let alone = xs.common.is_none() && !self.pg.f.pi.zones.equivalenced.contains(&x);
            if !(array && mine && alone && !xs.attrs.pointer && !list.is_empty()) {
                continue;
            }
            let Some(zx) = self.pg.f.pi.zones.sym_zones(x) else {
                continue;
            };
            if !rec.intersects(&zx) {
                continue;
            }
            let mut slots = Vec::new();
            for (k, j) in list {
                let Ok(mut sl) = self.slot_of_target(Target::Expr(args[k].value)) else {
                    slots.clear();
                    break;
                };
                sl.count = Some(self.pg.cp(args[j].value));
                slots.push(sl);
            }
            if slots.is_empty() {
                continue;
            }
            for sl in slots {
                let (p1, p2) = self.push_pop(&sl);
                push.push(p1);
                pop.insert(0, p2);
            }
            rec.subtract(&zx);
        }
        (push, pop)
    }

    fn record_piece(
        &mut self,
        sl: &Slot,
        zx: &ZoneSet,
        (push, pop): (&mut Vec<StmtId>, &mut Vec<StmtId>),
        rec: &mut ZoneSet,
    ) {
        let (p1, p2) = self.push_pop(sl);
        push.push(p1);
        pop.insert(0, p2);
        rec.subtract(zx);
    }

    /// Whether `e` (an index or count of the caller) reads only variables the call at point
    /// `writes` leaves alone and calls nothing, so it means the same at the push and the pop.
    fn stable_across(&self, e: ExprId, writes: &ZoneSet) -> bool {
        let src = self.pg.f.src;
        let mut todo = vec![e];
        while let Some(e) = todo.pop() {
            match &src.exprs[e] {
                Expr::Name(v) => match self.pg.f.pi.zones.sym_zones(*v) {
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
        let writes = self.pg.f.pi.effects[i].writes.clone();
        let prog = self.pg.prog();
        let src = self.pg.f.src;
        let cu = &prog.units[c];
        let bases: Vec<Option<SymbolId>> = args
            .iter()
            .map(|a| radtap_dataflow::zones::base_symbol(prog, self.pg.f.p, a.value))
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
                    .f
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
                .f
                .pi
                .zones
                .objects
                .get(&key)
                .map(|o| self.pg.f.pi.zones.obj_set(o))
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
            self.record_piece(&sl, &zx, (&mut push, &mut pop), rec);
        }
        (push, pop)
    }
}

/// A subscript `e` of callee `c`: `Some(true)` when it is made of integer literals, integer
/// operators and the dummies of `actual_of` (the caller can write it), `Some(false)` when it
/// also reads integer scalar locals of `c` (it may be any element of its dimension), `None`
/// otherwise (a global, a call, an array).
fn callee_subscript(
    prog: &Program,
    c: UnitId,
    u: &UnitData,
    e: ExprId,
    actual_of: &HashMap<SymbolId, ExprId>,
) -> Option<bool> {
    match &u.exprs[e] {
        Expr::Literal(l) if l.kind == LitKind::Int => Some(true),
        Expr::Name(v) if actual_of.contains_key(v) => Some(true),
        Expr::Name(v) => {
            let s = &prog.symbols[*v];
            let local = !u.params.contains(v)
                && radtap_dataflow::zones::unit_of_scope(prog, s.scope) == Some(c)
                && !s.attrs.save
                && s.ty
                    .as_ref()
                    .is_some_and(|t| t.dims.is_empty() && t.base == BaseClass::Integer);
            local.then_some(false)
        }
        Expr::Paren(a)
        | Expr::Unary {
            op: UnOp::Neg,
            arg: a,
        } => callee_subscript(prog, c, u, *a, actual_of),
        Expr::Binary { op, lhs, rhs } if matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul) => {
            let l = callee_subscript(prog, c, u, *lhs, actual_of)?;
            let r = callee_subscript(prog, c, u, *rhs, actual_of)?;
            Some(l && r)
        }
        _ => None,
    }
}
