//! The state of a lowering: basic blocks of items with their terminators, the loops and
//! `switch`es being left, the labels seen; and which statements are jumps.

use crate::*;
use std::collections::{BTreeMap, BTreeSet};

pub(super) type Bid = usize;
pub(super) const ENTRY: Bid = 0;
pub(super) const EXIT: Bid = 1;

/// One piece of a block, reversed as a unit.
pub(super) enum Item {
    /// A statement of the source: simple, or structured without jumps inside.
    Src(StmtId),
    /// Counted DO entry: `[ad_to = end;] var = start`, the variable's old value recorded
    /// when the code before the loop needs it.
    DoInit {
        s: StmtId,
        var: ExprId,
        start: ExprId,
        end: Option<(SymbolId, ExprId)>,
    },
    /// `var = var + step`, undone backwards.
    Step { var: Target, step: i64 },
    /// A C `for` step that is not a plain increment.
    CStep { s: StmtId, e: ExprId },
    /// Leaving a counted loop: its variable is recorded.
    Save(Target),
}

/// How a block ends.
pub(super) enum Term {
    Goto(Bid),
    /// The first arm whose condition holds, else `default`.
    Cond {
        arms: Vec<(ExprId, Bid)>,
        default: Bid,
    },
    /// By the value of `sel` (output expressions).
    Multi {
        sel: ExprId,
        cases: Vec<(Vec<CaseValue>, Bid)>,
        default: Bid,
    },
}

#[derive(Default)]
pub(super) struct LBlock {
    pub(super) items: Vec<Item>,
    pub(super) term: Option<Term>,
}

/// A loop or `switch` being lowered: where `break`/EXIT and `continue`/CYCLE go.
pub(super) struct Ctx {
    pub(super) name: Option<String>,
    pub(super) brk: Bid,
    pub(super) cont: Option<Bid>,
    pub(super) switch: bool,
    /// A counted loop's variable (recorded on every way out of the loop).
    pub(super) var: Option<Target>,
    /// The loop's body (a GOTO to a label outside it leaves the loop).
    pub(super) body: Vec<StmtId>,
}

pub(super) struct Lowering {
    pub(super) blocks: Vec<LBlock>,
    pub(super) cur: Bid,
    pub(super) loops: Vec<Ctx>,
    /// Source label → its block.
    pub(super) labels: BTreeMap<String, Bid>,
    /// Labels some jump targets.
    pub(super) targets: BTreeSet<String>,
    /// The region is the whole body (RETURN jumps to its end).
    pub(super) whole: bool,
}

impl Lowering {
    pub(super) fn new_block(&mut self) -> Bid {
        self.blocks.push(LBlock::default());
        self.blocks.len() - 1
    }
    /// Ends the current block with `t`, unless it has ended already.
    pub(crate) fn end(&mut self, t: Term) {
        let c = self.cur;
        if self.blocks[c].term.is_none() {
            self.blocks[c].term = Some(t);
        }
    }
    /// Falls through into `b`, which becomes the current block.
    pub(super) fn enter(&mut self, b: Bid) {
        self.end(Term::Goto(b));
        self.cur = b;
    }
    /// Jumps to `b`; what follows is unreachable until a label.
    pub(super) fn jump(&mut self, b: Bid) {
        self.end(Term::Goto(b));
        self.cur = self.new_block();
    }
    pub(crate) fn push(&mut self, it: Item) {
        let c = self.cur;
        self.blocks[c].items.push(it);
    }
    pub(super) fn label_block(&mut self, l: &str) -> Bid {
        if let Some(&b) = self.labels.get(l) {
            return b;
        }
        let b = self.new_block();
        self.labels.insert(l.to_string(), b);
        b
    }
    /// The loop (not `switch`) an EXIT/CYCLE/`continue` refers to, and its depth.
    pub(super) fn find_loop(&self, name: Option<&str>) -> Option<(usize, &Ctx)> {
        self.loops
            .iter()
            .enumerate()
            .rev()
            .filter(|(_, c)| !c.switch)
            .find(|(_, c)| name.is_none() || c.name.as_deref() == name)
    }
    /// Where a jump to `t` that leaves the loops `loops[depth..]` goes: counted loops among
    /// them record their variable on the way, as on their normal exit (the backward sweep
    /// undoes their steps from that value, and the TBR analysis counts on it).
    pub(super) fn leaving(&mut self, depth: usize, t: Bid) -> Bid {
        let vars: Vec<Target> = self.loops[depth..]
            .iter()
            .rev()
            .filter_map(|c| c.var)
            .collect();
        if vars.is_empty() {
            return t;
        }
        let b = self.new_block();
        self.blocks[b].items = vars.into_iter().map(Item::Save).collect();
        self.blocks[b].term = Some(Term::Goto(t));
        b
    }
    pub(super) fn succs(&self, b: Bid) -> Vec<Bid> {
        let mut v = Vec::new();
        match &self.blocks[b].term {
            Some(Term::Goto(t)) => v.push(*t),
            Some(Term::Cond { arms, default }) => {
                v.extend(arms.iter().map(|a| a.1));
                v.push(*default);
            }
            Some(Term::Multi { cases, default, .. }) => {
                v.extend(cases.iter().map(|a| a.1));
                v.push(*default);
            }
            None => {}
        }
        let mut out = Vec::new();
        for t in v {
            if !out.contains(&t) {
                out.push(t);
            }
        }
        out
    }
    /// Skips empty blocks that only jump on.
    pub(super) fn resolve(&self, mut t: Bid) -> Bid {
        for _ in 0..self.blocks.len() {
            match &self.blocks[t].term {
                Some(Term::Goto(u)) if self.blocks[t].items.is_empty() && *u != t => t = *u,
                _ => break,
            }
        }
        t
    }
}

/// Whether `k` transfers control other than to the next statement.
/// Whether some GOTO (computed, arithmetic IF) in `stmts` goes to a label at or before it in
/// source order: the only way the lowered code can cycle outside its loop constructs.
pub(super) fn jumps_back(src: &UnitData, stmts: &[StmtId]) -> bool {
    fn walk(src: &UnitData, b: &[StmtId], seen: &mut HashSet<String>) -> bool {
        for &x in b {
            let st = &src.stmts[x];
            if let Some(l) = &st.label {
                seen.insert(l.clone());
            }
            let back = match &st.kind {
                StmtKind::Goto(l) => seen.contains(l),
                StmtKind::ComputedGoto { labels, .. } => labels.iter().any(|l| seen.contains(l)),
                StmtKind::ArithIf { labels, .. } => labels.iter().any(|l| seen.contains(l)),
                _ => false,
            };
            let mut kids = Vec::new();
            radtap_il::visit::stmt_children(&st.kind, &mut |_| {}, &mut |k| kids.push(k));
            if back || walk(src, &kids, seen) {
                return true;
            }
        }
        false
    }
    walk(src, stmts, &mut HashSet::new())
}

pub(super) fn is_jump(k: &StmtKind) -> bool {
    matches!(
        k,
        StmtKind::Exit(_)
            | StmtKind::Cycle(_)
            | StmtKind::Break
            | StmtKind::CContinue
            | StmtKind::Goto(_)
            | StmtKind::ComputedGoto { .. }
            | StmtKind::ArithIf { .. }
            | StmtKind::Return(_)
            | StmtKind::Switch { .. }
            | StmtKind::Loop { .. }
            | StmtKind::CaseLabel(_)
    )
}
