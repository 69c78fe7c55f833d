//! Building the flow graph of one procedure from its structured statement tree.

use petgraph::algo::dominators::simple_fast;
use petgraph::graph::{DiGraph, NodeIndex};
use radtap_il::{Program, StmtId, StmtKind, UnitData, UnitId};
use std::collections::HashMap;

/// A basic block, numbered in creation order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct BlockId(pub u32);

impl BlockId {
    /// Position in [`FlowGraph::blocks`].
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Which piece of a statement a point stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Part {
    /// A simple statement (assignment, call, I/O, jump, C declaration with initialisers).
    Whole,
    /// The i-th condition of IF/ELSE IF or WHERE/ELSEWHERE; the test of a DO WHILE, C `while`,
    /// `do`-`while` or `for`; the selector of SELECT CASE or `switch`.
    Cond(u32),
    /// Counted DO: evaluate the bounds and set the loop variable. ASSOCIATE: bind the names.
    LoopInit,
    /// Counted DO or FORALL: the trip test at the top of each iteration.
    LoopHead,
    /// Counted DO: increment the loop variable; C `for`: the step expression.
    LoopStep,
}

/// A point of the flow graph: a statement or one piece of a structured statement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point {
    /// The statement.
    pub stmt: StmtId,
    /// Which piece.
    pub part: Part,
}

/// One basic block.
#[derive(Clone, Debug, Default)]
pub struct BlockData {
    /// Points in execution order.
    pub points: Vec<Point>,
    /// Successor blocks (no duplicates).
    pub succs: Vec<BlockId>,
    /// Predecessor blocks (no duplicates).
    pub preds: Vec<BlockId>,
}

/// The flow graph of one procedure.
#[derive(Clone, Debug)]
pub struct FlowGraph {
    /// The procedure.
    pub unit: UnitId,
    /// Blocks; `blocks[0]` is the entry, `blocks[1]` the exit.
    pub blocks: Vec<BlockData>,
    /// Blocks reachable from the entry, in reverse postorder (a good order for forward
    /// problems; its reverse suits backward problems).
    pub rpo: Vec<BlockId>,
    /// Where each point is: block and position.
    pub location: HashMap<Point, (BlockId, u32)>,
    /// Statements executed under a WHERE mask: their assignments are partial.
    pub masked: Vec<StmtId>,
    /// For each block, the blocks whose test decides whether it runs (control dependence).
    pub controllers: Vec<Vec<BlockId>>,
}

/// The entry block.
pub(crate) const ENTRY: BlockId = BlockId(0);
/// The exit block.
pub(crate) const EXIT: BlockId = BlockId(1);

impl FlowGraph {
    /// The entry block.
    pub fn entry(&self) -> BlockId {
        ENTRY
    }
    /// The exit block.
    pub fn exit(&self) -> BlockId {
        EXIT
    }
    /// The block data.
    pub fn block(&self, b: BlockId) -> &BlockData {
        &self.blocks[b.index()]
    }
    /// The point that decides between the successors of `b`, if `b` branches.
    pub fn test_of(&self, b: BlockId) -> Option<Point> {
        let bd = self.block(b);
        if bd.succs.len() > 1 {
            bd.points.last().copied()
        } else {
            None
        }
    }
    /// Whether `s` is executed under a WHERE mask.
    pub fn is_masked(&self, s: StmtId) -> bool {
        self.masked.contains(&s)
    }

    /// Builds the flow graph of procedure `unit`.
    pub fn build(prog: &Program, unit: UnitId) -> FlowGraph {
        let u = &prog.units[unit];
        let mut b = Builder {
            u,
            blocks: vec![BlockData::default(), BlockData::default()],
            cur: ENTRY,
            loops: Vec::new(),
            labels: HashMap::new(),
            location: HashMap::new(),
            masked: Vec::new(),
            mask_depth: 0,
            entries: Vec::new(),
        };
        // Every labelled statement gets its own block up front, so forward jumps can target it.
        collect_labels(u, &u.body, &mut |s, l| {
            for name in split_labels(l) {
                let nb = b.new_block();
                b.labels.entry(name).or_insert((nb, s));
            }
        });
        let first = b.new_block();
        b.edge(ENTRY, first);
        b.cur = first;
        b.lower_block(&u.body);
        let last = b.cur;
        b.edge(last, EXIT);
        for e in std::mem::take(&mut b.entries) {
            b.edge(ENTRY, e);
        }
        let mut g = FlowGraph {
            unit,
            blocks: b.blocks,
            rpo: Vec::new(),
            location: b.location,
            masked: b.masked,
            controllers: Vec::new(),
        };
        g.rpo = reverse_postorder(&g);
        g.controllers = control_dependence(&g);
        g
    }
}

/// Labels of a statement: Fortran has one; a C statement may carry several (`a: b: x = 1;`).
fn split_labels(l: &str) -> Vec<String> {
    l.split([':', ' ', ','])
        .filter(|s| !s.is_empty())
        .map(|s| s.to_ascii_lowercase())
        .collect()
}

fn collect_labels(u: &UnitData, block: &[StmtId], f: &mut dyn FnMut(StmtId, &str)) {
    for &s in block {
        if let Some(l) = &u.stmts[s].label {
            f(s, l);
        }
        let mut nested = Vec::new();
        radtap_il::visit::stmt_children(&u.stmts[s].kind, &mut |_| {}, &mut |c| nested.push(c));
        collect_labels(u, &nested, f);
    }
}

struct LoopCtx {
    name: Option<String>,
    brk: BlockId,
    cont: Option<BlockId>,
    kind: CtxKind,
}

/// What a break/EXIT target is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum CtxKind {
    Loop,
    Switch,
    Construct,
}

struct Builder<'a> {
    u: &'a UnitData,
    blocks: Vec<BlockData>,
    cur: BlockId,
    loops: Vec<LoopCtx>,
    labels: HashMap<String, (BlockId, StmtId)>,
    location: HashMap<Point, (BlockId, u32)>,
    masked: Vec<StmtId>,
    mask_depth: u32,
    entries: Vec<BlockId>,
}

impl Builder<'_> {
    fn new_block(&mut self) -> BlockId {
        self.blocks.push(BlockData::default());
        BlockId(self.blocks.len() as u32 - 1)
    }

    fn edge(&mut self, from: BlockId, to: BlockId) {
        if !self.blocks[from.index()].succs.contains(&to) {
            self.blocks[from.index()].succs.push(to);
            self.blocks[to.index()].preds.push(from);
        }
    }

    fn point(&mut self, stmt: StmtId, part: Part) {
        let p = Point { stmt, part };
        let bd = &mut self.blocks[self.cur.index()];
        self.location.insert(p, (self.cur, bd.points.len() as u32));
        bd.points.push(p);
    }

    /// Ends the current block with a jump to `to`; what follows is unreachable until a label.
    fn jump(&mut self, to: BlockId) {
        self.edge(self.cur, to);
        self.cur = self.new_block();
    }

    /// Starts a new block that the current one falls into.
    fn fall_into(&mut self, next: BlockId) {
        self.edge(self.cur, next);
        self.cur = next;
    }

    fn label_block(&self, l: &str) -> Option<BlockId> {
        self.labels.get(&l.to_ascii_lowercase()).map(|x| x.0)
    }

    fn lower_block(&mut self, stmts: &[StmtId]) {
        for &s in stmts {
            self.lower_stmt(s);
        }
    }

    /// The construct named `name`, or the innermost loop.
    fn find_loop(&self, name: Option<&str>) -> Option<&LoopCtx> {
        self.loops.iter().rev().find(|l| match name {
            Some(n) => l.name.as_deref().is_some_and(|m| m.eq_ignore_ascii_case(n)),
            None => l.kind == CtxKind::Loop,
        })
    }

    fn lower_stmt(&mut self, s: StmtId) {
        let stmt = &self.u.stmts[s];
        if let Some(l) = &stmt.label {
            for name in split_labels(l) {
                if let Some((lb, owner)) = self.labels.get(&name).copied() {
                    if owner == s && lb != self.cur {
                        self.fall_into(lb);
                    }
                }
            }
        }
        if self.mask_depth > 0 {
            self.masked.push(s);
        }
        let name = stmt.construct_name.clone();
        match &stmt.kind {
            StmtKind::Comment(_) | StmtKind::Format(_) | StmtKind::CaseLabel(_) => {}
            StmtKind::Assign { .. }
            | StmtKind::PointerAssign { .. }
            | StmtKind::Call { .. }
            | StmtKind::Expr(_)
            | StmtKind::Decl(_)
            | StmtKind::Memory { .. }
            | StmtKind::Io { .. }
            | StmtKind::Continue
            | StmtKind::Empty => self.point(s, Part::Whole),
            StmtKind::Entry { .. } => {
                // An alternate entry: control may start here.
                let nb = self.new_block();
                self.fall_into(nb);
                self.entries.push(nb);
                self.point(s, Part::Whole);
            }
            StmtKind::If {
                arms, else_block, ..
            }
            | StmtKind::Where {
                arms, else_block, ..
            } => {
                let is_where = matches!(stmt.kind, StmtKind::Where { .. });
                let join = self.new_block();
                if is_where {
                    // Every arm runs, each on the elements its mask selects: a sequence of
                    // partial assignments.
                    self.mask_depth += 1;
                    for (i, (_, body)) in arms.iter().enumerate() {
                        self.point(s, Part::Cond(i as u32));
                        self.lower_block(body);
                    }
                    if let Some(eb) = else_block {
                        self.lower_block(eb);
                    }
                    self.mask_depth -= 1;
                    self.fall_into(join);
                    return;
                }
                self.loops.push(LoopCtx {
                    name: name.clone(),
                    brk: join,
                    cont: None,
                    kind: CtxKind::Construct,
                });
                for (i, (_, body)) in arms.iter().enumerate() {
                    self.point(s, Part::Cond(i as u32));
                    let test = self.cur;
                    let then = self.new_block();
                    self.edge(test, then);
                    self.cur = then;
                    self.lower_block(body);
                    self.jump(join);
                    let next = self.new_block();
                    self.edge(test, next);
                    self.cur = next;
                }
                if let Some(eb) = else_block {
                    self.lower_block(eb);
                }
                self.loops.pop();
                self.fall_into(join);
            }
            StmtKind::Do { body, .. } => {
                self.point(s, Part::LoopInit);
                let head = self.new_block();
                self.fall_into(head);
                self.point(s, Part::LoopHead);
                let latch = self.new_block();
                let exit = self.new_block();
                self.edge(head, exit);
                let first = self.new_block();
                self.fall_into(first);
                self.loops.push(LoopCtx {
                    name,
                    brk: exit,
                    cont: Some(latch),
                    kind: CtxKind::Loop,
                });
                self.lower_block(body);
                self.loops.pop();
                self.fall_into(latch);
                self.point(s, Part::LoopStep);
                self.edge(latch, head);
                self.cur = exit;
            }
            StmtKind::Forall { body, .. } => {
                let head = self.new_block();
                self.fall_into(head);
                self.point(s, Part::LoopHead);
                let exit = self.new_block();
                self.edge(head, exit);
                let first = self.new_block();
                self.fall_into(first);
                self.lower_block(body);
                self.edge(self.cur, head);
                self.cur = exit;
            }
            StmtKind::While { body, .. } => {
                let head = self.new_block();
                self.fall_into(head);
                self.point(s, Part::Cond(0));
                let exit = self.new_block();
                self.edge(head, exit);
                let first = self.new_block();
                self.fall_into(first);
                self.loops.push(LoopCtx {
                    name,
                    brk: exit,
                    cont: Some(head),
                    kind: CtxKind::Loop,
                });
                self.lower_block(body);
                self.loops.pop();
                self.edge(self.cur, head);
                self.cur = exit;
            }
            StmtKind::Loop { body } => {
                let head = self.new_block();
                self.fall_into(head);
                let exit = self.new_block();
                self.loops.push(LoopCtx {
                    name,
                    brk: exit,
                    cont: Some(head),
                    kind: CtxKind::Loop,
                });
                self.lower_block(body);
                self.loops.pop();
                self.edge(self.cur, head);
                self.cur = exit;
            }
            StmtKind::CFor {
                init,
                cond,
                step,
                body,
                ..
            } => {
                if let Some(i) = init {
                    self.lower_stmt(*i);
                }
                let head = self.new_block();
                self.fall_into(head);
                let exit = self.new_block();
                if cond.is_some() {
                    self.point(s, Part::Cond(0));
                    self.edge(head, exit);
                }
                let first = self.new_block();
                self.fall_into(first);
                let latch = self.new_block();
                self.loops.push(LoopCtx {
                    name,
                    brk: exit,
                    cont: Some(latch),
                    kind: CtxKind::Loop,
                });
                self.lower_block(body);
                self.loops.pop();
                self.fall_into(latch);
                if step.is_some() {
                    self.point(s, Part::LoopStep);
                }
                self.edge(latch, head);
                self.cur = exit;
            }
            StmtKind::DoWhile { body, .. } => {
                let first = self.new_block();
                self.fall_into(first);
                let test = self.new_block();
                let exit = self.new_block();
                self.loops.push(LoopCtx {
                    name,
                    brk: exit,
                    cont: Some(test),
                    kind: CtxKind::Loop,
                });
                self.lower_block(body);
                self.loops.pop();
                self.fall_into(test);
                self.point(s, Part::Cond(0));
                self.edge(test, first);
                self.fall_into(exit);
            }
            StmtKind::Select { cases, .. } => {
                self.point(s, Part::Cond(0));
                let test = self.cur;
                let join = self.new_block();
                self.loops.push(LoopCtx {
                    name,
                    brk: join,
                    cont: None,
                    kind: CtxKind::Construct,
                });
                let has_default = cases.iter().any(|c| c.values.is_empty());
                for c in cases {
                    let cb = self.new_block();
                    self.edge(test, cb);
                    self.cur = cb;
                    self.lower_block(&c.body);
                    self.jump(join);
                }
                self.loops.pop();
                if !has_default {
                    self.edge(test, join);
                }
                self.cur = join;
            }
            StmtKind::Switch { body, .. } => {
                self.point(s, Part::Cond(0));
                let test = self.cur;
                let exit = self.new_block();
                self.cur = self.new_block();
                self.loops.push(LoopCtx {
                    name,
                    brk: exit,
                    cont: None,
                    kind: CtxKind::Switch,
                });
                let mut has_default = false;
                for &c in body {
                    if let StmtKind::CaseLabel(v) = &self.u.stmts[c].kind {
                        has_default |= v.is_none();
                        let cb = self.new_block();
                        self.fall_into(cb);
                        self.edge(test, cb);
                    }
                    self.lower_stmt(c);
                }
                self.loops.pop();
                if !has_default {
                    self.edge(test, exit);
                }
                self.fall_into(exit);
            }
            StmtKind::Block {
                body, associations, ..
            } => {
                if !associations.is_empty() {
                    self.point(s, Part::LoopInit);
                }
                self.loops.push(LoopCtx {
                    name,
                    brk: BlockId(u32::MAX),
                    cont: None,
                    kind: CtxKind::Construct,
                });
                let exit = self.new_block();
                self.loops.last_mut().expect("pushed").brk = exit;
                self.lower_block(body);
                self.loops.pop();
                self.fall_into(exit);
            }
            StmtKind::Exit(n) => {
                self.point(s, Part::Whole);
                let target = self.find_loop(n.as_deref()).map(|l| l.brk);
                match target {
                    Some(t) => self.jump(t),
                    None => self.jump(EXIT),
                }
            }
            StmtKind::Cycle(n) => {
                self.point(s, Part::Whole);
                let target = self.find_loop(n.as_deref()).and_then(|l| l.cont);
                self.jump(target.unwrap_or(EXIT));
            }
            StmtKind::Break => {
                self.point(s, Part::Whole);
                let target = self
                    .loops
                    .iter()
                    .rev()
                    .find(|l| l.kind != CtxKind::Construct)
                    .map(|l| l.brk);
                self.jump(target.unwrap_or(EXIT));
            }
            StmtKind::CContinue => {
                self.point(s, Part::Whole);
                let target = self.find_loop(None).and_then(|l| l.cont);
                self.jump(target.unwrap_or(EXIT));
            }
            StmtKind::Goto(l) => {
                self.point(s, Part::Whole);
                let t = self.label_block(l).unwrap_or(EXIT);
                self.jump(t);
            }
            StmtKind::ComputedGoto { labels, .. } => {
                self.point(s, Part::Whole);
                let here = self.cur;
                for l in labels {
                    if let Some(t) = self.label_block(l) {
                        self.edge(here, t);
                    }
                }
                let next = self.new_block();
                self.fall_into(next);
            }
            StmtKind::ArithIf { labels, .. } => {
                self.point(s, Part::Whole);
                let here = self.cur;
                for l in labels {
                    let t = self.label_block(l).unwrap_or(EXIT);
                    self.edge(here, t);
                }
                self.cur = self.new_block();
            }
            StmtKind::Return(_) | StmtKind::Stop { .. } => {
                self.point(s, Part::Whole);
                self.jump(EXIT);
            }
        }
    }
}

fn reverse_postorder(g: &FlowGraph) -> Vec<BlockId> {
    let n = g.blocks.len();
    let mut seen = vec![false; n];
    let mut post = Vec::with_capacity(n);
    // Iterative DFS: (block, next successor index).
    let mut stack = vec![(ENTRY, 0usize)];
    seen[ENTRY.index()] = true;
    while let Some((b, i)) = stack.last_mut() {
        let succs = &g.blocks[b.index()].succs;
        if *i < succs.len() {
            let s = succs[*i];
            *i += 1;
            if !seen[s.index()] {
                seen[s.index()] = true;
                stack.push((s, 0));
            }
        } else {
            post.push(*b);
            stack.pop();
        }
    }
    post.reverse();
    post
}

/// Control dependence from the post-dominator tree: block `x` depends on the test of `a`
/// when some successor of `a` reaches `x` on the post-dominator path that stops before
/// `a`'s immediate post-dominator.
fn control_dependence(g: &FlowGraph) -> Vec<Vec<BlockId>> {
    let n = g.blocks.len();
    let mut rev: DiGraph<(), ()> = DiGraph::with_capacity(n, n * 2);
    for _ in 0..n {
        rev.add_node(());
    }
    for (i, b) in g.blocks.iter().enumerate() {
        for s in &b.succs {
            rev.add_edge(NodeIndex::new(s.index()), NodeIndex::new(i), ());
        }
    }
    // Blocks that cannot reach the exit (endless loops) get a virtual edge so that they have a
    // post-dominator; without it they would depend on nothing.
    let reaches = {
        let mut r = vec![false; n];
        let mut stack = vec![EXIT];
        r[EXIT.index()] = true;
        while let Some(b) = stack.pop() {
            for p in &g.blocks[b.index()].preds {
                if !r[p.index()] {
                    r[p.index()] = true;
                    stack.push(*p);
                }
            }
        }
        r
    };
    for (i, reached) in reaches.iter().enumerate() {
        if !reached {
            rev.add_edge(NodeIndex::new(EXIT.index()), NodeIndex::new(i), ());
        }
    }
    let pdom = simple_fast(&rev, NodeIndex::new(EXIT.index()));
    let ipdom = |b: BlockId| pdom.immediate_dominator(NodeIndex::new(b.index()));
    let mut ctl: Vec<Vec<BlockId>> = vec![Vec::new(); n];
    for (i, bd) in g.blocks.iter().enumerate() {
        if bd.succs.len() < 2 || i == ENTRY.index() {
            continue;
        }
        let a = BlockId(i as u32);
        let stop = ipdom(a);
        for &s in &bd.succs {
            let mut runner = Some(NodeIndex::new(s.index()));
            while let Some(r) = runner {
                if Some(r) == stop {
                    break;
                }
                let rb = &mut ctl[r.index()];
                if !rb.contains(&a) {
                    rb.push(a);
                }
                if r.index() == a.index() {
                    break; // a loop header controls itself; stop climbing
                }
                runner = pdom.immediate_dominator(r);
            }
        }
    }
    ctl
}
