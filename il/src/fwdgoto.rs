//! Forward GOTOs inside one block become IF constructs before differentiation (issue 21, item
//! 8): in a Fortran block, `IF (c) GOTO 15; S1; …; Sk; 15 S` is `IF (.NOT. (c)) THEN; S1; …;
//! Sk; END IF; 15 S`. Legacy F77 skips the rest of a loop body or a section this way; left as
//! a jump, it makes the adjoint lower its whole loop to basic blocks (a `goto` per edge, no
//! vectorisation) where the IF keeps the loop structured.
//!
//! The rewrite computes what the original computes when nothing else jumps into `S1 … Sk`:
//! no statement there carries a label that a remaining GOTO, computed GOTO or arithmetic IF
//! names (the labelled DO terminals and FORMATs of the region stay as they are), and, when the
//! unit has an I/O statement with `err=`/`end=`/`eor=`, no labelled statement at all. The
//! jumps are rewritten innermost first (a rewritten GOTO no longer names its label), until
//! none is left that qualifies. The label `15` stays where it was. C is left as written.

use crate::ir::*;
use std::collections::{HashMap, HashSet};

/// Rewrites the forward GOTOs of every Fortran unit (see the module doc).
pub fn structure_forward_gotos(prog: &mut Program) {
    let units: Vec<UnitId> = prog
        .units
        .iter()
        .filter(|(_, u)| u.lang == Lang::Fortran)
        .map(|(id, _)| id)
        .collect();
    for id in units {
        let u = &mut prog.units[id];
        while rewrite_one(u) {}
    }
}

/// A label as a number-like key (`010` and `10` are one label).
pub(crate) fn key(l: &str) -> String {
    let t = l.trim().trim_start_matches('0');
    if t.is_empty() {
        "0".into()
    } else {
        t.to_string()
    }
}

/// The labels jumps name, and whether I/O statements may jump (`err=` and the like).
pub(crate) fn jump_targets(u: &UnitData) -> (HashSet<String>, bool) {
    let mut out = HashSet::new();
    let mut io_jumps = false;
    for (_, st) in u.stmts.iter() {
        match &st.kind {
            StmtKind::Goto(l) => {
                out.insert(key(l));
            }
            StmtKind::ComputedGoto { labels, .. } => out.extend(labels.iter().map(|l| key(l))),
            StmtKind::ArithIf { labels, .. } => out.extend(labels.iter().map(|l| key(l))),
            StmtKind::Io { control, .. } => {
                let c = control.to_ascii_lowercase().replace(' ', "");
                if c.contains("err=") || c.contains("end=") || c.contains("eor=") {
                    io_jumps = true;
                }
            }
            _ => {}
        }
    }
    (out, io_jumps)
}

/// `IF (c) GOTO l` (logical IF, or a block IF whose only arm holds only the GOTO).
fn goto_if(u: &UnitData, s: StmtId) -> Option<(ExprId, String)> {
    let StmtKind::If {
        arms, else_block, ..
    } = &u.stmts[s].kind
    else {
        return None;
    };
    if arms.len() != 1 || else_block.is_some() || arms[0].1.len() != 1 {
        return None;
    }
    match &u.stmts[arms[0].1[0]].kind {
        StmtKind::Goto(l) if u.stmts[arms[0].1[0]].label.is_none() => Some((arms[0].0, l.clone())),
        _ => None,
    }
}

/// Whether no jump can land inside `region` (see the module doc).
fn region_closed(u: &UnitData, region: &[StmtId], targets: &HashSet<String>, io: bool) -> bool {
    let mut terminals = HashSet::new();
    let mut labelled = Vec::new();
    let mut stack: Vec<StmtId> = region.to_vec();
    while let Some(s) = stack.pop() {
        let st = &u.stmts[s];
        if let StmtKind::Do {
            term_label: Some(t),
            ..
        }
        | StmtKind::While {
            term_label: Some(t),
            ..
        } = &st.kind
        {
            terminals.insert(key(t));
        }
        if let Some(l) = &st.label {
            if !matches!(st.kind, StmtKind::Format(_)) {
                labelled.push(key(l));
            }
        }
        crate::directives::child_blocks(&st.kind)
            .into_iter()
            .for_each(|b| stack.extend(b.iter().copied()));
    }
    labelled
        .iter()
        .all(|l| !targets.contains(l) && (!io || terminals.contains(l)))
}

/// Rewrites the first qualifying GOTO found, innermost blocks first; whether one was.
fn rewrite_one(u: &mut UnitData) -> bool {
    let (targets, io) = jump_targets(u);
    let mut gotos_to: HashMap<String, usize> = HashMap::new();
    for (_, st) in u.stmts.iter() {
        if let StmtKind::Goto(x) = &st.kind {
            *gotos_to.entry(key(x)).or_default() += 1;
        }
    }
    let mut blocks: Vec<Option<StmtId>> = vec![None];
    blocks.extend(u.stmts.iter().map(|(id, _)| Some(id)));
    // Every block of the unit is tried; the innermost match is the one with the shortest
    // region.
    // Owner, block index, the block, k, m, the GOTO's condition.
    let mut best: Option<(Option<StmtId>, usize, Block, usize, usize, ExprId)> = None;
    for owner in blocks {
        let lists: Vec<Block> = match owner {
            None => vec![u.body.clone()],
            Some(s) => crate::directives::child_blocks(&u.stmts[s].kind)
                .into_iter()
                .cloned()
                .collect(),
        };
        for (bi, b) in lists.iter().enumerate() {
            for (k, &s) in b.iter().enumerate() {
                let Some((cond, l)) = goto_if(u, s) else {
                    continue;
                };
                let Some(m) = (k + 1..b.len())
                    .find(|&m| u.stmts[b[m]].label.as_deref().map(key) == Some(key(&l)))
                else {
                    continue;
                };
                if m == k + 1 {
                    continue;
                }
                // Other GOTOs to the same label stay: only this one stops naming it.
                let mut t = targets.clone();
                if gotos_to.get(&key(&l)).copied().unwrap_or(0) <= 1 {
                    t.remove(&key(&l));
                }
                if !region_closed(u, &b[k + 1..m], &t, io) {
                    continue;
                }
                if best
                    .as_ref()
                    .is_none_or(|(_, _, _, bk, bm, _)| m - k < bm - bk)
                {
                    best = Some((owner, bi, b.clone(), k, m, cond));
                }
            }
        }
    }
    let Some((owner, bi, block, k, m, cond)) = best else {
        return false;
    };
    let s = block[k];
    // The GOTO leaves the tree: a CONTINUE no walk over the arena takes for a jump.
    if let StmtKind::If { arms, .. } = &u.stmts[s].kind {
        let g = arms[0].1[0];
        u.stmts[g].kind = StmtKind::Continue;
    }
    let region = block[k + 1..m].to_vec();
    let paren = u.exprs.alloc(Expr::Paren(cond));
    let not = u.exprs.alloc(Expr::Unary {
        op: UnOp::Not,
        arg: paren,
    });
    // The IF statement keeps its label, span and comment; its kind becomes the new IF.
    u.stmts[s].kind = StmtKind::If {
        arms: vec![(not, region)],
        else_block: None,
        logical: false,
        braces: vec![true],
    };
    let mut nb = block[..=k].to_vec();
    nb.extend_from_slice(&block[m..]);
    match owner {
        None => u.body = nb,
        Some(o) => {
            let mut i = 0;
            crate::directives::child_blocks_mut(&mut u.stmts[o].kind, &mut |b| {
                if i == bi {
                    *b = nb.clone();
                }
                i += 1;
            });
        }
    }
    true
}
