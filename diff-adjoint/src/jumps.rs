//! Reversal of code with jumps (paper §4.5): GOTO, computed GOTO, arithmetic IF,
//! EXIT/CYCLE, C `break`/`continue`/`switch` and RETURN before the end.
//!
//! The code concerned — the whole body when it has GOTOs or an early RETURN, else the
//! outermost loop or `switch` holding the jumps — is lowered to basic blocks with explicit
//! successor edges. Statements inside it that hold no jump keep their structure and their
//! own reversal rules: they are items of a block. The forward sweep runs the blocks with
//! `goto`s and, on every edge into a block with several predecessors, pushes which
//! predecessor it came from. The backward sweep visits the blocks' adjoints in reverse
//! order, each ending with a jump to its predecessor (popped when there are several), as
//! Tapenade does for unstructured flow.
//!
//! Counted loops keep their variable exact in both sweeps: its increment is undone
//! backwards (`i = i - 1`), and its value is recorded when the loop is left, whichever
//! way.

use crate::*;
use std::collections::{BTreeMap, BTreeSet};

type Bid = usize;
const ENTRY: Bid = 0;
const EXIT: Bid = 1;

/// One piece of a block, reversed as a unit.
enum Item {
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
enum Term {
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
struct LBlock {
    items: Vec<Item>,
    term: Option<Term>,
}

/// A loop or `switch` being lowered: where `break`/EXIT and `continue`/CYCLE go.
struct Ctx {
    name: Option<String>,
    brk: Bid,
    cont: Option<Bid>,
    switch: bool,
    /// A counted loop's variable (recorded on every way out of the loop).
    var: Option<Target>,
    /// The loop's body (a GOTO to a label outside it leaves the loop).
    body: Vec<StmtId>,
}

struct Lowering {
    blocks: Vec<LBlock>,
    cur: Bid,
    loops: Vec<Ctx>,
    /// Source label → its block.
    labels: BTreeMap<String, Bid>,
    /// Labels some jump targets.
    targets: BTreeSet<String>,
    /// The region is the whole body (RETURN jumps to its end).
    whole: bool,
}

impl Lowering {
    fn new_block(&mut self) -> Bid {
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
    fn enter(&mut self, b: Bid) {
        self.end(Term::Goto(b));
        self.cur = b;
    }
    /// Jumps to `b`; what follows is unreachable until a label.
    fn jump(&mut self, b: Bid) {
        self.end(Term::Goto(b));
        self.cur = self.new_block();
    }
    pub(crate) fn push(&mut self, it: Item) {
        let c = self.cur;
        self.blocks[c].items.push(it);
    }
    fn label_block(&mut self, l: &str) -> Bid {
        if let Some(&b) = self.labels.get(l) {
            return b;
        }
        let b = self.new_block();
        self.labels.insert(l.to_string(), b);
        b
    }
    /// The loop (not `switch`) an EXIT/CYCLE/`continue` refers to, and its depth.
    fn find_loop(&self, name: Option<&str>) -> Option<(usize, &Ctx)> {
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
    fn leaving(&mut self, depth: usize, t: Bid) -> Bid {
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
    fn succs(&self, b: Bid) -> Vec<Bid> {
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
    fn resolve(&self, mut t: Bid) -> Bid {
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
fn jumps_back(src: &UnitData, stmts: &[StmtId]) -> bool {
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

fn is_jump(k: &StmtKind) -> bool {
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

impl<'a> Adj<'_, '_, 'a> {
    /// The body needs lowering as a whole: it has GOTOs or a RETURN before its end.
    pub(crate) fn body_has_jumps(&self) -> bool {
        let src = self.pg.src;
        let last = src.body.last().copied();
        let mut found = false;
        subtree(src, &src.body, &mut |x| match &src.stmts[x].kind {
            // A GOTO acting as EXIT/CYCLE of a loop reversed structurally stays in the loop.
            StmtKind::Goto(_)
                if self.loop_gotos.get(&x).is_some_and(|g| {
                    self.pg.g.opts.structured_jumps && self.structured_jump_loop(g.outermost)
                }) => {}
            StmtKind::Goto(_) | StmtKind::ComputedGoto { .. } | StmtKind::ArithIf { .. } => {
                found = true
            }
            StmtKind::Return(_) if Some(x) != last => found = true,
            _ => {}
        });
        found
    }

    /// Statement `s` must be lowered: a loop or `switch` with EXIT/CYCLE/`break`/`continue`
    /// inside, a `switch`, or a loop without a condition.
    pub(crate) fn needs_lowering(&self, s: StmtId) -> bool {
        let src = self.pg.src;
        match &src.stmts[s].kind {
            StmtKind::Switch { .. } | StmtKind::Loop { .. } => return true,
            StmtKind::Do { .. }
            | StmtKind::While { .. }
            | StmtKind::DoWhile { .. }
            | StmtKind::CFor { .. } => {}
            _ => return false,
        }
        let mut found = false;
        subtree(src, &[s], &mut |x| {
            if matches!(
                src.stmts[x].kind,
                StmtKind::Exit(_) | StmtKind::Cycle(_) | StmtKind::Break | StmtKind::CContinue
            ) || self.loop_gotos.contains_key(&x)
            {
                found = true;
            }
        });
        found
    }

    /// Whether `s` holds no jump and no jump target below it: it keeps its structure.
    fn opaque(&self, s: StmtId, lw: &Lowering) -> bool {
        let src = self.pg.src;
        let mut ok = true;
        subtree(src, &[s], &mut |x| {
            let st = &src.stmts[x];
            if is_jump(&st.kind)
                || (x != s && st.label.as_ref().is_some_and(|l| lw.targets.contains(l)))
            {
                ok = false;
            }
        });
        ok
    }

    fn new_label(&mut self) -> String {
        let src = self.pg.src;
        loop {
            self.next_label += 1;
            let l = match self.pg.lang {
                Lang::Fortran => format!("{}", 100 + self.next_label),
                Lang::C => format!("ad_label{}", self.next_label),
            };
            let used = src.stmts.iter().any(|(_, st)| {
                st.label.as_ref() == Some(&l)
                    || matches!(&st.kind, StmtKind::Do { term_label: Some(t), .. } | StmtKind::While { term_label: Some(t), .. } if *t == l)
            });
            if !used {
                return l;
            }
        }
    }

    fn label_stmt(&mut self, l: String) -> StmtId {
        let k = match self.pg.lang {
            Lang::Fortran => StmtKind::Continue,
            Lang::C => StmtKind::Empty,
        };
        let s = stmt(&mut self.pg.u, k);
        self.pg.u.stmts[s].label = Some(l);
        s
    }

    /// Both sweeps of `stmts`, lowered to basic blocks.
    pub(crate) fn lower_region(&mut self, stmts: &[StmtId], whole: bool) -> Rev {
        let src = self.pg.src;
        // Structured statements taken apart here never reach `rev_stmt`: their conditions,
        // bounds and steps are checked for hidden calls and side effects now.
        let mut structured = Vec::new();
        subtree(src, stmts, &mut |x| {
            if matches!(
                src.stmts[x].kind,
                StmtKind::If { .. }
                    | StmtKind::While { .. }
                    | StmtKind::DoWhile { .. }
                    | StmtKind::CFor { .. }
                    | StmtKind::Do { .. }
                    | StmtKind::Select { .. }
                    | StmtKind::Switch { .. }
            ) {
                structured.push(x);
            }
        });
        let mut refused = false;
        for x in structured {
            refused |= self.pg.check_expr_effects(x);
        }
        if refused {
            return Rev::default();
        }
        let mut targets = BTreeSet::new();
        // Its statements run more than once only where a jump goes back (loop constructs
        // inside are marked already): an early RETURN alone leaves an ALLOCATE run once.
        let may_loop = jumps_back(src, stmts);
        subtree(src, stmts, &mut |x| {
            if may_loop {
                self.in_loop.insert(x);
            }
            match &src.stmts[x].kind {
                StmtKind::Goto(l) => {
                    targets.insert(l.clone());
                }
                StmtKind::ComputedGoto { labels, .. } => targets.extend(labels.iter().cloned()),
                StmtKind::ArithIf { labels, .. } => targets.extend(labels.iter().cloned()),
                _ => {}
            }
        });
        let mut lw = Lowering {
            blocks: vec![LBlock::default(), LBlock::default()],
            cur: ENTRY,
            loops: Vec::new(),
            labels: BTreeMap::new(),
            targets,
            whole,
        };
        let first = lw.new_block();
        lw.enter(first);
        let errors = self.pg.g.diags.len();
        for &s in stmts {
            self.low_stmt(&mut lw, s);
        }
        lw.end(Term::Goto(EXIT));
        if self.pg.g.diags.len() > errors {
            return Rev::default();
        }
        for (l, &b) in &lw.labels {
            if lw.blocks[b].term.is_none() && b != EXIT {
                let msg =
                    format!("a jump to label {l}, which is outside the code reversed with it,");
                return self.unsupported(stmts[0], &msg);
            }
        }
        // Jump threading, then the blocks reachable from the entry.
        for b in 0..lw.blocks.len() {
            let resolved = match &lw.blocks[b].term {
                Some(Term::Goto(t)) => Some(Term::Goto(lw.resolve(*t))),
                Some(Term::Cond { arms, default }) => Some(Term::Cond {
                    arms: arms.iter().map(|&(c, t)| (c, lw.resolve(t))).collect(),
                    default: lw.resolve(*default),
                }),
                Some(Term::Multi {
                    sel,
                    cases,
                    default,
                }) => Some(Term::Multi {
                    sel: *sel,
                    cases: cases
                        .iter()
                        .map(|(v, t)| (v.clone(), lw.resolve(*t)))
                        .collect(),
                    default: lw.resolve(*default),
                }),
                None => None,
            };
            lw.blocks[b].term = resolved;
        }
        let n = lw.blocks.len();
        let mut seen = vec![false; n];
        let mut stack = vec![ENTRY];
        while let Some(b) = stack.pop() {
            if std::mem::replace(&mut seen[b], true) {
                continue;
            }
            stack.extend(lw.succs(b));
        }
        let mut order: Vec<Bid> = (0..n).filter(|&b| seen[b] && b != EXIT).collect();
        if seen[EXIT] {
            order.push(EXIT);
        }
        let mut preds: Vec<Vec<Bid>> = vec![Vec::new(); n];
        for &b in &order {
            for t in lw.succs(b) {
                if !preds[t].contains(&b) {
                    preds[t].push(b);
                }
            }
        }
        if preds.iter().any(|p| p.len() > 256) {
            return self.unsupported(stmts[0], "a label reached from more than 256 places");
        }
        // The items' sweeps: source statements first, to know whether anything is reversed.
        let mut revs: HashMap<(Bid, usize), Rev> = HashMap::new();
        for &b in &order {
            for (k, it) in lw.blocks[b].items.iter().enumerate() {
                let r = match it {
                    Item::Src(s) => {
                        let r = self.rev_stmt(*s);
                        if let Some(l) = &src.stmts[*s].label {
                            for &f in &r.fwd {
                                if self.pg.u.stmts[f].label.as_ref() == Some(l) {
                                    self.pg.u.stmts[f].label = None;
                                }
                            }
                        }
                        r
                    }
                    Item::CStep { s, e } => self.adj_step(*s, *e),
                    _ => continue,
                };
                revs.insert((b, k), r);
            }
        }
        let any_bwd = revs.values().any(|r| !r.bwd.is_empty());
        for &b in &order {
            for (k, it) in lw.blocks[b].items.iter().enumerate() {
                let r = match it {
                    Item::DoInit { s, var, start, end } => {
                        self.low_do_init(*s, *var, *start, *end, any_bwd)
                    }
                    Item::Step { var, step } => self.low_step(*var, *step, any_bwd),
                    Item::Save(t) if any_bwd => match self.slot_of_target(*t) {
                        Ok(sl) => {
                            let (a, b) = self.push_pop(&sl);
                            Rev {
                                fwd: vec![a],
                                bwd: vec![b],
                            }
                        }
                        Err(m) => {
                            let msg = format!("{m} is not supported in adjoint mode yet");
                            return self.unsupported(stmts[0], &msg);
                        }
                    },
                    _ => continue,
                };
                revs.insert((b, k), r);
            }
        }
        if self.pg.g.diags.len() > errors {
            return Rev::default();
        }

        let mut fwd_labels: HashMap<Bid, String> = HashMap::new();
        let mut fwd = Vec::new();
        let mut fwd_marks = Vec::new();
        for (pos, &b) in order.iter().enumerate() {
            let next = order.get(pos + 1).copied();
            fwd_marks.push((b, fwd.len()));
            for k in 0..lw.blocks[b].items.len() {
                if let Some(r) = revs.get_mut(&(b, k)) {
                    fwd.append(&mut r.fwd);
                }
            }
            let mut edge = |pg: &mut Self, t: Bid, force: bool| -> Vec<StmtId> {
                let mut out = Vec::new();
                let ps = &preds[t];
                if any_bwd && ps.len() > 1 {
                    let k = ps.iter().position(|&p| p == b).unwrap_or(0);
                    out.push(pg.push_control(Self::control_bits(ps.len()), k));
                }
                if force || Some(t) != next {
                    let l = fwd_labels
                        .entry(t)
                        .or_insert_with(|| pg.new_label())
                        .clone();
                    out.push(stmt(&mut pg.pg.u, StmtKind::Goto(l)));
                }
                out
            };
            match lw.blocks[b].term.take() {
                Some(Term::Goto(t)) => fwd.extend(edge(self, t, false)),
                Some(Term::Cond { arms, default }) => {
                    let mut new_arms = Vec::new();
                    for (c, t) in arms {
                        let body = edge(self, t, false);
                        new_arms.push((c, body));
                    }
                    let mut else_b = edge(self, default, false);
                    if new_arms.len() == 1 && new_arms[0].1.is_empty() && !else_b.is_empty() {
                        // `if (c) {} else {…}` reads better as `if (!c) …`.
                        let c = new_arms[0].0;
                        let p = self.pg.b().e(Expr::Paren(c));
                        let not = self.pg.b().e(Expr::Unary {
                            op: UnOp::Not,
                            arg: p,
                        });
                        new_arms = vec![(not, std::mem::take(&mut else_b))];
                    }
                    let logical = self.pg.lang == Lang::Fortran
                        && new_arms.len() == 1
                        && new_arms[0].1.len() == 1
                        && else_b.is_empty();
                    fwd.push(stmt(
                        &mut self.pg.u,
                        StmtKind::If {
                            arms: new_arms,
                            else_block: (!else_b.is_empty()).then_some(else_b),
                            logical,
                            braces: Vec::new(),
                        },
                    ));
                }
                Some(Term::Multi {
                    sel,
                    cases,
                    default,
                }) => match self.pg.lang {
                    Lang::Fortran => {
                        let mut new_cases = Vec::new();
                        for (values, t) in cases {
                            let body = edge(self, t, true);
                            new_cases.push(Case { values, body });
                        }
                        let body = edge(self, default, false);
                        if !body.is_empty() {
                            new_cases.push(Case {
                                values: Vec::new(),
                                body,
                            });
                        }
                        fwd.push(stmt(
                            &mut self.pg.u,
                            StmtKind::Select {
                                selector: sel,
                                cases: new_cases,
                            },
                        ));
                    }
                    Lang::C => {
                        let mut body = Vec::new();
                        for (values, t) in cases {
                            for v in values {
                                if let CaseValue::Value(e) = v {
                                    body.push(stmt(&mut self.pg.u, StmtKind::CaseLabel(Some(e))));
                                }
                            }
                            body.extend(edge(self, t, true));
                        }
                        body.push(stmt(&mut self.pg.u, StmtKind::CaseLabel(None)));
                        body.extend(edge(self, default, true));
                        fwd.push(stmt(&mut self.pg.u, StmtKind::Switch { expr: sel, body }));
                    }
                },
                None => {}
            }
        }
        // Labels where the forward sweep jumps to.
        for &(b, at) in fwd_marks.iter().rev() {
            if let Some(l) = fwd_labels.get(&b) {
                let ls = self.label_stmt(l.clone());
                fwd.insert(at, ls);
            }
        }
        if !any_bwd {
            return Rev {
                fwd,
                bwd: Vec::new(),
            };
        }

        // Backward sweep: blocks in reverse order, each jumping to its predecessor.
        let rorder: Vec<Bid> = order.iter().rev().copied().collect();
        let mut bwd_labels: HashMap<Bid, String> = HashMap::new();
        let mut bwd = Vec::new();
        let mut bwd_marks = Vec::new();
        let done = self.new_label();
        let mut done_used = false;
        for (pos, &b) in rorder.iter().enumerate() {
            let next = rorder.get(pos + 1).copied();
            bwd_marks.push((b, bwd.len()));
            for k in (0..lw.blocks[b].items.len()).rev() {
                if let Some(r) = revs.get_mut(&(b, k)) {
                    bwd.append(&mut r.bwd);
                }
            }
            let mut go = |pg: &mut Self, p: Bid| -> StmtId {
                let l = bwd_labels
                    .entry(p)
                    .or_insert_with(|| pg.new_label())
                    .clone();
                stmt(&mut pg.pg.u, StmtKind::Goto(l))
            };
            let ps = preds[b].clone();
            match ps.len() {
                0 => {
                    if next.is_some() {
                        done_used = true;
                        bwd.push(stmt(&mut self.pg.u, StmtKind::Goto(done.clone())));
                    }
                }
                1 => {
                    if Some(ps[0]) != next {
                        bwd.push(go(self, ps[0]));
                    }
                }
                k => {
                    let bits = Self::control_bits(k);
                    let branch = self.branch_var();
                    bwd.push(self.pop_control(bits, branch));
                    let fallback = ps.iter().position(|&p| Some(p) == next).unwrap_or(k - 1);
                    let mut arms = Vec::new();
                    for (i, &p) in ps.iter().enumerate() {
                        if i != fallback {
                            let c = self.eq_test(branch, i as i64);
                            let g = go(self, p);
                            arms.push((c, vec![g]));
                        }
                    }
                    let else_b = (Some(ps[fallback]) != next).then(|| vec![go(self, ps[fallback])]);
                    let logical =
                        self.pg.lang == Lang::Fortran && arms.len() == 1 && else_b.is_none();
                    bwd.push(stmt(
                        &mut self.pg.u,
                        StmtKind::If {
                            arms,
                            else_block: else_b,
                            logical,
                            braces: Vec::new(),
                        },
                    ));
                }
            }
        }
        for &(b, at) in bwd_marks.iter().rev() {
            if let Some(l) = bwd_labels.get(&b) {
                let ls = self.label_stmt(l.clone());
                bwd.insert(at, ls);
            }
        }
        if done_used {
            let ls = self.label_stmt(done);
            bwd.push(ls);
        }
        Rev { fwd, bwd }
    }

    fn low_block(&mut self, lw: &mut Lowering, b: &[StmtId]) {
        for &s in b {
            self.low_stmt(lw, s);
        }
    }

    fn low_stmt(&mut self, lw: &mut Lowering, s: StmtId) {
        let src = self.pg.src;
        let st = &src.stmts[s];
        if let Some(l) = &st.label {
            if lw.targets.contains(l) {
                let b = lw.label_block(l);
                lw.enter(b);
            }
        }
        if matches!(st.kind, StmtKind::Continue | StmtKind::Empty) {
            return;
        }
        if self.opaque(s, lw) {
            lw.push(Item::Src(s));
            return;
        }
        match &st.kind {
            StmtKind::If {
                arms, else_block, ..
            } => {
                let after = lw.new_block();
                let mut conds = Vec::new();
                let mut bodies = Vec::new();
                for (c, body) in arms {
                    let bb = lw.new_block();
                    conds.push((self.pg.cp(*c), bb));
                    bodies.push((bb, body));
                }
                let mut default = after;
                if let Some(e) = else_block {
                    default = lw.new_block();
                    bodies.push((default, e));
                }
                lw.end(Term::Cond {
                    arms: conds,
                    default,
                });
                for (bb, body) in bodies {
                    lw.cur = bb;
                    self.low_block(lw, body);
                    lw.end(Term::Goto(after));
                }
                lw.cur = after;
            }
            StmtKind::Do {
                var,
                start,
                end,
                step,
                body,
                ..
            } => {
                let step_v = match step {
                    None => Some(1),
                    Some(x) => self
                        .pg
                        .const_value(*x)
                        .filter(|v| v.fract() == 0.0 && *v != 0.0)
                        .map(|v| v as i64),
                };
                let Some(step_v) = step_v else {
                    self.unsupported(s, "a DO loop with jumps inside and a variable step");
                    return;
                };
                let var_zones = self
                    .pg
                    .g
                    .info
                    .ref_zones(self.pg.prog(), self.pg.p, *var)
                    .unwrap_or_else(|| self.pg.pi.zones.empty());
                let end_tmp = (!self.static_bounds(s, Part::LoopInit, &var_zones))
                    .then(|| (self.int_temp("ad_to"), *end));
                lw.push(Item::DoInit {
                    s,
                    var: *var,
                    start: *start,
                    end: end_tmp,
                });
                let head = lw.new_block();
                lw.enter(head);
                let (body_b, step_b, leave, after) = (
                    lw.new_block(),
                    lw.new_block(),
                    lw.new_block(),
                    lw.new_block(),
                );
                let v = self.pg.cp(*var);
                let e = match end_tmp {
                    Some((t, _)) => self.pg.b().name(t),
                    None => self.pg.cp(*end),
                };
                let op = if step_v > 0 {
                    BinOp::Gt(RelSpell::Symbol)
                } else {
                    BinOp::Lt(RelSpell::Symbol)
                };
                let test = self.pg.b().bin(op, v, e);
                lw.end(Term::Cond {
                    arms: vec![(test, leave)],
                    default: body_b,
                });
                lw.cur = body_b;
                lw.loops.push(Ctx {
                    name: st.construct_name.clone(),
                    brk: leave,
                    cont: Some(step_b),
                    switch: false,
                    var: Some(Target::Expr(*var)),
                    body: body.clone(),
                });
                self.low_block(lw, body);
                lw.loops.pop();
                lw.enter(step_b);
                lw.push(Item::Step {
                    var: Target::Expr(*var),
                    step: step_v,
                });
                lw.end(Term::Goto(head));
                lw.cur = leave;
                lw.push(Item::Save(Target::Expr(*var)));
                lw.enter(after);
            }
            StmtKind::While { cond, body, .. } => {
                let head = lw.new_block();
                lw.enter(head);
                let (body_b, after) = (lw.new_block(), lw.new_block());
                let c = self.pg.cp(*cond);
                lw.end(Term::Cond {
                    arms: vec![(c, body_b)],
                    default: after,
                });
                lw.cur = body_b;
                self.low_loop_body(lw, st, body, after, head, None);
                lw.end(Term::Goto(head));
                lw.cur = after;
            }
            StmtKind::DoWhile { body, cond } => {
                let body_b = lw.new_block();
                lw.enter(body_b);
                let (cond_b, after) = (lw.new_block(), lw.new_block());
                self.low_loop_body(lw, st, body, after, cond_b, None);
                lw.enter(cond_b);
                let c = self.pg.cp(*cond);
                lw.end(Term::Cond {
                    arms: vec![(c, body_b)],
                    default: after,
                });
                lw.cur = after;
            }
            StmtKind::Loop { body } => {
                let head = lw.new_block();
                lw.enter(head);
                let after = lw.new_block();
                self.low_loop_body(lw, st, body, after, head, None);
                lw.end(Term::Goto(head));
                lw.cur = after;
            }
            StmtKind::CFor {
                init,
                cond,
                step,
                body,
                ..
            } => {
                let canon = self.canonical_for(*init, *cond, *step, body);
                if let Some(i) = init {
                    self.low_stmt(lw, *i);
                }
                let head = lw.new_block();
                lw.enter(head);
                let (body_b, step_b, leave, after) = (
                    lw.new_block(),
                    lw.new_block(),
                    lw.new_block(),
                    lw.new_block(),
                );
                match cond {
                    Some(c) => {
                        let c = self.pg.cp(*c);
                        lw.end(Term::Cond {
                            arms: vec![(c, body_b)],
                            default: leave,
                        });
                    }
                    None => lw.end(Term::Goto(body_b)),
                }
                lw.cur = body_b;
                let var = canon.as_ref().map(|c| Target::Sym(c.var));
                self.low_loop_body(lw, st, body, leave, step_b, var);
                lw.enter(step_b);
                match (step, &canon) {
                    (Some(_), Some(c)) => lw.push(Item::Step {
                        var: Target::Sym(c.var),
                        step: if c.up { 1 } else { -1 },
                    }),
                    (Some(e), None) => lw.push(Item::CStep { s, e: *e }),
                    (None, _) => {}
                }
                lw.end(Term::Goto(head));
                lw.cur = leave;
                if let Some(c) = &canon {
                    lw.push(Item::Save(Target::Sym(c.var)));
                }
                lw.enter(after);
            }
            StmtKind::Select { selector, cases } => {
                let after = lw.new_block();
                let sel = self.pg.cp(*selector);
                let mut out = Vec::new();
                let mut default = after;
                let mut bodies = Vec::new();
                for c in cases {
                    let bb = lw.new_block();
                    if c.values.is_empty() {
                        default = bb;
                    } else {
                        let vs = c
                            .values
                            .iter()
                            .map(|v| match v {
                                CaseValue::Value(e) => CaseValue::Value(self.pg.cp(*e)),
                                CaseValue::Range(a, b) => CaseValue::Range(
                                    a.map(|x| self.pg.cp(x)),
                                    b.map(|x| self.pg.cp(x)),
                                ),
                            })
                            .collect();
                        out.push((vs, bb));
                    }
                    bodies.push((bb, &c.body));
                }
                lw.end(Term::Multi {
                    sel,
                    cases: out,
                    default,
                });
                for (bb, body) in bodies {
                    lw.cur = bb;
                    self.low_block(lw, body);
                    lw.end(Term::Goto(after));
                }
                lw.cur = after;
            }
            StmtKind::Switch { expr, body } => {
                let head = lw.cur;
                let after = lw.new_block();
                lw.cur = lw.new_block();
                let cont = lw.find_loop(None).and_then(|(_, c)| c.cont);
                lw.loops.push(Ctx {
                    name: None,
                    brk: after,
                    cont,
                    switch: true,
                    var: None,
                    body: body.clone(),
                });
                let mut cases = Vec::new();
                let mut default = after;
                for &x in body {
                    if let StmtKind::CaseLabel(v) = &src.stmts[x].kind {
                        let bb = lw.new_block();
                        lw.enter(bb);
                        match v {
                            Some(e) => cases.push((vec![CaseValue::Value(self.pg.cp(*e))], bb)),
                            None => default = bb,
                        }
                    } else {
                        self.low_stmt(lw, x);
                    }
                }
                lw.loops.pop();
                lw.end(Term::Goto(after));
                let sel = self.pg.cp(*expr);
                lw.blocks[head].term = Some(Term::Multi {
                    sel,
                    cases,
                    default,
                });
                lw.cur = after;
            }
            StmtKind::Block {
                body, decls, scope, ..
            } if decls.is_empty() && (self.pg.lang == Lang::C || scope.is_none()) => {
                self.low_block(lw, body)
            }
            StmtKind::Exit(name) => match lw.find_loop(name.as_deref()) {
                Some((d, c)) => {
                    let t = c.brk;
                    let t = lw.leaving(d + 1, t);
                    lw.jump(t)
                }
                None => {
                    self.unsupported(s, "an EXIT out of a construct that is not a loop");
                }
            },
            StmtKind::Cycle(_) | StmtKind::CContinue => {
                let name = match &st.kind {
                    StmtKind::Cycle(n) => n.as_deref(),
                    _ => None,
                };
                match lw.find_loop(name).and_then(|(d, c)| Some((d, c.cont?))) {
                    Some((d, t)) => {
                        let t = lw.leaving(d + 1, t);
                        lw.jump(t)
                    }
                    None => {
                        self.unsupported(s, "a CYCLE/continue outside a loop");
                    }
                }
            }
            StmtKind::Break => match lw.loops.last() {
                Some(c) => {
                    let t = c.brk;
                    lw.jump(t)
                }
                None => {
                    self.unsupported(s, "a `break` outside a loop or switch");
                }
            },
            StmtKind::Goto(l) => {
                let b = self.label_target(lw, l);
                lw.jump(b);
            }
            StmtKind::ComputedGoto { labels, expr } => {
                let next = lw.new_block();
                let sel = self.pg.cp(*expr);
                let mut cases = Vec::new();
                for (k, l) in labels.iter().enumerate() {
                    let b = self.label_target(lw, l);
                    let v = self.pg.b().int(k as i64 + 1);
                    cases.push((vec![CaseValue::Value(v)], b));
                }
                lw.end(Term::Multi {
                    sel,
                    cases,
                    default: next,
                });
                lw.cur = next;
            }
            StmtKind::ArithIf { expr, labels } => {
                let [l1, l2, l3] = labels;
                let (b1, b2, b3) = (
                    self.label_target(lw, l1),
                    self.label_target(lw, l2),
                    self.label_target(lw, l3),
                );
                let (e1, e2) = (self.pg.cp(*expr), self.pg.cp(*expr));
                let (z1, z2) = (self.pg.b().int(0), self.pg.b().int(0));
                let lt = self.pg.b().bin(BinOp::Lt(RelSpell::Symbol), e1, z1);
                let eq = self.pg.b().bin(BinOp::Eq(RelSpell::Symbol), e2, z2);
                lw.end(Term::Cond {
                    arms: vec![(lt, b1), (eq, b2)],
                    default: b3,
                });
                lw.cur = lw.new_block();
            }
            StmtKind::Return(v) => {
                if !lw.whole {
                    self.unsupported(s, "a RETURN inside a loop with EXIT/CYCLE");
                    return;
                }
                let exit = lw.leaving(0, EXIT);
                match v {
                    None => lw.jump(exit),
                    // C, any return with a value (cephes' `gamma`, returns mixed with
                    // `goto`): its adjoint seeds the value from the result's adjoint, on the
                    // one path that ran; a split forward sweep sets the local it returns at
                    // its end, after its records (`adj_c_return`).
                    Some(_) if self.pg.lang == Lang::C => {
                        lw.push(Item::Src(s));
                        lw.jump(exit);
                    }
                    Some(_) => {
                        self.unsupported(
                            s,
                            "a `return` with a value before the end of the function",
                        );
                    }
                }
            }
            StmtKind::CaseLabel(_) => {
                self.unsupported(s, "a case label nested inside a statement of its switch");
            }
            _ => lw.push(Item::Src(s)),
        }
    }

    /// The block a jump to label `l` goes to from here: the labelled block, through the
    /// recording of the counted loops the jump leaves (those whose body lacks the label).
    fn label_target(&mut self, lw: &mut Lowering, l: &str) -> Bid {
        let src = self.pg.src;
        let b = lw.label_block(l);
        let depth = lw
            .loops
            .iter()
            .take_while(|c| {
                let mut inside = false;
                subtree(src, &c.body, &mut |x| {
                    inside |= src.stmts[x].label.as_deref() == Some(l);
                });
                inside
            })
            .count();
        lw.leaving(depth, b)
    }

    fn low_loop_body(
        &mut self,
        lw: &mut Lowering,
        st: &Stmt,
        body: &[StmtId],
        brk: Bid,
        cont: Bid,
        var: Option<Target>,
    ) {
        lw.loops.push(Ctx {
            name: st.construct_name.clone(),
            brk,
            cont: Some(cont),
            switch: false,
            var,
            body: body.to_vec(),
        });
        self.low_block(lw, body);
        lw.loops.pop();
    }

    fn low_do_init(
        &mut self,
        s: StmtId,
        var: ExprId,
        start: ExprId,
        end: Option<(SymbolId, ExprId)>,
        any_bwd: bool,
    ) -> Rev {
        let mut r = Rev::default();
        let pid = self.pg.pi.point_id(Point {
            stmt: s,
            part: Part::LoopInit,
        });
        if let Some(i) = pid.filter(|_| any_bwd) {
            let rec = self.to_record(i);
            if self.t_in(Target::Expr(var), &rec) {
                if let Ok(sl) = self.slot_of_target(Target::Expr(var)) {
                    let (a, b) = self.push_pop(&sl);
                    r.fwd.push(a);
                    r.bwd.push(b);
                }
            }
        }
        if let Some((t, e)) = end {
            let tl = self.pg.b().name(t);
            let ec = self.pg.cp(e);
            r.fwd.push(assign(&mut self.pg.u, tl, ec));
        }
        let (v, a) = (self.pg.cp(var), self.pg.cp(start));
        r.fwd.push(assign(&mut self.pg.u, v, a));
        r
    }

    fn target_ref(&mut self, t: Target) -> ExprId {
        match t {
            Target::Expr(e) => self.pg.cp(e),
            Target::Sym(s) => self.pg.b().name(s),
        }
    }

    fn low_step(&mut self, var: Target, step: i64, any_bwd: bool) -> Rev {
        let mut r = Rev::default();
        let one = |pg: &mut Self, sign: i64| {
            let (v1, v2) = (pg.target_ref(var), pg.target_ref(var));
            let k = step * sign;
            let c = pg.pg.b().int(k.abs());
            let op = if k > 0 { BinOp::Add } else { BinOp::Sub };
            let rhs = pg.pg.b().bin(op, v2, c);
            assign(&mut pg.pg.u, v1, rhs)
        };
        r.fwd.push(one(self, 1));
        if any_bwd {
            r.bwd.push(one(self, -1));
        }
        r
    }
}
