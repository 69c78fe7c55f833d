//! Directive regions in the adjoint (DESIGN.md "Directives", paper §4.8):
//!
//! - `CHECKPOINT-START` … `CHECKPOINT-END`: the region is checkpointed like a call. The
//!   forward sweep pushes a snapshot of what the region reads or writes that the procedure
//!   may overwrite, then runs the region's primal code (no tape). The backward sweep restores
//!   the snapshot (read through a repeat mark), runs the region's own forward sweep (with its
//!   tape) and backward sweep, then restores the snapshot again for the statements before.
//!   So the region's tape lives only while its adjoint runs: the peak stack of the procedure
//!   is lower by the region's tape minus the snapshot.
//! - `DO-NOT-DIFF` … `END-DO-NOT-DIFF`: the primal code in the forward sweep; the backward
//!   sweep replays it from a snapshot with the adjoints it writes set to zero (the rule is
//!   shared with the tangent: `nodiff.rs` of `radtap-diff-tangent`).
//! - The body of an `$AD II-LOOP` loop, checkpointed per iteration, is handed to `iiloop`.
//!
//! Regions are matched per block by [`radtap_il::directives::block_regions`]; what does not
//! match was reported as AD050 by the pipeline and is ignored here.

use crate::*;
use radtap_il::directives::{block_regions, Region, RegionKind};

impl<'a> Adj<'_, '_, 'a> {
    fn adj_region(&mut self, b: &'a [StmtId], ri: usize, regions: &[Region]) -> Rev {
        let reg = &regions[ri];
        match reg.kind {
            RegionKind::Checkpoint => self.adj_checkpoint_region(b, ri, regions),
            RegionKind::DoNotDiff => self.adj_nodiff_region(&b[reg.start..reg.end]),
        }
    }

    /// `CHECKPOINT-START` … `CHECKPOINT-END` (module doc).
    fn adj_checkpoint_region(&mut self, b: &'a [StmtId], ri: usize, regions: &[Region]) -> Rev {
        let reg = &regions[ri];
        let stmts = &b[reg.start..reg.end];
        if let Some((s, what)) = self
            .pg
            .region_refusal(stmts, &DirectiveKind::CheckpointStart)
        {
            return self.unsupported(s, &what);
        }
        let (push, pop) = self.region_snapshot(stmts);
        let inner = self.rev_range(b, reg.start, reg.end, regions, Some(ri));
        let mut fwd = push;
        for &s in stmts {
            let c = self.pg.copy_stmt(s);
            fwd.push(c);
        }
        let mut bwd = self.restore_for_rerun(&pop);
        bwd.extend(inner.fwd);
        bwd.extend(inner.bwd);
        bwd.extend(pop);
        Rev { fwd, bwd }
    }

    /// `DO-NOT-DIFF` … `END-DO-NOT-DIFF`: the forward sweep runs the region's primal code;
    /// the backward sweep replays it from a snapshot with `v̄ = 0` after each write `v = …`
    /// (the transpose of the tangent's `v̇ = 0`, `nodiff.rs` of `radtap-diff-tangent`), and
    /// restores the snapshot. Nothing is replayed when the region writes no derivative.
    fn adj_nodiff_region(&mut self, stmts: &'a [StmtId]) -> Rev {
        if let Some((s, what)) = self.pg.region_refusal(stmts, &DirectiveKind::DoNotDiff) {
            return self.unsupported(s, &what);
        }
        let mut fwd = Vec::new();
        for &s in stmts {
            let c = self.pg.copy_stmt(s);
            fwd.push(c);
        }
        let (zeroing, any) = self.pg.nodiff_block(stmts);
        if !any {
            return Rev {
                fwd,
                bwd: Vec::new(),
            };
        }
        let (push, pop) = self.region_snapshot(stmts);
        let mut f = push;
        f.extend(fwd);
        let mut bwd = self.restore_for_rerun(&pop);
        bwd.extend(zeroing);
        bwd.extend(pop);
        Rev { fwd: f, bwd }
    }

    /// Code with jumps is reversed through its flow graph (`jumps.rs`), statement by
    /// statement: the regions matched in the blocks of `stmts` (and in `stmts` itself) are
    /// not acted on, which is said (AD050).
    pub(crate) fn warn_regions_ignored(&mut self, stmts: &[StmtId]) {
        let src = self.pg.f.src;
        let mut blocks: Vec<&[StmtId]> = vec![stmts];
        subtree(src, stmts, &mut |x| {
            blocks.extend(
                radtap_il::directives::child_blocks(&src.stmts[x].kind)
                    .into_iter()
                    .map(|b| b.as_slice()),
            );
        });
        subtree(src, stmts, &mut |x| {
            for d in &src.stmts[x].directives {
                if d.kind.is_loop() {
                    let msg = format!("`$AD {}` in code with jumps (GOTO, EXIT, CYCLE, an early RETURN) reversed through its flow graph: the directive is ignored, the loop is taped whole", d.kind.word());
                    self.pg.warn(x, Code::Directive, &msg);
                }
            }
        });
        for b in blocks {
            for r in block_regions(&src.stmts, b).0 {
                let word = r.kind.words().0;
                let msg = format!("`$AD {word}` in code with jumps (GOTO, EXIT, CYCLE, an early RETURN) reversed through its flow graph: the directive is ignored, the region is differentiated like the rest");
                self.pg.warn(b[r.start], Code::Directive, &msg);
            }
        }
    }
}

impl<'a> Blocks<'a> for Adj<'_, '_, 'a> {
    /// Both sweeps of a block: its statements' in order, their backward sweeps in reverse,
    /// with the directive regions of the block checkpointed (or left undifferentiated).
    fn rev_block(&mut self, b: &'a [StmtId]) -> Rev {
        if let Some((first, reds, own)) = self.omp_body.clone() {
            if b.first() == Some(&first) {
                self.omp_body = None;
                return self.adj_omp_iteration(b, &reds, &own);
            }
        }
        if let Some((first, var)) = self.ii_body {
            if b.first() == Some(&first) {
                self.ii_body = None;
                return self.adj_iteration(b, var);
            }
        }
        let (regions, _) = block_regions(&self.pg.f.src.stmts, b);
        self.rev_range(b, 0, b.len(), &regions, None)
    }

    /// Both sweeps of `b[lo..hi]`, whose regions not yet entered are those whose parent is
    /// `outer`.
    fn rev_range(
        &mut self,
        b: &'a [StmtId],
        lo: usize,
        hi: usize,
        regions: &[Region],
        outer: Option<usize>,
    ) -> Rev {
        let mut fwd = Vec::new();
        let mut parts = Vec::new();
        let plan = self.recompute_plan(b, lo, hi, regions);
        let mut k = lo;
        while k < hi {
            let found = regions
                .iter()
                .position(|r| r.parent == outer && r.start == k && r.end <= hi);
            let r = match found {
                Some(ri) => {
                    let end = regions[ri].end;
                    let r = self.adj_region(b, ri, regions);
                    k = end;
                    r
                }
                // A jump may leave `b[k]` (a loop reversed with its jumps, `structjumps.rs`):
                // the rest of the block runs backwards only when it was not taken.
                None if self.jump_loops > 0 && self.escapes(&b[k..k + 1], false) => {
                    let j = self.rev_stmt(b[k]);
                    let direct = matches!(
                        self.pg.f.src.stmts[b[k]].kind,
                        StmtKind::Exit(_)
                            | StmtKind::Cycle(_)
                            | StmtKind::Break
                            | StmtKind::CContinue
                            | StmtKind::Goto(_)
                    );
                    let rest = if direct {
                        Rev::default()
                    } else {
                        self.rev_range(b, k + 1, hi, regions, outer)
                    };
                    k = hi;
                    self.guard_rest(j, rest)
                }
                None => {
                    let r = self.rev_stmt(b[k]);
                    k += 1;
                    r
                }
            };
            fwd.extend(r.fwd);
            parts.push(r.bwd);
        }
        // Calls run again just before the adjoint of their last reader (`recompute.rs`).
        for x in plan {
            let again = self.pg.copy_stmt(b[x.call]);
            parts[x.before - lo].insert(0, again);
        }
        let bwd = parts.into_iter().rev().flatten().collect();
        Rev { fwd, bwd }
    }
}
