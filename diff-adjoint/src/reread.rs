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
        let reads = &self.pg.pi.effects[i].reads;
        let mut needed = self.pg.pi.zones.empty();
        for o in self.pg.pi.zones.objects.values() {
            let set = self.pg.pi.zones.obj_set(o).and(rec);
            if set.intersects(reads) {
                needed.union_with(&set);
            }
        }
        // Zones outside every object (none expected) stay needed.
        let mut unread = rec.clone();
        unread.subtract(&needed);
        for o in self.pg.pi.zones.objects.values() {
            let set = self.pg.pi.zones.obj_set(o);
            if set.intersects(&needed) {
                unread.subtract(&set);
            }
        }
        let mut outside = rec.clone();
        for o in self.pg.pi.zones.objects.values() {
            outside.subtract(&self.pg.pi.zones.obj_set(o));
        }
        needed.union_with(&outside);
        unread.subtract(&outside);
        (unread, needed)
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
        let callee = match &self.pg.u.stmts[p].kind {
            StmtKind::Call { callee, .. } => *callee,
            StmtKind::Expr(e) => match &self.pg.u.exprs[*e] {
                Expr::Call { callee, .. } => *callee,
                _ => return None,
            },
            _ => return None,
        };
        let Expr::Opaque(name) = &self.pg.u.exprs[callee] else {
            return None;
        };
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
