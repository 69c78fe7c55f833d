//! Running a piece of the forward sweep again in the backward sweep: the snapshot of a region
//! and its restoration before the rerun, the DO variables around it.

use crate::*;

impl<'a> Adj<'_, '_, 'a> {
    /// The snapshot that lets the backward sweep re-run a region: what the region reads or
    /// writes that the procedure may overwrite (the rest keeps its value until then), less
    /// the counters of the enclosing DO loops (the reversed loops set them, and a Fortran DO
    /// variable cannot be redefined inside its loop). In a split sweep the caller runs
    /// between the sweeps and may overwrite anything: all of it.
    pub(crate) fn region_snapshot(&mut self, stmts: &[StmtId]) -> (Vec<StmtId>, Vec<StmtId>) {
        let mut z = self.pg.f.pi.zones.empty();
        let mut inside = HashSet::new();
        subtree(self.pg.f.src, stmts, &mut |x| {
            inside.insert(x);
        });
        for (i, p) in self.pg.f.pi.point.iter().enumerate() {
            if inside.contains(&p.stmt) {
                z.union_with(&self.pg.f.pi.effects[i].reads);
                z.union_with(&self.pg.f.pi.effects[i].writes);
            }
        }
        if self.pg.f.sweep == Sweep::Joint {
            z.intersect_with(&self.written_anywhere);
        }
        for v in self.enclosing_do_vars(stmts[0]) {
            if let Some(vz) = self.pg.g.info.ref_zones(self.pg.prog(), self.pg.f.p, v) {
                z.subtract(&vz);
            }
        }
        self.snapshot(stmts[0], &z)
    }

    /// The snapshot's values put back for a re-run, kept on the stack (repeat mark).
    pub(crate) fn restore_for_rerun(&mut self, pop: &[StmtId]) -> Vec<StmtId> {
        let mut bwd = Vec::new();
        if !pop.is_empty() {
            bwd.push(self.rt("adStack_startRepeat", Vec::new()));
            for &p in pop {
                let d = self.dup_stmt(p);
                bwd.push(d);
            }
            bwd.push(self.rt("adStack_resetRepeat", Vec::new()));
            bwd.push(self.rt("adStack_endRepeat", Vec::new()));
        }
        bwd
    }

    /// The variables of the DO loops around statement `s`.
    pub(crate) fn enclosing_do_vars(&self, s: StmtId) -> Vec<ExprId> {
        fn walk(src: &UnitData, b: &[StmtId], s: StmtId, path: &mut Vec<StmtId>) -> bool {
            for &x in b {
                if x == s {
                    return true;
                }
                path.push(x);
                for c in radtap_il::directives::child_blocks(&src.stmts[x].kind) {
                    if walk(src, c, s, path) {
                        return true;
                    }
                }
                path.pop();
            }
            false
        }
        let mut path = Vec::new();
        walk(self.pg.f.src, &self.pg.f.src.body, s, &mut path);
        path.iter()
            .filter_map(|&x| match &self.pg.f.src.stmts[x].kind {
                StmtKind::Do { var, .. } => Some(*var),
                _ => None,
            })
            .collect()
    }
}
