//! The statement dispatch of the tangent, vector-mode direction loops, and the pointer
//! assignments' derivatives.

use crate::prelude::*;

impl<'a> Tan<'_, '_, 'a> {
    fn merge_dir_loops(&mut self, b: Block) -> Block {
        let mut out: Block = Vec::new();
        for s in b {
            if let Some(&last) = out.last() {
                if self.dir_loops.contains(&last) && self.dir_loops.contains(&s) {
                    let body = match &self.u.stmts[s].kind {
                        StmtKind::Do { body, .. } | StmtKind::CFor { body, .. } => body.clone(),
                        _ => Vec::new(),
                    };
                    match &mut self.u.stmts[last].kind {
                        StmtKind::Do { body: lb, .. } | StmtKind::CFor { body: lb, .. } => {
                            lb.extend(body)
                        }
                        _ => {}
                    }
                    continue;
                }
            }
            out.push(s);
        }
        out
    }

    /// The statements replacing `s` ([`Self::stmt_rule`]), each carrying the span of `s`
    /// unless a statement inside it gave it its own: the unparser maps every generated line
    /// back to the primal line it comes from (`-html`, the web page).
    pub(crate) fn stmt(&mut self, s: StmtId) -> Vec<StmtId> {
        let out = self.stmt_rule(s);
        if self.f.src.stmts[s].omp.is_some() && !self.f.adjoint {
            self.tangent_omp(s, &out);
        }
        if let Some(sp) = self.f.src.source_map.stmt.get(s).copied() {
            for &n in &out {
                if self.u.source_map.stmt.get(n).is_none() {
                    self.u.source_map.stmt.insert(n, sp);
                }
            }
        }
        out
    }

    /// The rule of each statement kind. Returns the statements replacing `s`: derivative
    /// statements first, then the primal one; a label moves to the first.
    fn stmt_rule(&mut self, s: StmtId) -> Vec<StmtId> {
        let st: &'a Stmt = &self.f.src.stmts[s];
        if self.check_expr_effects(s) {
            return vec![self.copy_stmt(s)];
        }
        let out = match &st.kind {
            StmtKind::Assign { lhs, op, rhs } => self.assign_rule(s, *lhs, *op, *rhs),
            StmtKind::PointerAssign { lhs, rhs } => {
                let mut out = vec![self.copy_stmt(s)];
                if let (Some(dl), Some(dr)) =
                    (self.dref(*lhs, Dir::Omit), self.dref(*rhs, Dir::All))
                {
                    out.push(stmt(
                        &mut self.u,
                        StmtKind::PointerAssign { lhs: dl, rhs: dr },
                    ));
                }
                out
            }
            StmtKind::Call { callee, args, .. } => self.call_rule(s, *callee, args),
            StmtKind::Expr(e) => {
                self.check_side_effects(s);
                let mut out = vec![self.copy_stmt(s)];
                if let Some(m) = self.pointer_mirror(*e) {
                    out.push(stmt(&mut self.u, StmtKind::Expr(m)));
                }
                out
            }
            StmtKind::If {
                arms,
                else_block,
                logical,
                braces,
            } => {
                let mut new_arms = Vec::new();
                let mut single = true;
                for (c, b) in arms {
                    let c2 = self.cp(*c);
                    let b2 = self.block(b);
                    single &= b2.len() == 1;
                    new_arms.push((c2, b2));
                }
                let else2 = else_block.as_ref().map(|b| self.block(b));
                vec![self.new_like(
                    st,
                    StmtKind::If {
                        arms: new_arms,
                        else_block: else2,
                        logical: *logical && single,
                        braces: braces.clone(),
                    },
                )]
            }
            StmtKind::Do {
                var,
                start,
                end,
                step,
                body,
                term_label: _,
            } => {
                let (var, start, end) = (self.cp(*var), self.cp(*start), self.cp(*end));
                let step = step.map(|x| self.cp(x));
                let body = self.block(body);
                // Labelled DOs become DO … END DO: derivative statements may follow the
                // terminal statement.
                vec![self.new_like(
                    st,
                    StmtKind::Do {
                        var,
                        start,
                        end,
                        step,
                        body,
                        term_label: None,
                    },
                )]
            }
            StmtKind::While { cond, body, .. } => {
                let cond = self.cp(*cond);
                let body = self.block(body);
                vec![self.new_like(
                    st,
                    StmtKind::While {
                        cond,
                        body,
                        term_label: None,
                    },
                )]
            }
            StmtKind::Loop { body } => {
                let body = self.block(body);
                vec![self.new_like(st, StmtKind::Loop { body })]
            }
            StmtKind::CFor {
                init,
                cond,
                step,
                body,
                braced,
            } => {
                // An initialisation with derivative statements runs before the loop.
                let mut before = init.map(|i| self.stmt(i)).unwrap_or_default();
                let init = if before.len() == 1 {
                    before.pop()
                } else {
                    None
                };
                let cond = cond.map(|c| self.cp(c));
                let step = step.map(|c| {
                    let c2 = self.cp(c);
                    match self.pointer_mirror(c) {
                        Some(m) => self.b().e(Expr::Comma(vec![c2, m])),
                        None => c2,
                    }
                });
                let body = self.block(body);
                before.push(self.new_like(
                    st,
                    StmtKind::CFor {
                        init,
                        cond,
                        step,
                        body,
                        braced: *braced,
                    },
                ));
                before
            }
            StmtKind::DoWhile { body, cond } => {
                let body = self.block(body);
                let cond = self.cp(*cond);
                vec![self.new_like(st, StmtKind::DoWhile { body, cond })]
            }
            StmtKind::Select { selector, cases } => {
                let selector = self.cp(*selector);
                let mut cs = Vec::new();
                for c in cases {
                    let values = c
                        .values
                        .iter()
                        .map(|v| match v {
                            CaseValue::Value(e) => CaseValue::Value(self.cp(*e)),
                            CaseValue::Range(a, b) => {
                                CaseValue::Range(a.map(|x| self.cp(x)), b.map(|x| self.cp(x)))
                            }
                        })
                        .collect();
                    let body = self.block(&c.body);
                    cs.push(Case { values, body });
                }
                vec![self.new_like(
                    st,
                    StmtKind::Select {
                        selector,
                        cases: cs,
                    },
                )]
            }
            StmtKind::Switch { expr, body } => {
                let expr = self.cp(*expr);
                let body = self.block(body);
                vec![self.new_like(st, StmtKind::Switch { expr, body })]
            }
            StmtKind::Where {
                arms,
                else_block,
                single,
            } => self.where_rule(s, arms, else_block.as_ref(), *single),
            StmtKind::Forall {
                specs,
                mask,
                body,
                single,
            } => self.forall_rule(s, specs, *mask, body, *single),
            StmtKind::Block {
                scope,
                decls,
                body,
                associations,
                construct,
            } => {
                let c = Copier { src: self.f.src };
                let decls = decls.iter().map(|d| c.decl(&mut self.u, d)).collect();
                let associations = associations
                    .iter()
                    .map(|(s, e)| (*s, self.cp(*e)))
                    .collect();
                let body = self.block(body);
                vec![self.new_like(
                    st,
                    StmtKind::Block {
                        scope: *scope,
                        decls,
                        body,
                        associations,
                        construct: *construct,
                    },
                )]
            }
            StmtKind::Decl(d) => self.decl_rule(s, d),
            StmtKind::Return(Some(e)) if self.result_ptr.is_some() => self.c_return(s, *e),
            StmtKind::Memory { op, items, options } => {
                let mut out = vec![self.copy_stmt(s)];
                let mut ditems = Vec::new();
                let mut per_dir = Vec::new();
                for &it in items {
                    if let Some(d) = self.alloc_item(it, *op) {
                        ditems.push(d);
                    } else if let Some(d) = self.component_alloc_item(it, *op) {
                        // `allocate(r%w(n))`: the derivative component `rd%w` (one per
                        // direction, `rd(nd)%w`) is allocated alike; left unallocated, the
                        // derivative code wrote through an unallocated array.
                        let st = stmt(
                            &mut self.u,
                            StmtKind::Memory {
                                op: *op,
                                items: vec![d],
                                options: Vec::new(),
                            },
                        );
                        per_dir.push(st);
                    }
                }
                if !per_dir.is_empty() {
                    let v = self.dir(per_dir);
                    out.extend(v);
                }
                if !ditems.is_empty() {
                    let _ = options;
                    out.push(stmt(
                        &mut self.u,
                        StmtKind::Memory {
                            op: *op,
                            items: ditems,
                            options: Vec::new(),
                        },
                    ));
                }
                out
            }
            StmtKind::Io { kind, items, .. } => {
                let mut out = vec![self.copy_stmt(s)];
                let Some(i) = self.pid(s).filter(|_| *kind == IoKind::Read) else {
                    return out;
                };
                // A value read is a constant: the derivative of each item still useful is
                // reset after the READ.
                let mut unhandled = false;
                for &it in items {
                    if !(self.has_dvar_ref(it) && self.ref_in(it, &self.f.act.useful_after[i])) {
                        continue;
                    }
                    let k = self.real_kind(it);
                    match self.dref(it, Dir::Nd) {
                        Some(dl) => {
                            let z = self.b().zero(k);
                            let st = assign(&mut self.u, dl, z);
                            let v = self.dir(vec![st]);
                            out.extend(v);
                        }
                        None => unhandled = true,
                    }
                }
                // An item that carried a derivative (varied), even one no longer useful
                // because the READ overwrites it whole, loses it.
                let was_active = items.iter().any(|&it| {
                    self.ref_in(it, &self.f.act.active_before[i])
                        || self.ref_in(it, &self.f.act.varied_before[i])
                });
                if was_active || unhandled {
                    self.warn(s, Code::ActiveIo, "this READ overwrites an active variable: the value read is taken as a constant and the derivative it had is lost");
                }
                out
            }
            StmtKind::Entry { .. } => {
                self.error(s, Code::Unsupported, "ENTRY in a procedure that is differentiated is not supported; split the entry into its own procedure");
                vec![self.copy_stmt(s)]
            }
            StmtKind::Return(_)
            | StmtKind::Exit(_)
            | StmtKind::Cycle(_)
            | StmtKind::Break
            | StmtKind::CContinue
            | StmtKind::Goto(_)
            | StmtKind::ComputedGoto { .. }
            | StmtKind::ArithIf { .. }
            | StmtKind::Stop { .. }
            | StmtKind::Continue
            | StmtKind::Empty
            | StmtKind::Format(_)
            | StmtKind::CaseLabel(_)
            | StmtKind::Comment(_) => vec![self.copy_stmt(s)],
        };
        self.report_lost_derivative(s);
        self.move_label(st, out)
    }
}

impl Blocks for Tan<'_, '_, '_> {
    /// The derivative of a block, with adjacent direction loops merged; its `$AD
    /// DO-NOT-DIFF` regions are primal code with zero derivatives out (`nodiff.rs`).
    fn block(&mut self, b: &[StmtId]) -> Block {
        use radtap_il::directives::{block_regions, RegionKind};
        let (regions, _) = block_regions(&self.f.src.stmts, b);
        let mut out = Vec::new();
        let mut k = 0;
        while k < b.len() {
            let nodiff = regions
                .iter()
                .filter(|r| r.kind == RegionKind::DoNotDiff && r.start == k)
                .map(|r| r.end)
                .max();
            if let Some(end) = nodiff {
                let stmts = &b[k..end];
                match self.region_refusal(stmts, &DirectiveKind::DoNotDiff) {
                    Some((s, what)) => {
                        let msg = format!("{what} is not supported");
                        self.error(s, Code::Unsupported, &msg);
                    }
                    None => out.extend(self.nodiff_block(stmts).0),
                }
                k = end;
                continue;
            }
            let v = self.stmt(b[k]);
            out.extend(v);
            k += 1;
        }
        self.merge_dir_loops(out)
    }
}
