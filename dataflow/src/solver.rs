//! The one fixpoint engine: every analysis is an [`Analysis`] solved by [`solve`].
//!
//! States live at block boundaries; the state at each point is recomputed on demand by
//! re-applying the block's transfer functions ([`Results::for_each_point`]), as rustc's
//! dataflow framework does. The worklist is seeded in reverse postorder (forward problems) or
//! its reverse (backward problems) and re-queues a block only when its input changed.

use crate::zoneset::{Relation, ZoneSet};
use radtap_flowgraph::{BlockId, FlowGraph, Point};
use std::collections::VecDeque;

/// A lattice with a join; `join` returns whether `self` grew.
pub trait JoinSemiLattice: Clone + Eq {
    /// `self := self ⊔ other`.
    fn join(&mut self, other: &Self) -> bool;
}

impl JoinSemiLattice for ZoneSet {
    fn join(&mut self, other: &Self) -> bool {
        self.union_with(other)
    }
}

impl JoinSemiLattice for Relation {
    fn join(&mut self, other: &Self) -> bool {
        let mut changed = false;
        for (a, b) in self.rows.iter_mut().zip(&other.rows) {
            changed |= a.union_with(b);
        }
        changed
    }
}

/// Which way facts flow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// From the entry towards the exit.
    Forward,
    /// From the exit towards the entry.
    Backward,
}

/// Where a point is, for transfer functions that keep per-point tables.
#[derive(Clone, Copy, Debug)]
pub struct At {
    /// The point.
    pub point: Point,
    /// Its dense number in the procedure ([`crate::ProcInfo::point_ids`]).
    pub id: usize,
}

/// One data-flow problem.
pub trait Analysis {
    /// The lattice of facts.
    type Domain: JoinSemiLattice;
    /// Name for dumps.
    const NAME: &'static str;
    /// Direction.
    const DIRECTION: Direction;
    /// The least element (no information).
    fn bottom(&self) -> Self::Domain;
    /// The state at the entry (forward) or exit (backward) of the procedure.
    fn boundary(&self, st: &mut Self::Domain);
    /// The transfer function of one point, in the analysis direction.
    fn apply(&self, at: At, st: &mut Self::Domain);
}

/// Fixpoint states at block boundaries.
pub struct Results<D> {
    /// For each block, the state where the analysis enters it: before its first point
    /// (forward) or after its last point (backward).
    pub enter: Vec<D>,
    /// Dense point number of each block's first point.
    pub first_id: Vec<usize>,
    /// Number of block visits the solver made (for benchmarks and tests).
    pub visits: usize,
}

/// Dense numbering of the points of a flow graph, in block order.
pub fn first_point_ids(g: &FlowGraph) -> Vec<usize> {
    let mut ids = Vec::with_capacity(g.blocks.len());
    let mut n = 0;
    for b in &g.blocks {
        ids.push(n);
        n += b.points.len();
    }
    ids
}

/// Runs `a` to its fixpoint on `g`.
pub fn solve<A: Analysis>(a: &A, g: &FlowGraph) -> Results<A::Domain> {
    let n = g.blocks.len();
    let first_id = first_point_ids(g);
    let mut enter = vec![a.bottom(); n];
    let order: Vec<BlockId> = match A::DIRECTION {
        Direction::Forward => g.rpo.clone(),
        Direction::Backward => g.rpo.iter().rev().copied().collect(),
    };
    let start = match A::DIRECTION {
        Direction::Forward => g.entry(),
        Direction::Backward => g.exit(),
    };
    a.boundary(&mut enter[start.index()]);
    let mut queued = vec![false; n];
    let mut work: VecDeque<BlockId> = VecDeque::with_capacity(n);
    for &b in &order {
        queued[b.index()] = true;
        work.push_back(b);
    }
    // Blocks not reachable from the entry are never visited by a forward analysis; a
    // backward analysis visits them only if they reach a visited block (they do not matter).
    let mut visits = 0;
    while let Some(b) = work.pop_front() {
        queued[b.index()] = false;
        visits += 1;
        let mut st = enter[b.index()].clone();
        transfer_block(a, g, b, first_id[b.index()], &mut st);
        let next: &[BlockId] = match A::DIRECTION {
            Direction::Forward => &g.block(b).succs,
            Direction::Backward => &g.block(b).preds,
        };
        for &s in next {
            if enter[s.index()].join(&st) && !queued[s.index()] {
                queued[s.index()] = true;
                work.push_back(s);
            }
        }
    }
    Results {
        enter,
        first_id,
        visits,
    }
}

fn transfer_block<A: Analysis>(a: &A, g: &FlowGraph, b: BlockId, first: usize, st: &mut A::Domain) {
    let pts = &g.block(b).points;
    match A::DIRECTION {
        Direction::Forward => {
            for (i, &p) in pts.iter().enumerate() {
                a.apply(
                    At {
                        point: p,
                        id: first + i,
                    },
                    st,
                );
            }
        }
        Direction::Backward => {
            for (i, &p) in pts.iter().enumerate().rev() {
                a.apply(
                    At {
                        point: p,
                        id: first + i,
                    },
                    st,
                );
            }
        }
    }
}

impl<D: JoinSemiLattice> Results<D> {
    /// Calls `f(at, before, after)` for every point of every reachable block, where `before`
    /// and `after` are in program order (not analysis order).
    pub fn for_each_point<A: Analysis<Domain = D>>(
        &self,
        a: &A,
        g: &FlowGraph,
        f: &mut dyn FnMut(At, &D, &D),
    ) {
        for &b in &g.rpo {
            let mut st = self.enter[b.index()].clone();
            let pts = &g.block(b).points;
            let first = self.first_id[b.index()];
            match A::DIRECTION {
                Direction::Forward => {
                    for (i, &p) in pts.iter().enumerate() {
                        let at = At {
                            point: p,
                            id: first + i,
                        };
                        let before = st.clone();
                        a.apply(at, &mut st);
                        f(at, &before, &st);
                    }
                }
                Direction::Backward => {
                    for (i, &p) in pts.iter().enumerate().rev() {
                        let at = At {
                            point: p,
                            id: first + i,
                        };
                        let after = st.clone();
                        a.apply(at, &mut st);
                        f(at, &st, &after);
                    }
                }
            }
        }
    }

    /// The state at the exit of the procedure (forward) or at its entry (backward), i.e.
    /// where the analysis leaves it.
    pub fn at_end<A: Analysis<Domain = D>>(&self, a: &A, g: &FlowGraph) -> D {
        match A::DIRECTION {
            Direction::Forward => self.enter[g.exit().index()].clone(),
            Direction::Backward => {
                let b = g.entry();
                let mut st = self.enter[b.index()].clone();
                transfer_block(a, g, b, self.first_id[b.index()], &mut st);
                st
            }
        }
    }
}

#[cfg(test)]
mod tests {
    //! The solver on a mock analysis: reaching "definitions" where each point defines the
    //! zone numbered by its statement index, checked on a loop and on a GOTO-built loop.
    use super::*;
    use crate::zoneset::ZoneId;
    use radtap_frontends::{parse_program, Input};

    struct Reach;
    impl Analysis for Reach {
        type Domain = ZoneSet;
        const NAME: &'static str = "reach";
        const DIRECTION: Direction = Direction::Forward;
        fn bottom(&self) -> ZoneSet {
            ZoneSet::new(64)
        }
        fn boundary(&self, _: &mut ZoneSet) {}
        fn apply(&self, at: At, st: &mut ZoneSet) {
            st.insert(ZoneId(at.point.stmt.index() as u32));
        }
    }

    /// Backward mock: "a point sees every later point".
    struct Later;
    impl Analysis for Later {
        type Domain = ZoneSet;
        const NAME: &'static str = "later";
        const DIRECTION: Direction = Direction::Backward;
        fn bottom(&self) -> ZoneSet {
            ZoneSet::new(64)
        }
        fn boundary(&self, st: &mut ZoneSet) {
            st.insert(ZoneId(63));
        }
        fn apply(&self, at: At, st: &mut ZoneSet) {
            st.insert(ZoneId(at.point.stmt.index() as u32));
        }
    }

    fn graph(src: &str, path: &str) -> (radtap_il::Program, FlowGraph) {
        let (p, d) = parse_program(&[Input {
            path: path.into(),
            text: src.into(),
        }]);
        assert!(d.is_empty(), "{d:?}");
        let unit = p
            .units
            .iter()
            .find(|(_, u)| u.kind == radtap_il::UnitKind::Subroutine)
            .map(|(id, _)| id)
            .expect("a subroutine");
        let g = FlowGraph::build(&p, unit);
        (p, g)
    }

    #[test]
    fn loop_reaches_its_own_head_and_exit_sees_everything() {
        let (p, g) = graph(
            "subroutine s(x, n)\n  integer n, i\n  real x\n  x = 0\n  do i = 1, n\n    x = x + 1\n  end do\n  x = 2*x\nend\n",
            "s.f90",
        );
        let r = solve(&Reach, &g);
        let end = r.at_end(&Reach, &g);
        let u = &p.units[g.unit];
        // Every statement reaches the exit.
        for (s, _) in u.stmts.iter() {
            assert!(end.contains(ZoneId(s.index() as u32)), "{s:?}");
        }
        // The loop body's assignment reaches the loop head (back edge), so the head's state
        // contains it: check through the per-point walk.
        let body_assign = u.body[1];
        let inner = match &u.stmts[body_assign].kind {
            radtap_il::StmtKind::Do { body, .. } => body[0],
            k => panic!("{k:?}"),
        };
        let mut seen = false;
        r.for_each_point(&Reach, &g, &mut |at, before, _| {
            if at.point.stmt == body_assign && at.point.part == radtap_flowgraph::Part::LoopHead {
                seen = before.contains(ZoneId(inner.index() as u32));
            }
        });
        assert!(seen, "the back edge carries the body's fact to the head");
        // Backward: the first statement sees the boundary fact and every statement.
        let rb = solve(&Later, &g);
        let start = rb.at_end(&Later, &g);
        assert!(start.contains(ZoneId(63)));
        assert_eq!(start.count(), u.stmts.len() + 1);
    }

    #[test]
    fn goto_loop_and_unreachable_code() {
        let (p, g) = graph(
            "      subroutine s(x)\n      real x\n      integer k\n      k = 0\n   10 k = k + 1\n      x = x*2\n      if (k .lt. 5) goto 10\n      return\n      x = 3\n      end\n",
            "s.f",
        );
        let r = solve(&Reach, &g);
        let u = &p.units[g.unit];
        let dead = u.body[5]; // `x = 3` after RETURN
        let end = r.at_end(&Reach, &g);
        assert!(
            !end.contains(ZoneId(dead.index() as u32)),
            "unreachable code reaches nothing"
        );
        // The GOTO's back edge makes `x = x*2` reach the labelled statement.
        let label_stmt = u.body[1];
        let mut reached = false;
        r.for_each_point(&Reach, &g, &mut |at, before, _| {
            if at.point.stmt == label_stmt {
                reached = before.contains(ZoneId(u.body[2].index() as u32));
            }
        });
        assert!(reached);
        assert!(r.visits < 4 * g.blocks.len(), "worklist converges quickly");
    }
}
