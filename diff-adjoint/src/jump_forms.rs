//! Which code has jumps, and which loops with EXIT/CYCLE or `break`/`continue` keep their
//! structure in the adjoint (`structjumps.rs` reverses them) rather than being lowered to
//! basic blocks (`jumps.rs`).

use crate::*;

impl<'a> Adj<'_, '_, 'a> {
    /// Whether loop `s`, which has jumps inside (`needs_lowering`), is reversed structurally:
    /// every EXIT/CYCLE/`break`/`continue` inside it goes to its innermost enclosing loop, and
    /// each loop that such a jump leaves or cycles has a form this file reverses.
    pub(crate) fn structured_jump_loop(&self, s: StmtId) -> bool {
        self.pg.g.opts.structured_jumps
            && matches!(
                self.pg.f.src.stmts[s].kind,
                StmtKind::Do { .. }
                    | StmtKind::While { .. }
                    | StmtKind::DoWhile { .. }
                    | StmtKind::CFor { .. }
                    | StmtKind::Loop { .. }
            )
            && self.jump_walk(s, &mut Vec::new())
    }

    /// A loop a jump goes to: a DO with a constant step, DO WHILE, a DO without loop
    /// control, `while`, `do … while`, a C `for` without a step or a simple counted one.
    fn jump_loop_form_ok(&self, l: StmtId) -> bool {
        match &self.pg.f.src.stmts[l].kind {
            StmtKind::Do { step, .. } => step.is_none_or(|x| {
                self.pg
                    .const_value(x)
                    .is_some_and(|v| v != 0.0 && v.fract() == 0.0)
            }),
            StmtKind::While { .. } | StmtKind::DoWhile { .. } | StmtKind::Loop { .. } => true,
            StmtKind::CFor {
                init,
                cond,
                step,
                body,
                ..
            } => step.is_none() || self.canonical_for(*init, *cond, *step, body).is_some(),
            _ => false,
        }
    }

    fn jump_walk(&self, x: StmtId, loops: &mut Vec<StmtId>) -> bool {
        let src = self.pg.f.src;
        let st = &src.stmts[x];
        if !st.directives.is_empty() {
            return false;
        }
        let target_ok = |name: Option<&String>| -> bool {
            let Some(&l) = loops.last() else {
                return false;
            };
            if let Some(n) = name {
                let same = src.stmts[l]
                    .construct_name
                    .as_deref()
                    .is_some_and(|c| c.eq_ignore_ascii_case(n));
                if !same {
                    return false;
                }
            }
            self.jump_loop_form_ok(l)
        };
        match &st.kind {
            StmtKind::Goto(_) if self.loop_gotos.contains_key(&x) => {
                if !target_ok(None) {
                    return false;
                }
            }
            // A DO without loop control ends only by a jump: one of its own EXITs.
            StmtKind::Loop { body } if !self.escapes(body, true) => return false,
            StmtKind::Switch { .. }
            | StmtKind::Goto(_)
            | StmtKind::ComputedGoto { .. }
            | StmtKind::ArithIf { .. }
            | StmtKind::Return(_)
            | StmtKind::CaseLabel(_)
            | StmtKind::Entry { .. } => return false,
            StmtKind::Exit(n) | StmtKind::Cycle(n) => {
                if !target_ok(n.as_ref()) {
                    return false;
                }
            }
            StmtKind::Break | StmtKind::CContinue => {
                if !target_ok(None) {
                    return false;
                }
            }
            _ => {}
        }
        let is_loop = matches!(
            st.kind,
            StmtKind::Do { .. }
                | StmtKind::While { .. }
                | StmtKind::DoWhile { .. }
                | StmtKind::CFor { .. }
                | StmtKind::Loop { .. }
        );
        if is_loop {
            loops.push(x);
        }
        let mut ok = true;
        radtap_il::visit::stmt_children(&st.kind, &mut |_| {}, &mut |k| {
            if ok {
                ok = self.jump_walk(k, loops);
            }
        });
        if is_loop {
            loops.pop();
        }
        ok
    }

    /// Whether a jump may leave the statements `roots` for an enclosing loop (EXIT/`break`
    /// only when `leaving`): loops among them keep their own jumps.
    pub(crate) fn escapes(&self, roots: &[StmtId], leaving: bool) -> bool {
        let src = self.pg.f.src;
        let mut stack = roots.to_vec();
        while let Some(x) = stack.pop() {
            match &src.stmts[x].kind {
                StmtKind::Exit(_) | StmtKind::Break => return true,
                StmtKind::Cycle(_) | StmtKind::CContinue if !leaving => return true,
                StmtKind::Goto(_) => {
                    if let Some(g) = self.loop_gotos.get(&x) {
                        if g.leaves || !leaving {
                            return true;
                        }
                    }
                }
                StmtKind::Do { .. }
                | StmtKind::While { .. }
                | StmtKind::DoWhile { .. }
                | StmtKind::CFor { .. }
                | StmtKind::Loop { .. }
                | StmtKind::Switch { .. } => continue,
                _ => {}
            }
            radtap_il::visit::stmt_children(&src.stmts[x].kind, &mut |_| {}, &mut |k| {
                stack.push(k)
            });
        }
        false
    }

    /// The body needs lowering as a whole: it has GOTOs or a RETURN before its end.
    pub(crate) fn body_has_jumps(&self) -> bool {
        let src = self.pg.f.src;
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
        let src = self.pg.f.src;
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
}
