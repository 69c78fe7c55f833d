//! Intrinsic values the primal stored, read back by the adjoint instead of evaluated again
//! (issue 21, bundle adjustment's rotation):
//!
//! ```c
//! theta = sqrt(sqtheta);     // adjoint: sqthetab += (1 / (2 * theta)) * thetab
//! costheta = cos(theta);     // adjoint: thetab += (-sintheta) * costhetab
//! sintheta = sin(theta);     // adjoint: thetab += costheta * sinthetab
//! ```
//!
//! Two rules, both for C joint sweeps with `-nooptim sharepartials` off, on the stores of
//! [`KeptScalars`] (a plain local assigned once, by a statement no loop surrounds, in a unit
//! without jumps: its value stays from the forward sweep until the statement's adjoint):
//! - its own value: the partial `1 / (2 * sqrt(x0))` of `sqrt` calls `sqrt` on the same
//!   arguments, so it reads the target (`ProcGen::stored_result`, as for the array elements of
//!   `extent::stored_until_adjoint`);
//! - a sibling's value: another statement `w = g(b)` of the same block (at most `REACH`
//!   statements away), such a store, kept in
//!   the forward sweep and recording nothing, whose arguments are expressions over plain locals
//!   that no statement between the two assigns (the statement being differentiated included
//!   when the sibling comes after it): a partial calling `g` on arguments written as `b` reads
//!   `w` (`ProcGen::sibling_results`).

use crate::*;
use radtap_il::extent::stored::{kept_scalars, writes_plain, KeptScalars};

/// How far apart (in statements of one block) a sibling may stand: siblings are written side
/// by side (`c = cos(t); s = sin(t);`), and a bound keeps the search linear on long blocks.
const REACH: usize = 8;

impl<'a> Adj<'_, '_, 'a> {
    /// [`KeptScalars`] of this procedure, found on first use.
    pub(crate) fn kept(&mut self) -> &KeptScalars {
        let (prog, p) = (self.pg.prog(), self.pg.f.p);
        self.kept.get_or_insert_with(|| kept_scalars(prog, p))
    }

    /// The sibling stores whose values the partials of statement `s` (right side `value`)
    /// may read (see the module documentation).
    pub(crate) fn sibling_results(&mut self, s: StmtId, value: ExprId) -> Vec<(ExprId, ExprId)> {
        let src = self.pg.f.src;
        if !self.pg.g.opts.share_partials
            || self.pg.f.sweep != Sweep::Joint
            || self.pg.f.lang != Lang::C
            || !Self::has_call(src, value)
        {
            return Vec::new();
        }
        let Some(&(n, k)) = self.kept().at.get(&s) else {
            return Vec::new();
        };
        // The window of the block around `s`, `s` at `k`.
        let list: Vec<StmtId> = {
            let b = &self.kept().blocks[n];
            b[k.saturating_sub(REACH)..(k + REACH + 1).min(b.len())].to_vec()
        };
        let k = k.min(REACH);
        let mut out = Vec::new();
        for (j, &t) in list.iter().enumerate() {
            let Some(w) = self.kept().stores.get(&t).copied() else {
                continue;
            };
            let StmtKind::Assign { lhs, rhs, .. } = &src.stmts[t].kind else {
                continue;
            };
            let mut call = *rhs;
            while let Expr::Paren(a) = src.exprs[call] {
                call = a;
            }
            let Expr::Call { args, .. } = &src.exprs[call] else {
                continue;
            };
            if j == k || !self.pg.is_intrinsic_call(call) {
                continue;
            }
            let mut names = Vec::new();
            if !args
                .iter()
                .all(|a| a.keyword.is_none() && self.plain_operand(a.value, &mut names))
                || names.contains(&w)
            {
                continue;
            }
            let between = if j < k { j + 1..k } else { k..j };
            if list[between].iter().any(|&m| writes_plain(src, m, &names)) {
                continue;
            }
            let Some(pt) = self.pg.pid(t) else { continue };
            if !self.is_live(pt) || !self.to_record(pt).is_empty() {
                continue;
            }
            out.push((call, *lhs));
        }
        out
    }

    /// Whether `e` calls a function (a cheap test before the search).
    fn has_call(src: &UnitData, e: ExprId) -> bool {
        let mut todo = vec![e];
        while let Some(x) = todo.pop() {
            if matches!(src.exprs[x], Expr::Call { .. }) {
                return true;
            }
            radtap_il::visit::expr_children(&src.exprs[x], &mut |c| todo.push(c));
        }
        false
    }

    /// Whether `e` is arithmetic over literals and plain locals (collected in `names`).
    fn plain_operand(&mut self, e: ExprId, names: &mut Vec<SymbolId>) -> bool {
        let src = self.pg.f.src;
        match &src.exprs[e] {
            Expr::Literal(_) => true,
            Expr::Name(v) => {
                names.push(*v);
                self.kept().plain.contains(v)
            }
            Expr::Paren(a) | Expr::Unary { arg: a, .. } => {
                !matches!(
                    src.exprs[e],
                    Expr::Unary {
                        op: UnOp::AddrOf | UnOp::Deref,
                        ..
                    }
                ) && self.plain_operand(*a, names)
            }
            Expr::Binary { lhs, rhs, .. } => {
                self.plain_operand(*lhs, names) && self.plain_operand(*rhs, names)
            }
            _ => false,
        }
    }
}
