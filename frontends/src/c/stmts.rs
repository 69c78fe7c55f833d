//! Statements: compound statements and bodies with their block scopes, labels and `case`
//! labels, comments and `$AD` directives, and each statement kind (an expression statement
//! becomes an assignment or a call when it is one).

use super::{compound_op, CLower};
use crate::fortran::parse_directive;
use crate::ts::Field;
use crate::ts::{named_children, trails};
use radtap_il::*;
use tree_sitter::Node;

impl<'a, 's> CLower<'a, 's> {
    fn push(&mut self, kind: StmtKind, n: Node, label: Option<String>) -> StmtId {
        let sp = self.sp(n);
        let dirs = std::mem::take(&mut self.pending_dirs);
        let u = self.u();
        let id = u.stmts.alloc(Stmt {
            kind,
            label,
            construct_name: None,
            directives: dirs,
            comment: None,
        });
        u.source_map.stmt.insert(id, sp);
        id
    }

    /// Statements of a compound statement, without opening a scope (the caller does).
    pub(super) fn compound_items(&mut self, n: Node) -> Block {
        let mut out = Vec::new();
        for c in named_children(n) {
            self.stmt_into(c, None, &mut out);
        }
        // Directives after the last statement (`$AD CHECKPOINT-END` closing a loop body)
        // stay in this block, on an empty statement at the last one's line, instead of
        // moving to the statement after the construct.
        if let Some(sp) = self.pending_dirs.last().and_then(|d| d.span) {
            let s = self.push(StmtKind::Empty, n, None);
            self.u().source_map.stmt.insert(s, sp);
            out.push(s);
        }
        out
    }

    /// A statement used as a body (if arm, loop body): a compound's statements in a new scope,
    /// or the single statement in a new scope.
    fn body(&mut self, n: Node) -> Block {
        let outer = self.scope;
        self.scope = self
            .p
            .scopes
            .alloc(ScopeData::new(ScopeKind::Block, Some(outer)));
        let b = if n.kind() == "compound_statement" {
            self.compound_items(n)
        } else {
            let mut out = Vec::new();
            self.stmt_into(n, None, &mut out);
            out
        };
        self.scope = outer;
        b
    }

    pub(super) fn stmt_into(&mut self, n: Node, label: Option<String>, out: &mut Block) {
        match n.kind() {
            "comment" => {
                let t = self.t(n).to_string();
                match parse_directive(&t) {
                    Some(mut d) => {
                        d.span = Some(self.sp(n));
                        self.pending_dirs.push(d)
                    }
                    None => {
                        // A comment at the end of the line of the statement just lowered
                        // stays on that statement's line.
                        let owner = n
                            .prev_named_sibling()
                            .filter(|p| p.kind() != "comment" && trails(*p, n));
                        let last =
                            out.last().copied().filter(|&l| {
                                let u = self.u();
                                u.stmts[l].comment.is_none()
                                    && owner.is_some_and(|p| {
                                        let sp = self.sp(p);
                                        self.u().source_map.stmt.get(l).is_some_and(|ls| {
                                            (ls.line, ls.col) == (sp.line, sp.col)
                                        })
                                    })
                            });
                        match last {
                            Some(l) => self.u().stmts[l].comment = Some(t),
                            None => {
                                let s = self.push(StmtKind::Comment(t), n, None);
                                out.push(s);
                            }
                        }
                    }
                }
            }
            "preproc_call" if self.t(n).trim_start().starts_with("#pragma") => {
                let s = self.pragma(n);
                out.push(s);
            }
            "case_statement" => {
                let value = n.field("value").map(|v| self.expr(v));
                let s = self.push(StmtKind::CaseLabel(value), n, label);
                out.push(s);
                let vnode = n.field("value");
                for c in named_children(n) {
                    if Some(c) == vnode {
                        continue;
                    }
                    self.stmt_into(c, None, out);
                }
            }
            "labeled_statement" => {
                let l = n.field("label").map(|x| self.t(x).to_string());
                let inner = named_children(n)
                    .into_iter()
                    .find(|c| c.kind() != "statement_identifier" && c.kind() != "comment");
                match inner {
                    Some(i) => self.stmt_into(i, l, out),
                    None => {
                        let s = self.push(StmtKind::Empty, n, l);
                        out.push(s);
                    }
                }
            }
            "ERROR" => {}
            "expression_statement" if label.is_none() && self.statement_macro(n, out) => {}
            _ => {
                // The directives written before this statement are its own, not those of
                // the first statement of its body (lowered before it).
                let dirs = std::mem::take(&mut self.pending_dirs);
                if let Some(s) = self.stmt(n, label) {
                    let u = self.u();
                    let mut own = dirs;
                    own.append(&mut u.stmts[s].directives);
                    u.stmts[s].directives = own;
                    out.push(s);
                } else {
                    self.pending_dirs.splice(0..0, dirs);
                }
            }
        }
    }

    fn stmt(&mut self, n: Node, label: Option<String>) -> Option<StmtId> {
        let kind = match n.kind() {
            "expression_statement" => match named_children(n)
                .into_iter()
                .find(|c| c.kind() != "comment")
            {
                None => StmtKind::Empty,
                Some(e) => self.expr_stmt(e),
            },
            "declaration" => StmtKind::Decl(Decl::var(self.declaration(n)?)),
            "type_definition" => StmtKind::Decl(Decl::var(self.declaration(n)?)),
            "compound_statement" => {
                let outer = self.scope;
                let sc = self
                    .p
                    .scopes
                    .alloc(ScopeData::new(ScopeKind::Block, Some(outer)));
                self.scope = sc;
                let body = self.compound_items(n);
                self.scope = outer;
                StmtKind::Block {
                    scope: Some(sc),
                    decls: vec![],
                    body,
                    associations: vec![],
                    construct: BlockKind::C,
                }
            }
            "if_statement" => {
                let mut arms = Vec::new();
                let mut else_block = None;
                let mut cur = n;
                loop {
                    let cond = self.paren(cur.field("condition")?);
                    let b = self.body(cur.field("consequence")?);
                    arms.push((cond, b));
                    match cur.field("alternative") {
                        None => break,
                        Some(alt) => {
                            let inner = named_children(alt)
                                .into_iter()
                                .find(|c| c.kind() != "comment")?;
                            if inner.kind() == "if_statement" {
                                cur = inner;
                            } else {
                                else_block = Some(self.body(inner));
                                break;
                            }
                        }
                    }
                }
                StmtKind::If {
                    arms,
                    else_block,
                    logical: false,
                    braces: vec![],
                }
            }
            "for_statement" => {
                let outer = self.scope;
                self.scope = self
                    .p
                    .scopes
                    .alloc(ScopeData::new(ScopeKind::Block, Some(outer)));
                let init = match n.field("initializer") {
                    Some(i) if i.kind() == "declaration" => {
                        let v = self.declaration(i)?;
                        Some(self.push(StmtKind::Decl(Decl::var(v)), i, None))
                    }
                    Some(i) => {
                        let k = self.expr_stmt(i);
                        Some(self.push(k, i, None))
                    }
                    None => None,
                };
                let cond = n.field("condition").map(|c| self.expr(c));
                let step = n.field("update").map(|c| self.expr(c));
                let body = self.body(n.field("body")?);
                self.scope = outer;
                StmtKind::CFor {
                    init,
                    cond,
                    step,
                    body,
                    braced: true,
                }
            }
            "while_statement" => {
                let cond = self.paren(n.field("condition")?);
                let body = self.body(n.field("body")?);
                StmtKind::While {
                    cond,
                    body,
                    term_label: None,
                }
            }
            "do_statement" => {
                let body = self.body(n.field("body")?);
                let cond = self.paren(n.field("condition")?);
                StmtKind::DoWhile { body, cond }
            }
            "switch_statement" => {
                let expr = self.paren(n.field("condition")?);
                let body = self.body(n.field("body")?);
                StmtKind::Switch { expr, body }
            }
            "break_statement" => StmtKind::Break,
            "continue_statement" => StmtKind::CContinue,
            "goto_statement" => StmtKind::Goto(self.t(n.field("label")?).to_string()),
            "return_statement" => StmtKind::Return(
                named_children(n)
                    .into_iter()
                    .find(|c| c.kind() != "comment")
                    .map(|e| self.expr(e)),
            ),
            "preproc_if"
            | "preproc_ifdef"
            | "preproc_call"
            | "preproc_def"
            | "preproc_function_def"
            | "preproc_include" => {
                self.unsupported(
                    n,
                    "preprocessor directives inside a function: run the C preprocessor first",
                );
                return None;
            }
            "struct_specifier" | "union_specifier" | "enum_specifier" => {
                let spec = self.type_spec_node(n, vec![]);
                StmtKind::Decl(Decl::var(VarDecl {
                    spec,
                    attrs: vec![],
                    entities: vec![],
                    double_colon: false,
                }))
            }
            other => {
                self.unsupported(n, &format!("statement `{other}`"));
                return None;
            }
        };
        Some(self.push(kind, n, label))
    }

    fn paren(&mut self, n: Node) -> ExprId {
        if n.kind() == "parenthesized_expression" {
            if let Some(i) = named_children(n)
                .into_iter()
                .find(|c| c.kind() != "comment")
            {
                return self.expr(i);
            }
        }
        self.expr(n)
    }

    fn expr_stmt(&mut self, e: Node) -> StmtKind {
        match e.kind() {
            "assignment_expression" => {
                let op = e
                    .field("operator")
                    .map(|o| self.t(o).to_string())
                    .unwrap_or_default();
                let (Some(l), Some(r)) = (e.field("left"), e.field("right")) else {
                    return StmtKind::Expr(self.opaque(e));
                };
                let lhs = self.lvalue(l);
                let rhs = self.expr(r);
                StmtKind::Assign {
                    lhs,
                    op: compound_op(&op),
                    rhs,
                }
            }
            "call_expression" => {
                let id = self.expr(e);
                match self.p.units[self.unit].exprs[id].clone() {
                    Expr::Call { callee, args } => StmtKind::Call {
                        callee,
                        args,
                        no_parens: false,
                    },
                    _ => StmtKind::Expr(id),
                }
            }
            _ => StmtKind::Expr(self.expr(e)),
        }
    }
}

impl CLower<'_, '_> {
    /// A `#pragma` line inside a function: kept where it stands, as a comment, so the file
    /// is not refused for it and the other functions differentiate as usual. A pragma
    /// that changes how the code runs in parallel (`omp`, `acc`) is not applied to the
    /// derivatives, which then run that code sequentially (right, if slower): kept as a
    /// comment it cannot make an adjoint loop, whose increments would race, parallel.
    /// OpenMP derivatives are another issue; the warning says so at the line.
    fn pragma(&mut self, n: Node) -> StmtId {
        let text = self.t(n).trim_end().replace("\\\n", " ");
        let words: Vec<&str> = text.split_whitespace().collect();
        let kind = words.get(1).copied().unwrap_or("");
        let parallel = matches!(kind, "omp" | "acc");
        if parallel {
            let sp = self.sp(n);
            self.diags.push(Diagnostic::warning(
                Code::Unsupported,
                sp,
                format!(
                    "`#pragma {kind}` is not applied to the generated code: it runs this \
                     code sequentially (derivatives of parallel regions are not supported yet)"
                ),
            ));
        }
        let comment = if parallel {
            format!("/* {text} (radtap: not applied) */")
        } else {
            format!("/* {text} */")
        };
        self.push(StmtKind::Comment(comment), n, None)
    }
}
