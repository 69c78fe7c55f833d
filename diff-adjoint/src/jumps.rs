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

mod lower_stmt;
mod lowering;

use lowering::*;

use crate::*;
use std::collections::{BTreeMap, BTreeSet};

impl<'a> Adj<'_, '_, 'a> {
    fn new_label(&mut self) -> String {
        let src = self.pg.f.src;
        loop {
            self.next_label += 1;
            let l = match self.pg.f.lang {
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
        let k = match self.pg.f.lang {
            Lang::Fortran => StmtKind::Continue,
            Lang::C => StmtKind::Empty,
        };
        let s = stmt(&mut self.pg.u, k);
        self.pg.u.stmts[s].label = Some(l);
        s
    }

    /// Both sweeps of `stmts`, lowered to basic blocks.
    pub(crate) fn lower_region(&mut self, stmts: &[StmtId], whole: bool) -> Rev {
        let src = self.pg.f.src;
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
                    let logical = self.pg.f.lang == Lang::Fortran
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
                }) => match self.pg.f.lang {
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
                        self.pg.f.lang == Lang::Fortran && arms.len() == 1 && else_b.is_none();
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
}
