//! Control flow: IF constructs and logical IF, DO loops (labelled, shared termination,
//! DO WHILE), and the jump statements (EXIT, CYCLE, CONTINUE, RETURN, GO TO).

use super::lower::*;
use crate::ts::named_children;
use crate::ts::Field;
use radtap_il::*;
use tree_sitter::Node;

impl<'a, 't> FortranLowering<'a, 't> {
    pub(super) fn if_stmt(&mut self, n: Node<'t>, label: Option<String>) -> Option<StmtId> {
        let kids = named_children(n);
        let cond_node = *kids
            .iter()
            .find(|c| c.kind() == "parenthesized_expression")?;
        let cond = self.paren_inner(cond_node);
        let block_form = kids.iter().any(|c| c.kind() == "end_if_statement");
        let cn = self.construct_name(n);
        if !block_form {
            // Logical IF: one statement.
            let dirs = std::mem::take(&mut self.pending_dirs);
            let inner = kids
                .iter()
                .find(|c| c.start_byte() > cond_node.end_byte() && c.kind() != "comment")?;
            let s = self.stmt(*inner, None)?;
            self.pending_dirs = dirs;
            return Some(self.push_stmt(
                StmtKind::If {
                    arms: vec![(cond, vec![s])],
                    else_block: None,
                    logical: true,
                    braces: vec![],
                },
                n,
                label,
                cn,
            ));
        }
        let dirs = std::mem::take(&mut self.pending_dirs);
        let first: Vec<Node> = kids
            .iter()
            .copied()
            .filter(|c| {
                c.start_byte() > cond_node.end_byte()
                    && !matches!(
                        c.kind(),
                        "elseif_clause"
                            | "else_clause"
                            | "end_if_statement"
                            | "block_label_start_expression"
                    )
            })
            .collect();
        let b = self.block(&first);
        let mut arms = vec![(cond, b)];
        let mut else_block = None;
        for c in &kids {
            match c.kind() {
                "elseif_clause" => {
                    let ek = named_children(*c);
                    let Some(pe) = ek
                        .iter()
                        .find(|x| x.kind() == "parenthesized_expression")
                        .copied()
                    else {
                        continue;
                    };
                    let ce = self.paren_inner(pe);
                    let stmts: Vec<Node> = ek
                        .into_iter()
                        .filter(|x| x.start_byte() > pe.end_byte() && x.kind() != "block_label")
                        .collect();
                    let b = self.block(&stmts);
                    arms.push((ce, b));
                }
                "else_clause" => {
                    let stmts: Vec<Node> = named_children(*c)
                        .into_iter()
                        .filter(|x| x.kind() != "block_label")
                        .collect();
                    else_block = Some(self.block(&stmts));
                }
                _ => {}
            }
        }
        self.pending_dirs = dirs;
        Some(self.push_stmt(
            StmtKind::If {
                arms,
                else_block,
                logical: false,
                braces: vec![],
            },
            n,
            label,
            cn,
        ))
    }

    pub(super) fn do_loop(&mut self, n: Node<'t>, label: Option<String>) -> Option<StmtId> {
        let kids = named_children(n);
        let ds = *kids.iter().find(|c| c.kind() == "do_statement")?;
        let cn = self.construct_name(n);
        let dirs = std::mem::take(&mut self.pending_dirs);
        let term_label = ds.field("do_label").map(|l| self.t(l).trim().to_string());
        let body_nodes: Vec<Node> = kids
            .iter()
            .copied()
            .filter(|c| {
                !matches!(
                    c.kind(),
                    "do_statement"
                        | "block_label_start_expression"
                        | "end_do_loop_statement"
                        | "end_do_label_loop_statement"
                )
            })
            .collect();
        // A labelled DO's terminal statement lives inside its end node.
        let mut terminal: Option<Node> = None;
        if let Some(end) = kids
            .iter()
            .find(|c| c.kind() == "end_do_label_loop_statement")
        {
            for x in named_children(*end) {
                if x.kind() != "statement_label"
                    && x.kind() != "do_label_virtual"
                    && x.kind() != "block_label"
                    && x.kind() != "comment"
                {
                    terminal = Some(x);
                }
            }
        }
        let mut body = self.block(&body_nodes);
        if let (Some(t), Some(l)) = (terminal, term_label.clone()) {
            if let Some(ts) = self.stmt(t, Some(l.clone())) {
                // Shared termination: the terminal statement belongs to the innermost loop
                // that ends on the same label.
                let mut owner: Option<StmtId> = None;
                loop {
                    let u = self.unit();
                    let last = match owner {
                        None => body.last().copied(),
                        Some(o) => match &u.stmts[o].kind {
                            StmtKind::Do { body: b, .. } | StmtKind::While { body: b, .. } => {
                                b.last().copied()
                            }
                            _ => None,
                        },
                    };
                    let Some(ls) = last else { break };
                    match &u.stmts[ls].kind {
                        StmtKind::Do {
                            term_label: Some(tl),
                            ..
                        }
                        | StmtKind::While {
                            term_label: Some(tl),
                            ..
                        } if *tl == l => owner = Some(ls),
                        _ => break,
                    }
                }
                match owner {
                    None => body.push(ts),
                    Some(o) => {
                        if let StmtKind::Do { body: b, .. } | StmtKind::While { body: b, .. } =
                            &mut self.unit().stmts[o].kind
                        {
                            b.push(ts);
                        }
                    }
                }
            }
        }
        let mut control = None;
        let mut while_cond = None;
        for c in named_children(ds) {
            match c.kind() {
                "loop_control_expression" => control = Some(c),
                "while_statement" => {
                    while_cond = named_children(c)
                        .into_iter()
                        .find(|x| x.kind() == "parenthesized_expression")
                }
                "concurrent_statement" => {
                    self.pending_dirs = dirs;
                    return self.do_concurrent(c, n, body, label, cn);
                }
                _ => {}
            }
        }
        self.pending_dirs = dirs;
        let kind = if let Some(lc) = control {
            let ks: Vec<Node> = named_children(lc)
                .into_iter()
                .filter(|c| c.kind() != "comment")
                .collect();
            if ks.len() < 3 {
                self.unsupported(lc, "this loop control");
                return None;
            }
            let var = self.expr(ks[0]);
            let start = self.expr(ks[1]);
            let end = self.expr(ks[2]);
            let step = ks.get(3).map(|s| self.expr(*s));
            StmtKind::Do {
                var,
                start,
                end,
                step,
                body,
                term_label,
            }
        } else if let Some(w) = while_cond {
            let cond = self.paren_inner(w);
            StmtKind::While {
                cond,
                body,
                term_label,
            }
        } else {
            if term_label.is_some() {
                self.unsupported(ds, "labelled DO without loop control");
            }
            StmtKind::Loop { body }
        };
        Some(self.push_stmt(kind, n, label, cn))
    }

    /// `do concurrent (i = a:b[:s], j = ..., mask)`: the iterations are independent, so the
    /// loop is the nest of counted DO loops over its controls (first control outermost) with
    /// the mask as an IF around the body; it is written back as that nest. A construct name
    /// goes on the innermost loop, where `cycle name` means the same. A type-spec (`integer
    /// ::`, index variables local to the loop) and locality specifiers (`local(t)`) are
    /// refused.
    fn do_concurrent(
        &mut self,
        c: Node<'t>,
        n: Node<'t>,
        body: Block,
        label: Option<String>,
        cn: Option<String>,
    ) -> Option<StmtId> {
        let parts = named_children(c);
        if let Some(l) = parts.iter().find(|x| x.kind() == "concurrent_locality") {
            self.unsupported(*l, "DO CONCURRENT with locality specifiers");
            return None;
        }
        let header = *parts.iter().find(|x| x.kind() == "concurrent_header")?;
        if let Some(t) = header.field("type") {
            self.unsupported(t, "DO CONCURRENT with a type-spec");
            return None;
        }
        let mut controls = Vec::new();
        let mut mask = None;
        for x in named_children(header) {
            match x.kind() {
                "concurrent_control" => {
                    let var = named_children(x)
                        .into_iter()
                        .find(|v| v.kind() == "identifier")?;
                    let (Some(lo), Some(hi)) = (x.field("initial"), x.field("final")) else {
                        self.unsupported(x, "this DO CONCURRENT control");
                        return None;
                    };
                    let step = x.field("step");
                    controls.push((var, lo, hi, step));
                }
                "concurrent_mask" => {
                    let e = named_children(x)
                        .into_iter()
                        .find(|v| v.kind() != "comment")?;
                    mask = Some(self.expr(e));
                }
                "comment" => {}
                _ => {
                    self.unsupported(x, "this DO CONCURRENT header");
                    return None;
                }
            }
        }
        if controls.is_empty() {
            self.unsupported(header, "DO CONCURRENT without a control");
            return None;
        }
        let mut body = body;
        if let Some(m) = mask {
            let s = self.push_stmt(
                StmtKind::If {
                    arms: vec![(m, body)],
                    else_block: None,
                    logical: false,
                    braces: vec![],
                },
                n,
                None,
                None,
            );
            body = vec![s];
        }
        let dirs = std::mem::take(&mut self.pending_dirs);
        let last = controls.len() - 1;
        let mut vars = Vec::new();
        for (i, (var, lo, hi, step)) in controls.into_iter().enumerate().rev() {
            let var = self.expr(var);
            if let Expr::Name(v) = self.unit().exprs[var] {
                vars.push(v);
            }
            let kind = StmtKind::Do {
                var,
                start: self.expr(lo),
                end: self.expr(hi),
                step: step.map(|s| self.expr(s)),
                body,
                term_label: None,
            };
            if i == 0 {
                self.pending_dirs = dirs;
                let name = if last == 0 { cn } else { None };
                let id = self.push_stmt(kind, n, label, name);
                self.concurrent.push((id, vars));
                return Some(id);
            }
            let name = if i == last { cn.clone() } else { None };
            body = vec![self.push_stmt(kind, n, None, name)];
        }
        None
    }

    pub(super) fn keyword_stmt(&mut self, n: Node<'t>) -> Option<StmtKind> {
        let first = n.child(0)?;
        let kw = self.t(first).to_ascii_lowercase();
        let named: Vec<Node> = named_children(n)
            .into_iter()
            .filter(|c| c.kind() != "comment")
            .collect();
        let labels: Vec<String> = named
            .iter()
            .filter(|c| c.kind() == "statement_label_reference")
            .map(|c| self.t(*c).trim().to_string())
            .collect();
        Some(match kw.as_str() {
            "exit" => StmtKind::Exit(named.first().map(|c| self.t(*c).to_string())),
            "cycle" => StmtKind::Cycle(named.first().map(|c| self.t(*c).to_string())),
            "continue" => StmtKind::Continue,
            "return" => {
                if let Some(e) = named.first() {
                    self.unsupported(*e, "alternate RETURN");
                    return None;
                }
                StmtKind::Return(None)
            }
            "go" | "goto" => {
                let sel = named
                    .iter()
                    .find(|c| c.kind() != "statement_label_reference");
                match (labels.len(), sel) {
                    (1, None) if !self.t(n).contains('(') => StmtKind::Goto(labels[0].clone()),
                    (_, Some(e)) if !labels.is_empty() => StmtKind::ComputedGoto {
                        labels,
                        expr: self.expr(*e),
                    },
                    _ => {
                        self.unsupported(
                            n,
                            "assigned GOTO (rewrite with an integer variable and a computed GOTO)",
                        );
                        return None;
                    }
                }
            }
            _ => {
                self.unsupported(n, &format!("the `{kw}` statement"));
                return None;
            }
        })
    }
}
