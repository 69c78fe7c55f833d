//! Reading a checkpoint's snapshot once more before the call is re-run backwards (issue 21,
//! item 4). A snapshot of one value is read with `look` (the value stays on the stack for
//! the pop after the adjoint call); a snapshot of several values goes through a repeat mark,
//! `adStack_startRepeat(); pops; adStack_resetRepeat(); adStack_endRepeat();`. A look costs
//! what a pop costs; a mark saves and restores the stack's state.
//!
//! Only what the re-run reads on entry is restored (`-nooptim snapshot` restores it all):
//! a value the callee overwrites before reading it (an `out` array) is restored by the pop
//! after the adjoint call, for the statements before the call, and not before it.

use crate::*;

impl Adj<'_, '_, '_> {
    /// The zones of the snapshot `rec` of the call at point `i` split into those the call
    /// never reads on entry (not restored before the re-run) and the others, whole objects
    /// at a time (a snapshot records whole objects).
    pub(crate) fn reread_needs(&self, i: usize, rec: &ZoneSet) -> (ZoneSet, ZoneSet) {
        let reads = &self.pg.f.pi.effects[i].reads;
        let mut needed = self.pg.f.pi.zones.empty();
        for o in self.pg.f.pi.zones.objects.values() {
            let set = self.pg.f.pi.zones.obj_set(o).and(rec);
            if set.intersects(reads) {
                needed.union_with(&set);
            }
        }
        // Zones outside every object (none expected) stay needed.
        let mut unread = rec.clone();
        unread.subtract(&needed);
        for o in self.pg.f.pi.zones.objects.values() {
            let set = self.pg.f.pi.zones.obj_set(o);
            if set.intersects(&needed) {
                unread.subtract(&set);
            }
        }
        let mut outside = rec.clone();
        for o in self.pg.f.pi.zones.objects.values() {
            outside.subtract(&self.pg.f.pi.zones.obj_set(o));
        }
        needed.union_with(&outside);
        unread.subtract(&outside);
        (unread, needed)
    }

    /// The zones of `rec` (whole objects) that the C call `c(args)` reaches through one
    /// pointer argument only, the callee writing every element of that pointer's memory it
    /// reads before reading it ([`radtap_il::extent::written_before_read`]): the call's
    /// re-run never reads their values on entry (`Qtimesx(d, …, xcentered, Qxcentered)`
    /// sets `out[0 .. d)` first). `-nooptim snapshot` turns this off with the rest.
    ///
    /// An object qualifies when it is an array of this procedure (not static), a block it
    /// allocates, or the memory behind a pointer dummy it never moves; the argument's base
    /// points to it alone; no other argument names anything that may point to it or lies
    /// in it, nor a record or a pointer to pointers (which may lead to it); and no variable
    /// but this procedure's own pointers points to it (a global pointer set to it would let
    /// the callee read it otherwise). Pointers the callee would take from a global that
    /// another procedure set to it are out of this check's sight, as they are of the
    /// slices' (`slices.rs`).
    pub(crate) fn killed_on_entry(&self, c: UnitId, args: &[Arg], rec: &ZoneSet) -> ZoneSet {
        let zones = &self.pg.f.pi.zones;
        let mut out = zones.empty();
        let prog = self.pg.prog();
        let cu = &prog.units[c];
        if self.pg.f.lang != Lang::C || cu.lang != Lang::C || cu.params.len() != args.len() {
            return out;
        }
        let src = self.pg.f.src;
        let names = |e: ExprId| {
            let mut v = Vec::new();
            let mut todo = vec![e];
            while let Some(x) = todo.pop() {
                if let Expr::Name(n) = src.exprs[x] {
                    v.push(n);
                }
                radtap_il::visit::expr_children(&src.exprs[x], &mut |ch| todo.push(ch));
            }
            v
        };
        let keys_of = |n: SymbolId| {
            let mut v = vec![ObjKey::Sym(n), ObjKey::Pointee(n)];
            v.extend(zones.pts.get(&n).cloned().unwrap_or_default());
            v
        };
        // Records and pointers to pointers may lead anywhere.
        let opaque = |n: SymbolId| {
            prog.symbols[n].ty.as_ref().is_none_or(|t| {
                matches!(t.base, BaseClass::Record(_)) || t.pointers > 1 || t.dims.len() > 1
            })
        };
        for (k, a) in args.iter().enumerate() {
            if a.keyword.is_some() {
                continue;
            }
            let formal = cu.params[k];
            let Some(x) = radtap_dataflow::zones::base_symbol(prog, self.pg.f.p, a.value) else {
                continue;
            };
            let Some(xt) = prog.symbols[x].ty.as_ref() else {
                continue;
            };
            let mine = self.own_local(x) || src.params.contains(&x);
            if !mine || prog.symbols[x].attrs.save || opaque(x) {
                continue;
            }
            let key = if xt.pointers == 0 && xt.dims.len() == 1 && self.own_local(x) {
                ObjKey::Sym(x)
            } else if xt.pointers == 1 && xt.dims.is_empty() {
                match zones.pts.get(&x).map(|v| &v[..]) {
                    Some([ObjKey::Heap(u, st)]) if *u == self.pg.f.p => ObjKey::Heap(*u, *st),
                    Some([ObjKey::Pointee(p)]) if *p == x && src.params.contains(&x) => {
                        let fixed = zones
                            .sym_zones(x)
                            .is_some_and(|z| !z.intersects(&self.written_anywhere));
                        if !fixed {
                            continue;
                        }
                        ObjKey::Pointee(x)
                    }
                    _ => continue,
                }
            } else {
                continue;
            };
            let Some(set) = zones.objects.get(&key).map(|o| zones.obj_set(o)) else {
                continue;
            };
            if !rec.intersects(&set) {
                continue;
            }
            // Only this procedure's own pointers point to it.
            let foreign = zones.pts.iter().any(|(n, ks)| {
                ks.contains(&key) && !(self.own_local(*n) || src.params.contains(n))
            });
            if foreign {
                continue;
            }
            // The argument names `x` once, as its base; no other argument reaches the object.
            let mut clash = names(a.value).iter().filter(|&&n| n == x).count() != 1;
            for (j, b) in args.iter().enumerate() {
                for n in names(b.value) {
                    if j == k && n == x {
                        continue;
                    }
                    if keys_of(n).contains(&key) || opaque(n) {
                        clash = true;
                    }
                }
            }
            if clash || !radtap_il::extent::written_before_read(prog, c, formal) {
                continue;
            }
            out.union_with(&set);
        }
        out
    }

    /// The statements restoring the snapshot popped by `pop` while leaving it on the stack.
    pub(crate) fn reread_snapshot(&mut self, pop: &[StmtId]) -> Vec<StmtId> {
        if let [p] = pop {
            if let Some(look) = self.look_of(*p) {
                return vec![look];
            }
        }
        let mut out = vec![self.rt("adStack_startRepeat", Vec::new())];
        for &p in pop {
            let d = self.dup_stmt(p);
            out.push(d);
        }
        out.push(self.rt("adStack_resetRepeat", Vec::new()));
        out.push(self.rt("adStack_endRepeat", Vec::new()));
        out
    }

    /// `popX(args)` as `lookX(args)`, for the runtime routines that have a look.
    fn look_of(&mut self, p: StmtId) -> Option<StmtId> {
        let name = self.runtime_name(p)?.to_string();
        let rest = name.strip_prefix("pop")?;
        // Every pop of the runtime but popPointer4 and popBit has a look.
        let lower = rest.to_ascii_lowercase();
        if lower.starts_with("pointer4") || lower.starts_with("bit") || lower.is_empty() {
            return None;
        }
        let look = format!("look{rest}");
        let d = self.dup_stmt(p);
        let new_callee = self.pg.b().opaque(&look);
        match &mut self.pg.u.stmts[d].kind {
            StmtKind::Call { callee, .. } => *callee = new_callee,
            StmtKind::Expr(e) => {
                let e = *e;
                if let Expr::Call { callee, .. } = &mut self.pg.u.exprs[e] {
                    *callee = new_callee;
                }
            }
            _ => return None,
        }
        Some(d)
    }
}
