//! F77 labelled DO loops under a loop directive written as DO … END DO before
//! differentiation:
//!
//! ```fortran
//! C$AD BINOMIAL-CKP N 2 1             !$AD BINOMIAL-CKP N 2 1
//!       DO 10 K=1,N             →        DO K=1,N
//!         ...                              ...
//! 10    CONTINUE                         END DO
//! ```
//!
//! `BINOMIAL-CKP`, `II-LOOP` and `FP-LOOP` run a loop's body more than once in the adjoint
//! (the schedule's forward steps, the taped step): a label in the body would be written
//! twice, so a region holding one is refused. The label `10` of a CONTINUE that only ends
//! DO loops is no jump target: the loop and the labelled DO loops inside it lose it (with
//! the CONTINUE), unless a GOTO, computed GOTO or arithmetic IF names it, or the unit has
//! an I/O statement with `err=`/`end=`/`eor=`. The labelled DO loops of `CHECKPOINT-START`
//! … `CHECKPOINT-END` and `DO-NOT-DIFF` regions are written alike (a region holding a label
//! is refused).

use crate::fwdgoto::{jump_targets, key};
use crate::ir::*;
use std::collections::HashSet;

/// Rewrites the labelled DO loops under loop directives of every Fortran unit (see the
/// module doc).
pub fn structure_directive_loops(prog: &mut Program) {
    let units = prog.units_with_body(Lang::Fortran);
    for id in units {
        let u = &mut prog.units[id];
        let mut loops: Vec<StmtId> = u
            .stmts
            .iter()
            .filter(|(_, st)| is_loop(st) && st.directives.iter().any(|d| d.kind.is_loop()))
            .map(|(s, _)| s)
            .collect();
        // The loops of CHECKPOINT-START/END and DO-NOT-DIFF regions (a region holding a
        // label is refused: every loop of F77 code has one).
        let mut blocks: Vec<Block> = vec![u.body.clone()];
        for (_, st) in u.stmts.iter() {
            blocks.extend(
                crate::directives::child_blocks(&st.kind)
                    .into_iter()
                    .cloned(),
            );
        }
        for b in &blocks {
            for r in crate::directives::block_regions(&u.stmts, b).0 {
                for &x in &b[r.start..r.end] {
                    if is_loop(&u.stmts[x]) && !loops.contains(&x) {
                        loops.push(x);
                    }
                }
            }
        }
        if loops.is_empty() {
            continue;
        }
        let (targets, io_jumps) = jump_targets(u);
        if io_jumps {
            continue;
        }
        for s in loops {
            unlabel(u, s, &targets);
        }
    }
}

/// Whether a statement is a DO or DO WHILE loop.
fn is_loop(st: &Stmt) -> bool {
    matches!(st.kind, StmtKind::Do { .. } | StmtKind::While { .. })
}

/// Removes the terminal label of loop `s` and of the labelled loops inside it that no jump
/// names; whether `s` lost its label.
fn unlabel(u: &mut UnitData, s: StmtId, targets: &HashSet<String>) -> bool {
    let inner: Vec<StmtId> = crate::directives::child_blocks(&u.stmts[s].kind)
        .into_iter()
        .flatten()
        .copied()
        .collect();
    let mut unlabelled = HashSet::new();
    for x in inner {
        if is_loop(&u.stmts[x]) && unlabel(u, x, targets) {
            unlabelled.insert(x);
        }
    }
    let (label, last) = match &u.stmts[s].kind {
        StmtKind::Do {
            term_label: Some(l),
            body,
            ..
        }
        | StmtKind::While {
            term_label: Some(l),
            body,
            ..
        } => (key(l), body.last().copied()),
        _ => return false,
    };
    if targets.contains(&label) {
        return false;
    }
    let Some(last) = last else {
        return false;
    };
    // The terminal statement (a CONTINUE is removed, another statement loses its label), or
    // an inner loop that shared it and lost it.
    let terminal = u.stmts[last].label.as_deref().map(key) == Some(label);
    if !terminal && !unlabelled.contains(&last) {
        return false;
    }
    let drop_last = terminal && matches!(u.stmts[last].kind, StmtKind::Continue);
    if terminal {
        u.stmts[last].label = None;
    }
    if let StmtKind::Do {
        term_label, body, ..
    }
    | StmtKind::While {
        term_label, body, ..
    } = &mut u.stmts[s].kind
    {
        if drop_last {
            body.pop();
        }
        *term_label = None;
    }
    true
}
