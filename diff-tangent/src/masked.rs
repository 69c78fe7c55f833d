//! Tangent rules for WHERE and FORALL: the derivative assignments stay under the same masks.
//!
//! In scalar mode each assignment's derivative goes just before it, inside the construct. In
//! vector mode the derivative needs a direction loop, and Fortran allows no DO inside WHERE or
//! FORALL: the construct is cut into one construct per assignment, each under the masks that
//! lead to it (`where (m1) … elsewhere (m2) stmt end where`, nested WHEREs rebuilt around it),
//! its derivative first in a direction loop, then the assignment itself. A later assignment
//! thus reads what an earlier one wrote, derivatives included, as in the construct. The masks
//! and bounds are evaluated again for each piece: a construct whose mask reads what an
//! assignment of the construct before the piece wrote is refused in vector mode.

use crate::prelude::*;
use std::collections::HashSet;

/// One WHERE construct on the way to an assignment: its masks, and the arm holding the
/// assignment (`masks.len()` for the ELSEWHERE block).
#[derive(Clone)]
struct Level {
    construct: StmtId,
    masks: Vec<ExprId>,
    arm: usize,
}

impl<'a> Tan<'_, '_, 'a> {
    /// WHERE (see the module doc).
    pub(crate) fn where_rule(
        &mut self,
        sid: StmtId,
        arms: &'a [(ExprId, Block)],
        else_block: Option<&'a Block>,
        single: bool,
    ) -> Vec<StmtId> {
        if self.f.vector {
            return self.vector_where(sid, arms, else_block);
        }
        let st: &'a Stmt = &self.f.src.stmts[sid];
        let mut new_arms = Vec::new();
        for (m, b) in arms {
            let m2 = self.cp(*m);
            let b2 = self.masked_block(b);
            new_arms.push((m2, b2));
        }
        let else2 = else_block.map(|b| self.masked_block(b));
        vec![self.new_like(
            st,
            StmtKind::Where {
                single: single && new_arms.iter().all(|(_, b)| b.len() == 1) && else2.is_none(),
                arms: new_arms,
                else_block: else2,
            },
        )]
    }

    fn vector_where(
        &mut self,
        sid: StmtId,
        arms: &'a [(ExprId, Block)],
        else_block: Option<&'a Block>,
    ) -> Vec<StmtId> {
        let mut leaves = Vec::new();
        where_leaves(
            self.f.src,
            sid,
            arms,
            else_block,
            &mut Vec::new(),
            &mut leaves,
        );
        // No assignment (nor an inner mask) reads what an earlier one wrote: the derivatives
        // of the whole construct in one direction loop, then the construct.
        let stale = leaves.iter().enumerate().any(|(i, (path, k))| {
            let mut es = self.assign_exprs(*k);
            for l in path.iter().skip(1) {
                es.extend(l.masks.iter().copied());
            }
            // Assignments in different arms of one construct touch different elements, when
            // this one reads element by element (no section, element or reduction).
            let by_element = self.elementwise(*k);
            let before: Vec<StmtId> = leaves[..i]
                .iter()
                .filter(|(p, _)| !(by_element && disjoint(p, path)))
                .map(|(_, k)| *k)
                .collect();
            self.reads_written(&es, &before)
        });
        if !stale {
            let w = self.deriv_where(arms, else_block);
            let mut out = self.dir(vec![w]);
            out.push(self.copy_stmt(sid));
            return out;
        }
        // Cut into pieces: a mask evaluated again before an assignment must not read what an
        // assignment of its construct before that one wrote.
        let changed = leaves.iter().enumerate().any(|(i, (path, _))| {
            path.iter().any(|l| {
                let before: Vec<StmtId> = leaves[..i]
                    .iter()
                    .filter(|(p, _)| p.iter().any(|m| m.construct == l.construct))
                    .map(|(_, k)| *k)
                    .collect();
                self.reads_written(&l.masks, &before)
            })
        });
        if changed {
            self.error(sid, Code::Unsupported, "a WHERE whose masks read what its assignments write is not supported in vector mode (the construct is cut into one WHERE per assignment there): compute the mask into a logical array first");
            return vec![self.copy_stmt(sid)];
        }
        let mut out = Vec::new();
        for (path, k) in leaves {
            self.deriv_only = true;
            let d = self.masked_block(&[k]);
            self.deriv_only = false;
            if !d.is_empty() {
                let w = self.rebuild_where(&path, d);
                out.extend(self.dir(w));
            }
            let p = self.copy_stmt(k);
            let w = self.rebuild_where(&path, vec![p]);
            out.extend(w);
        }
        out
    }

    /// The derivative statements of a WHERE construct under its masks, nested WHEREs alike.
    fn deriv_where(&mut self, arms: &[(ExprId, Block)], else_block: Option<&Block>) -> StmtId {
        let mut blocks = Vec::new();
        for b in arms.iter().map(|(_, b)| b).chain(else_block) {
            let mut out = Vec::new();
            for &k in b {
                if let StmtKind::Where {
                    arms: a2,
                    else_block: e2,
                    ..
                } = &self.f.src.stmts[k].kind
                {
                    out.push(self.deriv_where(a2, e2.as_ref()));
                } else {
                    self.deriv_only = true;
                    out.extend(self.masked_block(&[k]));
                    self.deriv_only = false;
                }
            }
            blocks.push(out);
        }
        let else2 = else_block.and_then(|_| blocks.pop());
        let arms2 = arms
            .iter()
            .zip(blocks)
            .map(|((m, _), b)| (self.cp(*m), b))
            .collect();
        stmt(
            &mut self.u,
            StmtKind::Where {
                arms: arms2,
                else_block: else2,
                single: false,
            },
        )
    }

    /// Whether assignment `k` reads its arrays element by element: whole arrays and scalars,
    /// elemental intrinsics (no subscript, section, reduction or other call).
    fn elementwise(&self, k: StmtId) -> bool {
        let mut todo = self.assign_exprs(k);
        while let Some(e) = todo.pop() {
            match &self.f.src.exprs[e] {
                Expr::Index { .. } => return false,
                Expr::Call { callee, args } => {
                    let elemental = self.src_routine(e, *callee).is_some_and(|r| {
                        matches!(
                            r.routine().rule(),
                            Some(Rule::Elementwise(_) | Rule::Select { .. })
                        )
                    });
                    if !elemental {
                        return false;
                    }
                    todo.extend(args.iter().map(|a| a.value));
                }
                x => radtap_il::visit::expr_children(x, &mut |c| todo.push(c)),
            }
        }
        true
    }

    /// The expressions of an assignment (all of a statement's for anything else).
    fn assign_exprs(&self, k: StmtId) -> Vec<ExprId> {
        let mut es = Vec::new();
        radtap_il::visit::stmt_children(
            &self.f.src.stmts[k].kind,
            &mut |e| es.push(e),
            &mut |_| {},
        );
        es
    }

    /// `body` under the WHERE constructs of `path`, outermost first (the one construct they
    /// make); the arms after the one holding it are left out.
    fn rebuild_where(&mut self, path: &[Level], body: Block) -> Block {
        let mut body = body;
        for l in path.iter().rev() {
            let mut arms = Vec::new();
            for (j, &m) in l.masks.iter().enumerate().take(l.arm + 1) {
                let m2 = self.cp(m);
                let b = if j == l.arm {
                    std::mem::take(&mut body)
                } else {
                    Vec::new()
                };
                arms.push((m2, b));
            }
            let else_block = (l.arm == l.masks.len()).then(|| std::mem::take(&mut body));
            let single = else_block.is_none()
                && arms.len() == 1
                && arms[0].1.len() == 1
                && matches!(self.u.stmts[arms[0].1[0]].kind, StmtKind::Assign { .. });
            let w = stmt(
                &mut self.u,
                StmtKind::Where {
                    arms,
                    else_block,
                    single,
                },
            );
            body = vec![w];
        }
        body
    }

    /// FORALL (see the module doc).
    pub(crate) fn forall_rule(
        &mut self,
        sid: StmtId,
        specs: &'a [ForallSpec],
        mask: Option<ExprId>,
        body: &'a [StmtId],
        single: bool,
    ) -> Vec<StmtId> {
        if let Some(name) = self.active_call_in(body) {
            let msg = format!("a reference to the procedure `{name}` inside FORALL, with derivatives, is not supported (its derivative is no pure function FORALL may call): write the FORALL as a DO loop");
            self.error(sid, Code::Unsupported, &msg);
            return vec![self.copy_stmt(sid)];
        }
        if !self.f.vector {
            let st: &'a Stmt = &self.f.src.stmts[sid];
            let body2 = self.masked_block(body);
            let kind = self.forall_of(specs, mask, body2, single);
            return vec![self.new_like(st, kind)];
        }
        let nested = body.iter().any(|&k| {
            matches!(
                self.f.src.stmts[k].kind,
                StmtKind::Where { .. } | StmtKind::Forall { .. }
            )
        });
        if nested {
            self.error(sid, Code::Unsupported, "a WHERE or FORALL inside a FORALL is not supported in vector mode (Fortran allows no direction loop inside FORALL)");
            return vec![self.copy_stmt(sid)];
        }
        let stale = (1..body.len()).any(|i| {
            let es = self.assign_exprs(body[i]);
            self.reads_written(&es, &body[..i])
        });
        // The derivatives of the whole construct first, then the construct; or, when an
        // assignment reads what an earlier one wrote, one FORALL per assignment.
        let pieces: Vec<&[StmtId]> = if stale {
            let mut header: Vec<ExprId> = mask.into_iter().collect();
            for sp in specs {
                header.extend([sp.lo, sp.hi]);
                header.extend(sp.stride);
            }
            if self.reads_written(&header, body) {
                self.error(sid, Code::Unsupported, "a FORALL whose bounds or mask read what its assignments write is not supported in vector mode (the construct is cut into one FORALL per assignment there)");
                return vec![self.copy_stmt(sid)];
            }
            body.chunks(1).collect()
        } else {
            vec![body]
        };
        let mut out = Vec::new();
        for piece in pieces {
            self.deriv_only = true;
            let d = self.masked_block(piece);
            self.deriv_only = false;
            if !d.is_empty() {
                let kind = self.forall_of(specs, mask, d, true);
                let f = stmt(&mut self.u, kind);
                out.extend(self.dir(vec![f]));
            }
            if !stale {
                out.push(self.copy_stmt(sid));
            } else {
                let p = piece.iter().map(|&k| self.copy_stmt(k)).collect();
                let kind = self.forall_of(specs, mask, p, single);
                out.push(stmt(&mut self.u, kind));
            }
        }
        out
    }

    /// `forall (specs, mask) body`, the specs and mask copied; the one-line form when
    /// `single` and the body is one statement.
    fn forall_of(
        &mut self,
        specs: &[ForallSpec],
        mask: Option<ExprId>,
        body: Block,
        single: bool,
    ) -> StmtKind {
        let (specs, mask) = self.forall_header(specs, mask);
        StmtKind::Forall {
            specs,
            mask,
            single: single && body.len() == 1,
            body,
        }
    }

    fn forall_header(
        &mut self,
        specs: &[ForallSpec],
        mask: Option<ExprId>,
    ) -> (Vec<ForallSpec>, Option<ExprId>) {
        let specs2 = specs
            .iter()
            .map(|sp| ForallSpec {
                var: self.cp(sp.var),
                lo: self.cp(sp.lo),
                hi: self.cp(sp.hi),
                stride: sp.stride.map(|x| self.cp(x)),
            })
            .collect();
        (specs2, mask.map(|m| self.cp(m)))
    }

    /// The procedure of the program an active statement of `body` references, if any.
    fn active_call_in(&self, body: &[StmtId]) -> Option<String> {
        for &k in body {
            let active = self.pid(k).is_some_and(|i| self.f.act.has_derivative[i]);
            if !active {
                continue;
            }
            let mut todo = self.assign_exprs(k);
            while let Some(e) = todo.pop() {
                if let Expr::Call { callee, .. } = &self.f.src.exprs[e] {
                    if let Expr::Name(f) = &self.f.src.exprs[*callee] {
                        let sd = &self.prog().symbols[*f];
                        if sd.kind == SymbolKind::Procedure {
                            return Some(sd.spelling.clone());
                        }
                    }
                }
                radtap_il::visit::expr_children(&self.f.src.exprs[e], &mut |c| todo.push(c));
            }
        }
        None
    }

    /// Whether expressions `es` name a variable that an assignment of `stmts` writes.
    fn reads_written(&self, es: &[ExprId], stmts: &[StmtId]) -> bool {
        let mut written = HashSet::new();
        for &k in stmts {
            if let StmtKind::Assign { lhs, .. } = self.f.src.stmts[k].kind {
                let mut e = lhs;
                loop {
                    match &self.f.src.exprs[e] {
                        Expr::Index { base, .. } | Expr::Field { base, .. } => e = *base,
                        Expr::Paren(a) => e = *a,
                        Expr::Name(s) => {
                            written.insert(*s);
                            break;
                        }
                        _ => break,
                    }
                }
            }
        }
        let mut todo: Vec<ExprId> = es.to_vec();
        while let Some(e) = todo.pop() {
            if let Expr::Name(s) = &self.f.src.exprs[e] {
                if written.contains(s) {
                    return true;
                }
            }
            radtap_il::visit::expr_children(&self.f.src.exprs[e], &mut |k| todo.push(k));
        }
        false
    }

    /// The derivative of the body of a WHERE or FORALL: no shared temporaries inside.
    fn masked_block(&mut self, b: &[StmtId]) -> Block {
        let outer = std::mem::replace(&mut self.in_masked, true);
        let r = self.block(b);
        self.in_masked = outer;
        r
    }
}

/// Whether two assignments of a WHERE construct are in different arms of a construct
/// holding both (masked for different elements).
fn disjoint(a: &[Level], b: &[Level]) -> bool {
    for (x, y) in a.iter().zip(b) {
        if x.construct != y.construct {
            return false;
        }
        if x.arm != y.arm {
            return true;
        }
    }
    false
}

/// The assignments of a WHERE construct, each with the constructs leading to it (nested
/// WHEREs opened up).
fn where_leaves(
    src: &UnitData,
    construct: StmtId,
    arms: &[(ExprId, Block)],
    else_block: Option<&Block>,
    path: &mut Vec<Level>,
    out: &mut Vec<(Vec<Level>, StmtId)>,
) {
    let masks: Vec<ExprId> = arms.iter().map(|(m, _)| *m).collect();
    let blocks = arms.iter().map(|(_, b)| b).chain(else_block).enumerate();
    for (arm, b) in blocks {
        path.push(Level {
            construct,
            masks: masks.clone(),
            arm,
        });
        for &k in b {
            match &src.stmts[k].kind {
                StmtKind::Where {
                    arms: a2,
                    else_block: e2,
                    ..
                } => where_leaves(src, k, a2, e2.as_ref(), path, out),
                _ => out.push((path.clone(), k)),
            }
        }
        path.pop();
    }
}
