//! Control: IF and SELECT/`switch` reversed through recorded branch codes.

use crate::*;

impl<'a> Adj<'_, '_, 'a> {
    /// `if (branch == k) …` chain over the backward sweeps of the codes that have one.
    fn branch_chain(&mut self, branch: SymbolId, bwds: Vec<Vec<StmtId>>) -> Vec<StmtId> {
        let total = bwds.len();
        let nonempty: Vec<(usize, Vec<StmtId>)> = bwds
            .into_iter()
            .enumerate()
            .filter(|(_, b)| !b.is_empty())
            .collect();
        if nonempty.is_empty() {
            return Vec::new();
        }
        let all = nonempty.len() == total;
        let mut arms = Vec::new();
        let mut else_block = None;
        let n = nonempty.len();
        for (j, (code, b)) in nonempty.into_iter().enumerate() {
            if all && j == n - 1 && n > 1 {
                else_block = Some(b);
            } else {
                let c = self.eq_test(branch, code as i64);
                arms.push((c, b));
            }
        }
        vec![stmt(
            &mut self.pg.u,
            StmtKind::If {
                arms,
                else_block,
                logical: false,
                braces: Vec::new(),
            },
        )]
    }

    /// The forward code of arm `k`: its control code pushed at its end, and before every
    /// jump that leaves it inside a loop reversed with its jumps (`structjumps.rs`).
    fn arm_control(&mut self, mut f: Vec<StmtId>, bits: u32, k: usize) -> Vec<StmtId> {
        if self.jump_loops > 0 {
            f = self.push_before_jumps(f, bits, k);
            if self.ends_with_jump(&f) {
                return f;
            }
        }
        f.push(self.push_control(bits, k));
        f
    }

    pub(crate) fn adj_if(
        &mut self,
        s: StmtId,
        arms: &'a [(ExprId, Block)],
        else_block: Option<&'a Block>,
    ) -> Rev {
        let st = &self.pg.f.src.stmts[s];
        let mut conds = Vec::new();
        let mut revs = Vec::new();
        for (c, b) in arms {
            conds.push(self.pg.cp(*c));
            revs.push(self.rev_block(b));
        }
        let else_r = else_block.map(|b| self.rev_block(b)).unwrap_or_default();
        revs.push(else_r);
        let any_bwd = revs.iter().any(|r| !r.bwd.is_empty());
        let any_fwd = revs.iter().any(|r| !r.fwd.is_empty());
        if !any_bwd && !any_fwd {
            return Rev::default();
        }
        let n = revs.len();
        if n > 256 {
            return self.unsupported(s, "an IF with more than 255 branches");
        }
        let bits = Self::control_bits(n);
        let joint_arms: Vec<(Vec<StmtId>, Vec<StmtId>)> = revs
            .iter()
            .map(|r| (r.fwd.clone(), r.bwd.clone()))
            .collect();
        let joint_conds = conds.clone();
        let mut fwd_blocks = Vec::new();
        let mut bwds = Vec::new();
        for (k, r) in revs.into_iter().enumerate() {
            let mut f = r.fwd;
            if any_bwd {
                f = self.arm_control(f, bits, k);
            }
            fwd_blocks.push(f);
            bwds.push(r.bwd);
        }
        let else_fwd = fwd_blocks.pop().unwrap_or_default();
        let new_arms: Vec<(ExprId, Block)> = conds.into_iter().zip(fwd_blocks).collect();
        let fwd_if = self.pg.new_like(
            st,
            StmtKind::If {
                arms: new_arms,
                else_block: (!else_fwd.is_empty()).then_some(else_fwd),
                logical: false,
                braces: Vec::new(),
            },
        );
        let mut bwd = Vec::new();
        if any_bwd {
            let branch = self.branch_var();
            bwd.push(self.pop_control(bits, branch));
            bwd.extend(self.branch_chain(branch, bwds));
            if self.pg.g.opts.joint_branches {
                self.joint_ifs.insert(
                    fwd_if,
                    JointIf {
                        src: s,
                        conds: joint_conds,
                        arms: joint_arms,
                        bwd_head: bwd.clone(),
                    },
                );
            }
        }
        Rev {
            fwd: vec![fwd_if],
            bwd,
        }
    }

    /// `fwd` then `mid` then `bwd`, run one after the other (the turn of a joint-mode
    /// procedure). When `fwd` ends with an IF whose control code `bwd` pops first, nothing
    /// between the two sweeps can depend on the code (issue 21, item 5): the IF is kept
    /// whole, each branch running its forward then its backward statements (`if (c) { f0;
    /// b0 } else { f1; b1 }`, no `pushControl1b`/`popControl1b`, and gcc sees both sweeps of
    /// a branch together, e.g. to share `sin`/`cos`), recursively at the end of each branch.
    /// `mid` (the backward sweep's prologue: adjoints set to zero, which the forward sweep
    /// never reads or writes) goes before the IF. `-nooptim deadcontrol` keeps the codes.
    pub(crate) fn join_at_turn(
        &mut self,
        mut fwd: Vec<StmtId>,
        mid: Vec<StmtId>,
        mut bwd: Vec<StmtId>,
    ) -> Vec<StmtId> {
        let joint = fwd.last().copied().filter(|l| {
            self.joint_ifs
                .get(l)
                .is_some_and(|j| bwd.starts_with(&j.bwd_head))
        });
        let Some(j) = joint.and_then(|l| self.joint_ifs.remove(&l)) else {
            fwd.extend(mid);
            fwd.extend(bwd);
            return fwd;
        };
        fwd.pop();
        bwd.drain(..j.bwd_head.len());
        self.control_pops -= 1;
        let mut blocks: Vec<Vec<StmtId>> = j
            .arms
            .into_iter()
            .map(|(f, b)| self.join_at_turn(f, Vec::new(), b))
            .collect();
        let else_block = blocks.pop().filter(|b| !b.is_empty());
        let arms: Vec<(ExprId, Block)> = j.conds.into_iter().zip(blocks).collect();
        let st = &self.pg.f.src.stmts[j.src];
        let whole = self.pg.new_like(
            st,
            StmtKind::If {
                arms,
                else_block,
                logical: false,
                braces: Vec::new(),
            },
        );
        fwd.extend(mid);
        fwd.push(whole);
        fwd.extend(bwd);
        fwd
    }

    pub(crate) fn adj_select(&mut self, s: StmtId, selector: ExprId, cases: &'a [Case]) -> Rev {
        let st = &self.pg.f.src.stmts[s];
        let sel = self.pg.cp(selector);
        let mut revs = Vec::new();
        let mut values = Vec::new();
        let mut has_default = false;
        for c in cases {
            let vs: Vec<CaseValue> = c
                .values
                .iter()
                .map(|v| match v {
                    CaseValue::Value(e) => CaseValue::Value(self.pg.cp(*e)),
                    CaseValue::Range(a, b) => {
                        CaseValue::Range(a.map(|x| self.pg.cp(x)), b.map(|x| self.pg.cp(x)))
                    }
                })
                .collect();
            has_default |= vs.is_empty();
            values.push(vs);
            revs.push(self.rev_block(&c.body));
        }
        if !has_default {
            values.push(Vec::new());
            revs.push(Rev::default());
        }
        let any_bwd = revs.iter().any(|r| !r.bwd.is_empty());
        let n = revs.len();
        let bits = Self::control_bits(n);
        let mut new_cases = Vec::new();
        let mut bwds = Vec::new();
        for (k, (r, vs)) in revs.into_iter().zip(values).enumerate() {
            let mut f = r.fwd;
            if any_bwd {
                f = self.arm_control(f, bits, k);
            }
            if !f.is_empty() || k < cases.len() {
                new_cases.push(Case {
                    values: vs,
                    body: f,
                });
            }
            bwds.push(r.bwd);
        }
        let fwd = self.pg.new_like(
            st,
            StmtKind::Select {
                selector: sel,
                cases: new_cases,
            },
        );
        let mut bwd = Vec::new();
        if any_bwd {
            let branch = self.branch_var();
            bwd.push(self.pop_control(bits, branch));
            bwd.extend(self.branch_chain(branch, bwds));
        }
        Rev {
            fwd: vec![fwd],
            bwd,
        }
    }
}
