//! Values read at the end of a procedure: of what points read, the zones no write between
//! the reading point (included) and the exit may change. Split mode asks it of the reads of
//! the backward sweep: `f_bwd` starts from the state `f_fwd` left, so a value its adjoint
//! statements read there must reach `f_bwd` as it was at the exit of `f_fwd` (a value
//! written at or after the reading point is recorded where it is overwritten, and put back).

use crate::{ProcInfo, ZoneSet};

impl ProcInfo {
    /// `⋃ₚ reads[p] − W(p)`, with `W(p)` the zones the points from `p` (included) to the
    /// exit may write, over every path (loops included). `reads` is indexed by dense point.
    pub fn exit_exposed(&self, reads: &[ZoneSet]) -> ZoneSet {
        let n = self.zones.len();
        let g = &self.graph;
        // Zones written from the start of each block to the exit, to a fixpoint.
        let mut w_in = vec![ZoneSet::new(n); g.blocks.len()];
        let block_writes: Vec<ZoneSet> = (0..g.blocks.len())
            .map(|b| {
                let mut w = ZoneSet::new(n);
                let first = self.first_point[b];
                for k in 0..g.blocks[b].points.len() {
                    w.union_with(&self.effects[first + k].writes);
                }
                w
            })
            .collect();
        let mut changed = true;
        while changed {
            changed = false;
            for &b in g.rpo.iter().rev() {
                let mut w = block_writes[b.index()].clone();
                for s in &g.blocks[b.index()].succs {
                    w.union_with(&w_in[s.index()]);
                }
                if w_in[b.index()].union_with(&w) {
                    changed = true;
                }
            }
        }
        let mut out = ZoneSet::new(n);
        for (b, bd) in g.blocks.iter().enumerate() {
            let mut after = ZoneSet::new(n);
            for s in &bd.succs {
                after.union_with(&w_in[s.index()]);
            }
            let first = self.first_point[b];
            for k in (0..bd.points.len()).rev() {
                let p = first + k;
                after.union_with(&self.effects[p].writes);
                if let Some(r) = reads.get(p) {
                    let mut e = r.clone();
                    e.subtract(&after);
                    out.union_with(&e);
                }
            }
        }
        out
    }
}
