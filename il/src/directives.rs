//! `$AD` directive regions: `CHECKPOINT-START` … `CHECKPOINT-END` and `DO-NOT-DIFF` …
//! `END-DO-NOT-DIFF` (DESIGN.md "Directives").
//!
//! A region is a run of statements of one block: it starts at the statement that carries the
//! opening directive (the frontends attach a directive to the statement after it) and ends
//! before the statement that carries the closing one (an empty statement when the closing
//! directive is the last thing in its block). Regions nest; they never cross a block
//! boundary. What does not match is a [`Problem`], which the pipeline reports as AD050.

use crate::*;

/// The kind of a directive region.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RegionKind {
    /// `CHECKPOINT-START` … `CHECKPOINT-END`.
    Checkpoint,
    /// `DO-NOT-DIFF` … `END-DO-NOT-DIFF`.
    DoNotDiff,
}

impl RegionKind {
    /// The opening and closing directive names.
    pub fn words(self) -> (&'static str, &'static str) {
        match self {
            RegionKind::Checkpoint => ("CHECKPOINT-START", "CHECKPOINT-END"),
            RegionKind::DoNotDiff => ("DO-NOT-DIFF", "END-DO-NOT-DIFF"),
        }
    }
}

/// A matched region: the statements `block[start..end]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Region {
    /// What the region asks for.
    pub kind: RegionKind,
    /// Index in the block of the first statement (the one carrying the opening directive).
    pub start: usize,
    /// Index in the block of the statement carrying the closing directive.
    pub end: usize,
    /// The innermost enclosing region of the same block, as an index in the returned list.
    pub parent: Option<usize>,
}

/// A directive that opens or closes no region: the statement it is attached to (or the
/// directive's own span) and what is wrong.
#[derive(Clone, Debug)]
pub struct Problem {
    /// The statement the directive precedes.
    pub stmt: StmtId,
    /// The directive's own location, when the frontend recorded it.
    pub span: Option<Span>,
    /// The message (for AD050).
    pub message: String,
}

fn opening(name: &str) -> Option<RegionKind> {
    match name {
        "CHECKPOINT-START" => Some(RegionKind::Checkpoint),
        "DO-NOT-DIFF" => Some(RegionKind::DoNotDiff),
        _ => None,
    }
}

fn closing(name: &str) -> Option<RegionKind> {
    match name {
        "CHECKPOINT-END" => Some(RegionKind::Checkpoint),
        "END-DO-NOT-DIFF" => Some(RegionKind::DoNotDiff),
        _ => None,
    }
}

/// Whether `name` opens or closes a region.
pub fn is_region_word(name: &str) -> bool {
    opening(name).is_some() || closing(name).is_some()
}

/// The regions of one block, in the order they open (an enclosing region before the ones it
/// contains), and the directives that match nothing.
pub fn block_regions(stmts: &Arena<Stmt>, block: &[StmtId]) -> (Vec<Region>, Vec<Problem>) {
    let mut regions: Vec<Region> = Vec::new();
    let mut problems = Vec::new();
    // Open regions: index in `regions`, and the directive that opened it.
    let mut open: Vec<(usize, StmtId, Option<Span>)> = Vec::new();
    for (k, &s) in block.iter().enumerate() {
        for d in &stmts[s].directives {
            if let Some(kind) = closing(&d.name) {
                match open.last() {
                    Some(&(r, _, _)) if regions[r].kind == kind => {
                        open.pop();
                        if regions[r].start == k {
                            problems.push(Problem {
                                stmt: s,
                                span: d.span,
                                message: format!(
                                    "`$AD {}` closes an empty region: ignored",
                                    d.name
                                ),
                            });
                            regions[r].end = usize::MAX;
                        } else {
                            regions[r].end = k;
                        }
                    }
                    _ => problems.push(Problem {
                        stmt: s,
                        span: d.span,
                        message: format!(
                            "`$AD {}` closes no `$AD {}` of the same block: ignored",
                            d.name,
                            kind.words().0
                        ),
                    }),
                }
            } else if let Some(kind) = opening(&d.name) {
                let parent = open.last().map(|o| o.0);
                regions.push(Region {
                    kind,
                    start: k,
                    end: usize::MAX,
                    parent,
                });
                open.push((regions.len() - 1, s, d.span));
            }
        }
    }
    for (r, s, span) in open {
        let (a, b) = regions[r].kind.words();
        problems.push(Problem {
            stmt: s,
            span,
            message: format!(
                "`$AD {a}` has no matching `$AD {b}` in the same block (a region cannot cross the end of a loop or branch): ignored"
            ),
        });
    }
    // Drop the unmatched ones, renumbering parents.
    let keep: Vec<bool> = regions.iter().map(|r| r.end != usize::MAX).collect();
    let mut new_index = vec![None; regions.len()];
    let mut out = Vec::new();
    for (i, r) in regions.iter().enumerate() {
        if keep[i] {
            new_index[i] = Some(out.len());
            let mut p = r.parent;
            while let Some(q) = p {
                if keep[q] {
                    break;
                }
                p = regions[q].parent;
            }
            out.push(Region {
                parent: p.and_then(|q| new_index[q]),
                ..r.clone()
            });
        }
    }
    (out, problems)
}

/// Calls `f` on each block directly inside a statement, mutably, in the order of
/// [`child_blocks`].
pub fn child_blocks_mut(k: &mut StmtKind, f: &mut dyn FnMut(&mut Block)) {
    match k {
        StmtKind::If {
            arms, else_block, ..
        }
        | StmtKind::Where {
            arms, else_block, ..
        } => {
            arms.iter_mut().for_each(|(_, b)| f(b));
            else_block.iter_mut().for_each(f);
        }
        StmtKind::Do { body, .. }
        | StmtKind::While { body, .. }
        | StmtKind::DoWhile { body, .. }
        | StmtKind::Loop { body }
        | StmtKind::CFor { body, .. }
        | StmtKind::Switch { body, .. }
        | StmtKind::Forall { body, .. }
        | StmtKind::Block { body, .. } => f(body),
        StmtKind::Select { cases, .. } => cases.iter_mut().for_each(|c| f(&mut c.body)),
        _ => {}
    }
}

/// The blocks directly inside a statement (arms, bodies), in source order.
pub fn child_blocks(s: &StmtKind) -> Vec<&Block> {
    match s {
        StmtKind::If {
            arms, else_block, ..
        }
        | StmtKind::Where {
            arms, else_block, ..
        } => arms
            .iter()
            .map(|(_, b)| b)
            .chain(else_block.iter())
            .collect(),
        StmtKind::Do { body, .. }
        | StmtKind::While { body, .. }
        | StmtKind::DoWhile { body, .. }
        | StmtKind::Loop { body }
        | StmtKind::CFor { body, .. }
        | StmtKind::Switch { body, .. }
        | StmtKind::Forall { body, .. }
        | StmtKind::Block { body, .. } => vec![body],
        StmtKind::Select { cases, .. } => cases.iter().map(|c| &c.body).collect(),
        StmtKind::Assign { .. }
        | StmtKind::PointerAssign { .. }
        | StmtKind::Call { .. }
        | StmtKind::Expr(_)
        | StmtKind::CaseLabel(_)
        | StmtKind::Decl(_)
        | StmtKind::ComputedGoto { .. }
        | StmtKind::ArithIf { .. }
        | StmtKind::Return(_)
        | StmtKind::Stop { .. }
        | StmtKind::Memory { .. }
        | StmtKind::Io { .. }
        | StmtKind::Exit(_)
        | StmtKind::Cycle(_)
        | StmtKind::Break
        | StmtKind::CContinue
        | StmtKind::Goto(_)
        | StmtKind::Continue
        | StmtKind::Empty
        | StmtKind::Format(_)
        | StmtKind::Entry { .. }
        | StmtKind::Comment(_) => Vec::new(),
    }
}

/// Calls `f` on every block of a unit's body, outermost first.
pub fn for_each_block<'u>(u: &'u UnitData, f: &mut dyn FnMut(&'u [StmtId])) {
    fn walk<'u>(u: &'u UnitData, b: &'u [StmtId], f: &mut dyn FnMut(&'u [StmtId])) {
        f(b);
        for &s in b {
            for c in child_blocks(&u.stmts[s].kind) {
                walk(u, c, f);
            }
        }
    }
    walk(u, &u.body, f);
}
