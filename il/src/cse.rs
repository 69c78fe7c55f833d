//! Common sub-expressions shared across the statements of a basic block, before the analyses
//! (issue 47):
//!
//! ```c
//! r = sqrt(x * x + y * y);                    cse = sqrt(x * x + y * y);
//! c = x / sqrt(x * x + y * y);           →    r = cse;
//! s = y / sqrt(x * x + y * y);                c = x / cse;  s = y / cse;
//! ```
//!
//! The adjoint then computes the square root's partial once and propagates one adjoint
//! through it, instead of three partials (each with its own square root) and three
//! increments of `x̄` and `ȳ`.
//!
//! Only outside loops: a temporary assigned in every iteration of a loop is recorded by the
//! adjoint's forward sweep (its value is needed by the partials of every iteration), which
//! costs more than the sharing saves when the loop needs no record otherwise (a Gaussian and
//! its derivative sharing `exp(…)` in a loop: 1.4 times slower shared, `benches/optim.sh`
//! before this rule). A helper called in a loop is shared in (its adjoint's forward sweep
//! assigns the temporary once per call).
//!
//! Shared: the largest sub-expressions sure to be `double` / `real(8)` and worth a temporary
//! (`valexpr::Cx::costly`; the first 32 of a statement, the larger first), written alike (`valexpr::same_value`) twice or more in the values
//! of consecutive assignments and declarations of one block (no label, no call with effects,
//! no statement of another kind between them: a basic block), when no statement from the
//! first to the last occurrence writes anything the expression reads (`valexpr::Cx::
//! unchanged`, with its C aliasing rules). The temporary is assigned just before the
//! statement of the first occurrence; occurrences are looked for in the 64 statements after
//! it. Only values evaluated whenever their statement is (not an operand of `&&`/`||` after
//! the first, not a branch of `?:`, not an argument of `min`/`max`/`merge`). Not inside
//! FORALL or WHERE. Turned off by `-nooptim sharecommon`.

use crate::invariant::{loop_writes, Writes};
use crate::ir::*;
use crate::valexpr::{declare, double_temp, exposed, move_to, same_value, untouchable, Cx};
use std::collections::{HashMap, HashSet};

/// How many statements after the first occurrence are searched.
const WINDOW: usize = 64;

/// How many sub-expressions of a statement are tried, the larger first.
const CANDIDATES: usize = 32;

/// Shares the common sub-expressions of every unit's basic blocks (`pure`: the functions
/// without effects reading only their arguments); returns how many occurrences were replaced.
pub fn share_common_subexpressions(prog: &mut Program, pure: &HashMap<String, UnitId>) -> usize {
    let mut shared = 0;
    let units: Vec<UnitId> = prog
        .units
        .iter()
        .filter(|(_, u)| !u.body.is_empty() && !untouchable(u))
        .map(|(id, _)| id)
        .collect();
    for uid in units {
        let taken = exposed(prog, &prog.units[uid]);
        let mut pending = Vec::new();
        let body = std::mem::take(&mut prog.units[uid].body);
        let body = rewrite_block(
            prog,
            uid,
            body,
            false,
            pure,
            &taken,
            &mut pending,
            &mut shared,
        );
        prog.units[uid].body = body;
        declare(prog, uid, pending);
    }
    shared
}

#[allow(clippy::too_many_arguments)]
fn rewrite_block(
    prog: &mut Program,
    uid: UnitId,
    block: Block,
    in_loop: bool,
    pure: &HashMap<String, UnitId>,
    taken: &HashSet<SymbolId>,
    pending: &mut Vec<StmtId>,
    shared: &mut usize,
) -> Block {
    for &s in &block {
        let mut kind = std::mem::replace(&mut prog.units[uid].stmts[s].kind, StmtKind::Empty);
        let looping = in_loop || kind.repeats_body();
        if !matches!(kind, StmtKind::Forall { .. } | StmtKind::Where { .. }) {
            crate::directives::child_blocks_mut(&mut kind, &mut |b| {
                let inner = std::mem::take(b);
                *b = rewrite_block(prog, uid, inner, looping, pure, taken, pending, shared);
            });
        }
        prog.units[uid].stmts[s].kind = kind;
    }
    if in_loop {
        return block;
    }
    // The runs of straight-line statements.
    let mut out = Vec::with_capacity(block.len());
    // The run and what each of its statements writes.
    let mut run: Vec<StmtId> = Vec::new();
    let mut writes: Vec<Writes> = Vec::new();
    for s in block {
        let straight = {
            let u = &prog.units[uid];
            let simple = matches!(u.stmts[s].kind, StmtKind::Assign { .. })
                || matches!(&u.stmts[s].kind, StmtKind::Decl(Decl::Var(v))
                    if v.entities.len() == 1
                        && !v.attrs.iter().any(|a| matches!(a, Attr::Keyword(k) if k == "static")));
            simple
                .then(|| {
                    let mut w = Writes::default();
                    loop_writes(prog, u, &[s], pure, &mut w);
                    w
                })
                .filter(|w| !w.opaque)
        };
        let labelled = prog.units[uid].stmts[s].label.is_some();
        if straight.is_none() || labelled {
            out.extend(share_in_run(
                prog, uid, &run, &writes, pure, taken, pending, shared,
            ));
            run.clear();
            writes.clear();
            if let Some(w) = straight {
                // A labelled statement starts a run.
                run.push(s);
                writes.push(w);
            } else {
                out.push(s);
            }
            continue;
        }
        run.push(s);
        writes.extend(straight);
    }
    out.extend(share_in_run(
        prog, uid, &run, &writes, pure, taken, pending, shared,
    ));
    out
}

/// The values statement `s` evaluates (an assignment's right side, declarations'
/// initialisers), with no list built (asked for every statement of every search window).
fn values(u: &UnitData, s: StmtId) -> impl Iterator<Item = ExprId> + '_ {
    let (rhs, inits) = match &u.stmts[s].kind {
        StmtKind::Assign { rhs, .. } => (Some(*rhs), &[][..]),
        StmtKind::Decl(Decl::Var(v)) => (None, &v.entities[..]),
        _ => (None, &[][..]),
    };
    rhs.into_iter()
        .chain(inits.iter().filter_map(|e| match e.init {
            Some(Init::Expr(x)) => Some(x),
            _ => None,
        }))
}

/// The nodes of `e` (outside `skip`) computing what `c` computes, where `e` is evaluated.
fn occurrences(cx: &Cx, e: ExprId, c: ExprId, skip: ExprId, out: &mut Vec<ExprId>) {
    if e == skip {
        return;
    }
    if same_value(cx.u, e, c) {
        out.push(e);
        return;
    }
    cx.each_evaluated_child(e, &mut |x| occurrences(cx, x, c, skip, out));
}

/// The statements standing for `run`, with the temporaries' assignments inserted.
#[allow(clippy::too_many_arguments)]
fn share_in_run(
    prog: &mut Program,
    uid: UnitId,
    run: &[StmtId],
    writes: &[Writes],
    pure: &HashMap<String, UnitId>,
    taken: &HashSet<SymbolId>,
    pending: &mut Vec<StmtId>,
    shared: &mut usize,
) -> Vec<StmtId> {
    let mut before: Vec<Vec<StmtId>> = vec![Vec::new(); run.len()];
    if run.len() > 1
        || run
            .iter()
            .any(|&s| values(&prog.units[uid], s).next().is_some())
    {
        for k in 0..run.len() {
            // One expression at a time; the statement's candidates again after each.
            while let Some((c, occ)) = first_shared(prog, uid, run, k, writes, pure, taken) {
                let t = double_temp(prog, uid, "cse", pending);
                let span = prog.units[uid].source_map.stmt.get(run[k]).copied();
                let u = &mut prog.units[uid];
                before[k].push(move_to(u, c, t, span));
                for o in occ {
                    u.exprs[o] = Expr::Name(t);
                }
                *shared += 1;
            }
        }
    }
    let mut out = Vec::with_capacity(run.len());
    for (k, &s) in run.iter().enumerate() {
        out.append(&mut before[k]);
        out.push(s);
    }
    out
}

/// The first candidate of statement `run[k]` computed again later in it or in the statements
/// after it with nothing it reads changed between, with its other occurrences.
fn first_shared(
    prog: &Program,
    uid: UnitId,
    run: &[StmtId],
    k: usize,
    writes: &[Writes],
    pure: &HashMap<String, UnitId>,
    taken: &HashSet<SymbolId>,
) -> Option<(ExprId, Vec<ExprId>)> {
    let u = &prog.units[uid];
    let cx = Cx::new(prog, u, pure);
    let mut cands = Vec::new();
    for v in values(u, run[k]) {
        cx.nested_candidates(v, &mut cands, CANDIDATES);
    }
    let mut occ = Vec::new();
    for c in cands {
        occ.clear();
        for v in values(u, run[k]) {
            occurrences(&cx, v, c, c, &mut occ);
        }
        for k2 in k + 1..run.len().min(k + 1 + WINDOW) {
            if !cx.unchanged(c, &writes[k2 - 1], taken) {
                break;
            }
            for v in values(u, run[k2]) {
                occurrences(&cx, v, c, c, &mut occ);
            }
        }
        if !occ.is_empty() {
            return Some((c, std::mem::take(&mut occ)));
        }
    }
    None
}
