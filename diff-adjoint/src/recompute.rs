//! Recomputing instead of recording (issue 21; `-nooptim recomputeintermediates` records):
//! a cheap C call that fills a work array of this procedure, such as
//! `subtract(d, &x[ix*d], &means[ik*d], xcentered)` in a loop body, is run again in the
//! backward sweep just before the adjoint of the last statement of its block that reads the
//! array, instead of the forward sweep pushing the array before the call and the backward
//! sweep popping it after the call's adjoint. Pushing and popping `d` values cost more than
//! `d` subtractions, and nothing goes on the stack.
//!
//! The rule, all of it required (anything unknown keeps the recording):
//! - joint mode, a procedure with no jump, a block with no directive region;
//! - the statement is a call of a C procedure of the file whose body has no call and no loop
//!   inside a loop (its cost is of the order of the values it writes);
//! - the call writes one object `V` only: an array of this procedure or a block it
//!   allocates, passed whole (its bare name or `&v[0]`), that the callee overwrites before reading
//!   anything of it (`killed_on_entry`: the re-run does not depend on the old values), and
//!   no other statement of the procedure writes `V` (so the elements the callee leaves alone
//!   hold the same values throughout both sweeps);
//! - no other call gets `V`'s address while the program has a pointer or record of static
//!   storage (a callee could keep the address and a later one write through it unseen), nor
//!   a call returning a pointer;
//! - every statement that reads `V`, or whose adjoint reads it, lies among the statements
//!   of the block after the call (the last of them is where the call runs again);
//! - its scalar arguments (which bound the elements the callee writes) name only variables
//!   the procedure never writes;
//! - everything else the call reads holds, at that point of the backward sweep, the value
//!   it had at the call: never written in the procedure, the variable of a counted loop
//!   around the block that its backward loop sets again (`restored_vars`), or a pointer
//!   set only by statements of the body's top level before the one holding the block.

use crate::*;
use radtap_il::directives::Region;

/// The array an argument passes whole: its bare name `v`, or `&v[0]` (ADBench's spelling,
/// `subtract(d, &x[ix*d], &means[ik*d], &xcentered[0])`).
fn whole(u: &UnitData, e: ExprId) -> Option<SymbolId> {
    match &u.exprs[e] {
        Expr::Name(n) => Some(*n),
        Expr::Paren(a) => whole(u, *a),
        Expr::Unary {
            op: UnOp::AddrOf,
            arg,
        } => {
            let mut a = *arg;
            while let Expr::Paren(x) = &u.exprs[a] {
                a = *x;
            }
            let Expr::Index { base, subs } = &u.exprs[a] else {
                return None;
            };
            let zero = matches!(subs.as_slice(), [Subscript::Index(i)]
                if matches!(&u.exprs[*i], Expr::Literal(l) if l.kind == LitKind::Int && l.text == "0"));
            match &u.exprs[*base] {
                Expr::Name(n) if zero => Some(*n),
                _ => None,
            }
        }
        _ => None,
    }
}

/// A call run again in the backward sweep: the statement of the block and the index of the
/// last statement reading what it writes.
pub(crate) struct Recompute {
    pub(crate) call: usize,
    pub(crate) before: usize,
}

impl<'a> Adj<'_, '_, 'a> {
    /// The calls of `b[lo..hi]` to run again backwards instead of recording what they
    /// write (module doc); the zones not recorded are kept in `self.recomputed`.
    pub(crate) fn recompute_plan(
        &mut self,
        b: &'a [StmtId],
        lo: usize,
        hi: usize,
        regions: &[Region],
    ) -> Vec<Recompute> {
        let mut out = Vec::new();
        if !self.pg.g.opts.recompute
            || self.pg.f.lang != Lang::C
            || !matches!(self.pg.f.sweep, Sweep::Joint)
            || self.has_any_jump()
            || !regions.is_empty()
        {
            return out;
        }
        for p in lo..hi {
            if let Some((q, v)) = self.recomputable(b, p, hi) {
                self.recomputed.insert(b[p], v);
                out.push(Recompute { call: p, before: q });
            }
        }
        out
    }

    /// The last statement of `b[p+1..hi]` reading what the call `b[p]` writes, and those
    /// zones, when the call can be run again there instead of being recorded.
    fn recomputable(&mut self, b: &'a [StmtId], p: usize, hi: usize) -> Option<(usize, ZoneSet)> {
        let s = b[p];
        let StmtKind::Call { args, .. } = &self.pg.f.src.stmts[s].kind else {
            return None;
        };
        let i = self.pg.pid(s)?;
        let c = match self.pg.stmt_call_site(s).map(|x| &x.callee) {
            Some(Callee::Defined(l)) if l.len() == 1 => l[0],
            _ => return None,
        };
        if self.pg.prog().units[c].lang != Lang::C || !self.cheap_body(c) {
            return None;
        }
        let zones = &self.pg.f.pi.zones;
        let writes = self.pg.f.pi.effects[i].writes.clone();
        if writes.is_empty() {
            return None;
        }
        // The one object written, killed on entry, passed by its bare name.
        let killed = self.killed_on_entry(c, args, &writes);
        let mut obj = None;
        for (key, o) in zones.objects.iter() {
            let set = zones.obj_set(o);
            if set.intersects(&writes) {
                if obj.is_some() {
                    return None;
                }
                obj = Some((*key, set));
            }
        }
        let (key, v) = obj?;
        let mut outside = writes.clone();
        outside.subtract(&v);
        let mut unkilled = v.clone();
        unkilled.subtract(&killed);
        if !outside.is_empty() || !unkilled.is_empty() {
            return None;
        }
        let private = match key {
            ObjKey::Sym(x) => self.own_local(x),
            ObjKey::Heap(u, _) => u == self.pg.f.p,
            ObjKey::Pointee(_) => false,
        };
        if !private {
            return None;
        }
        let bare = args.iter().any(|a| match whole(self.pg.f.src, a.value) {
            Some(n) => {
                let ks = zones.pts.get(&n).cloned().unwrap_or_default();
                key == ObjKey::Sym(n) || ks == [key]
            }
            None => false,
        });
        if !bare || self.address_may_escape(s, key) {
            return None;
        }
        // Only this call writes V; its readers lie in b[p+1..=q].
        let mut holder = HashMap::new();
        for (k, &t) in b.iter().enumerate().take(hi).skip(p) {
            subtree(self.pg.f.src, &[t], &mut |x| {
                holder.insert(x, k);
            });
        }
        let mut q = None;
        for (id, pt) in self.pg.f.pi.point.iter().enumerate() {
            let e = &self.pg.f.pi.effects[id];
            if e.writes.intersects(&v) && pt.stmt != s && !self.delayed_free(pt.stmt) {
                return None;
            }
            let reads = e.reads.intersects(&v) || self.pg.f.act.deriv_uses[id].intersects(&v);
            if !reads || pt.stmt == s {
                continue;
            }
            match holder.get(&pt.stmt) {
                Some(&k) if k > p => q = q.max(Some(k)),
                _ => return None,
            }
        }
        let q = q?;
        // The callee's scalar arguments (its loop bounds, so the elements it writes) are
        // the same at every execution: the elements it leaves alone then keep the values
        // the last one before gave them, in both sweeps.
        let prog = self.pg.prog();
        let cu = &prog.units[c];
        for (k, a) in args.iter().enumerate() {
            let formal = if a.keyword.is_none() {
                cu.params.get(k)
            } else {
                None
            };
            let scalar = formal.is_none_or(|&f| {
                prog.symbols[f]
                    .ty
                    .as_ref()
                    .is_none_or(|t| t.pointers == 0 && t.dims.is_empty())
            });
            if scalar && self.mentions_written(a.value) {
                return None;
            }
        }
        // What the call reads holds the same value at b[q]'s adjoint.
        let mut inputs = self.pg.f.pi.effects[i].reads.clone();
        inputs.subtract(&v);
        inputs.subtract(&self.restored_vars);
        let mut moving = inputs.and(&self.written_anywhere);
        if moving.is_empty() {
            return Some((q, v));
        }
        // Pointers set at the top level before the statement holding the block.
        let top = self.top_level_index(s)?;
        let top_level: HashSet<StmtId> = self.pg.f.src.body[..top].iter().copied().collect();
        for (key, o) in self.pg.f.pi.zones.objects.iter() {
            let ObjKey::Sym(x) = key else { continue };
            let set = self.pg.f.pi.zones.obj_set(o);
            if !set.intersects(&moving) {
                continue;
            }
            let pointer = self.pg.prog().symbols[*x]
                .ty
                .as_ref()
                .is_some_and(|t| t.pointers == 1 && t.dims.is_empty());
            let set_early = self.pg.f.pi.point.iter().enumerate().all(|(id, pt)| {
                !self.pg.f.pi.effects[id].writes.intersects(&set) || top_level.contains(&pt.stmt)
            });
            if pointer && set_early {
                moving.subtract(&set);
            }
        }
        moving.is_empty().then_some((q, v))
    }

    /// Whether a call other than `s` may keep the address of object `key` where a later call
    /// writes through it unseen (a callee storing it in a global or `static` pointer, or
    /// returning it): the address goes to a call other than `s` while the program has a
    /// pointer or record of static storage, or to a call returning a pointer.
    fn address_may_escape(&self, s: StmtId, key: ObjKey) -> bool {
        let prog = self.pg.prog();
        let src = self.pg.f.src;
        let zones = &self.pg.f.pi.zones;
        let lasting = prog.symbols.iter().any(|(_, d)| {
            let global = radtap_dataflow::zones::unit_of_scope(prog, d.scope).is_none_or(|u| {
                !matches!(
                    prog.units[u].kind,
                    UnitKind::Subroutine | UnitKind::Function
                )
            });
            let pointerish =
                d.ty.as_ref()
                    .is_some_and(|t| t.pointers > 0 || matches!(t.base, BaseClass::Record(_)));
            pointerish && (global || d.attrs.save) && d.kind == SymbolKind::Variable
        });
        let reaches = |e: ExprId| {
            let mut todo = vec![e];
            while let Some(y) = todo.pop() {
                if let Expr::Name(n) = src.exprs[y] {
                    if ObjKey::Sym(n) == key
                        || zones.pts.get(&n).is_some_and(|ks| ks.contains(&key))
                    {
                        return true;
                    }
                }
                radtap_il::visit::expr_children(&src.exprs[y], &mut |k| todo.push(k));
            }
            false
        };
        for site in self.pg.g.info.callgraph.sites_of(self.pg.f.p) {
            let args = match site.expr {
                Some(e) => match &src.exprs[e] {
                    Expr::Call { args, .. } => args,
                    _ => continue,
                },
                None if site.stmt == s || self.delayed_free(site.stmt) => continue,
                None => match &src.stmts[site.stmt].kind {
                    StmtKind::Call { args, .. } => args,
                    _ => continue,
                },
            };
            if !args.iter().any(|a| reaches(a.value)) {
                continue;
            }
            let returns_pointer = match &site.callee {
                Callee::Defined(l) => l.iter().any(|&c| !prog.units[c].ret_derived.is_empty()),
                _ => true,
            };
            if lasting || returns_pointer {
                return true;
            }
        }
        false
    }

    /// Whether `t` is a `free` of the body's top level, which waits for the backward sweep.
    fn delayed_free(&self, t: StmtId) -> bool {
        match &self.pg.f.src.stmts[t].kind {
            StmtKind::Call { callee, args, .. } => {
                self.pg.callee_name(*callee) == "free"
                    && self.pg.f.src.body.contains(&t)
                    && args.len() == 1
                    && self
                        .freed_pointer(args[0].value)
                        .is_some_and(|w| self.freed_locals.contains(&w))
            }
            _ => false,
        }
    }

    /// Whether expression `e` names a variable the procedure writes (or reads memory).
    fn mentions_written(&self, e: ExprId) -> bool {
        let src = self.pg.f.src;
        let mut todo = vec![e];
        while let Some(x) = todo.pop() {
            match &src.exprs[x] {
                Expr::Name(n) => {
                    let moved = self
                        .pg
                        .f
                        .pi
                        .zones
                        .sym_zones(*n)
                        .is_none_or(|z| z.intersects(&self.written_anywhere));
                    if moved {
                        return true;
                    }
                }
                Expr::Call { .. } | Expr::Index { .. } | Expr::Field { .. } => return true,
                Expr::Unary {
                    op: UnOp::Deref, ..
                } => return true,
                _ => {}
            }
            radtap_il::visit::expr_children(&src.exprs[x], &mut |k| todo.push(k));
        }
        false
    }

    /// The index in the body's top level of the statement holding `s`.
    fn top_level_index(&self, s: StmtId) -> Option<usize> {
        let body = &self.pg.f.src.body;
        body.iter().position(|&t| {
            let mut found = false;
            subtree(self.pg.f.src, &[t], &mut |x| found |= x == s);
            found
        })
    }

    /// Whether unit `c` runs no call and no loop inside a loop.
    fn cheap_body(&self, c: UnitId) -> bool {
        let u = &self.pg.prog().units[c];
        fn walk(u: &UnitData, b: &[StmtId], depth: usize) -> bool {
            b.iter().all(|&x| {
                let kind = &u.stmts[x].kind;
                let lp = matches!(
                    kind,
                    StmtKind::Do { .. }
                        | StmtKind::While { .. }
                        | StmtKind::DoWhile { .. }
                        | StmtKind::CFor { .. }
                        | StmtKind::Loop { .. }
                );
                if matches!(kind, StmtKind::Call { .. }) || (lp && depth > 0) {
                    return false;
                }
                let mut ok = true;
                let mut kids = Vec::new();
                radtap_il::visit::stmt_children(
                    kind,
                    &mut |e| {
                        let mut st = vec![e];
                        while let Some(y) = st.pop() {
                            if matches!(u.exprs[y], Expr::Call { .. }) {
                                ok = false;
                            }
                            radtap_il::visit::expr_children(&u.exprs[y], &mut |k| st.push(k));
                        }
                    },
                    &mut |k| kids.push(k),
                );
                ok && walk(u, &kids, depth + usize::from(lp))
            })
        }
        walk(u, &u.body, 0)
    }
}
