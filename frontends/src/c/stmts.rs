//! Statements: compound statements and bodies with their block scopes, labels and `case`
//! labels, comments and `$AD` directives, and each statement kind (an expression statement
//! becomes an assignment or a call when it is one).

use super::lower::*;
use crate::omp::Construct;
use crate::ts::Field;
use crate::ts::{named_children, trails};
use radtap_il::directives::parse_directive;
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
            omp: None,
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
    /// A `#pragma` line inside a function. `#pragma omp` loop constructs, `parallel`
    /// regions and `atomic` wait for the statement they govern (`attach_omp`); other OpenMP
    /// constructs are refused at their line when a head reaches the function (`omp.rs`).
    /// Any other pragma is kept where it stands, as a comment; `acc` (OpenACC) with a
    /// warning that the generated code runs sequentially.
    fn pragma(&mut self, n: Node) -> Option<StmtId> {
        let text = self.t(n).trim_end().replace("\\\n", " ");
        let words: Vec<&str> = text.split_whitespace().collect();
        let kind = words.get(1).copied().unwrap_or("");
        let sp = self.sp(n);
        if kind == "omp" {
            let after = text.split_once("omp").map(|x| x.1).unwrap_or("");
            let scope = self.scope;
            let p = &*self.p;
            let parsed = crate::omp::parse(after, &mut |v| p.lookup(scope, v));
            let parsed = match parsed {
                Ok(x) => x,
                Err(m) => {
                    self.omp_refuse(sp, format!("`{}`: {m}", text.trim()));
                    return Some(self.push(StmtKind::Comment(format!("/* {text} */")), n, None));
                }
            };
            let kind = crate::omp::construct(&parsed.construct);
            let mut clauses = parsed.clauses;
            if let Err(m) = crate::omp::keep_default(&mut clauses) {
                self.omp_refuse(sp, m);
            }
            match kind {
                Construct::ParallelLoop
                | Construct::Loop
                | Construct::Parallel
                | Construct::Atomic
                | Construct::Critical
                | Construct::ParallelSections
                | Construct::Single
                | Construct::Section => {
                    if let Some(old) = self.pending_omp.take() {
                        let msg = format!("`#pragma omp {}` governs no statement here", old.words);
                        self.omp_refuse(old.span, msg);
                    }
                    self.pending_omp = Some(crate::omp::Pending {
                        kind,
                        clauses,
                        span: sp,
                        words: parsed.construct,
                        name: parsed.name,
                    });
                    return None;
                }
                // Checked where it stands by the region around it (`attach_omp`).
                Construct::Barrier if self.omp_regions > 0 => {}
                Construct::Barrier => {
                    let msg = "`#pragma omp barrier` outside a `#pragma omp parallel` region of this function is not supported yet".to_string();
                    self.omp_refuse(sp, msg);
                }
                Construct::Simd => {
                    self.diags.push(Diagnostic::warning(
                        Code::Unsupported,
                        sp,
                        "`#pragma omp simd` is not applied to the generated code (a vectorisation hint: the loop means the same without it)".to_string(),
                    ));
                }
                Construct::EndParallelLoop
                | Construct::EndLoop
                | Construct::EndParallel
                | Construct::EndCritical
                | Construct::EndParallelSections
                | Construct::EndSingle
                | Construct::Other => {
                    let msg = crate::omp::refusal(&parsed.construct);
                    self.omp_refuse(sp, msg);
                }
            }
            return Some(self.push(StmtKind::Comment(format!("/* {text} */")), n, None));
        }
        let parallel = kind == "acc";
        if parallel {
            self.diags.push(Diagnostic::warning(
                Code::Unsupported,
                sp,
                format!(
                    "`#pragma {kind}` is not applied to the generated code: it runs this \
                     code sequentially (derivatives of OpenACC regions are not supported yet)"
                ),
            ));
        }
        let comment = if parallel {
            format!("/* {text} (radtap: not applied) */")
        } else {
            format!("/* {text} */")
        };
        Some(self.push(StmtKind::Comment(comment), n, None))
    }

    /// An OpenMP refusal: reported when a head reaches the function.
    fn omp_refuse(&mut self, sp: Span, msg: String) {
        let d = Diagnostic::error(Code::Unsupported, sp, msg);
        if self.unit != self.file_unit {
            self.u().refusals.push(d);
        } else {
            self.diags.push(d);
        }
    }

    /// Gives statement `s` the directive `o` written before it: a loop construct to a C
    /// `for`, `atomic` to an update, a `parallel` region to the compound statement holding
    /// one `omp for` loop and the declarations of its private variables (fused into one
    /// parallel loop). Anything else is refused at the directive.
    fn attach_omp(&mut self, o: crate::omp::Pending, s: StmtId) {
        use radtap_il::omp::{Omp, OmpKind};
        let span = Some(o.span);
        let kind = self.u().stmts[s].kind.clone();
        match (&o.kind, &kind) {
            (Construct::ParallelLoop, StmtKind::CFor { .. }) => {
                self.u().stmts[s].omp = Some(Box::new(Omp {
                    kind: OmpKind::Loop(o.clauses),
                    span,
                }));
            }
            (Construct::Loop, StmtKind::CFor { .. }) if self.omp_regions > 0 => {
                self.u().stmts[s].omp = Some(Box::new(Omp {
                    kind: OmpKind::Loop(o.clauses),
                    span,
                }));
                self.omp_worksharing.push(s);
            }
            (Construct::Loop, _) if self.omp_regions == 0 => {
                let msg = "`#pragma omp for` outside a `#pragma omp parallel` region of this function is not supported yet (write `#pragma omp parallel for`)".to_string();
                self.omp_refuse(o.span, msg);
            }
            (Construct::Atomic, StmtKind::Assign { lhs, op, rhs }) => {
                let u = &self.p.units[self.unit];
                let update = op.is_some()
                    || matches!(&u.exprs[*rhs], Expr::Binary { lhs: l, .. }
                        if radtap_il::omp::same_ref(u, *l, *lhs));
                if update {
                    self.u().stmts[s].omp = Some(Box::new(Omp {
                        kind: OmpKind::Atomic,
                        span,
                    }));
                } else {
                    let msg = "`#pragma omp atomic` is supported on an update `x op= e` or `x = x op e` only".to_string();
                    self.omp_refuse(o.span, msg);
                }
            }
            // One thread runs it between the region's loops: sequential code there.
            (Construct::Single, _) if self.omp_regions > 0 => {
                if let Some(m) = crate::omp::single_refusal(&o.words, &o.clauses) {
                    self.omp_refuse(o.span, m);
                    return;
                }
                if !matches!(kind, StmtKind::Block { .. }) {
                    self.wrap_in_block(s);
                }
                self.u().source_map.stmt.insert(s, o.span);
                self.omp_worksharing.push(s);
            }
            (Construct::Single, _) => {
                let msg = format!("`#pragma omp {}` outside a `#pragma omp parallel` region of this function is not supported yet", o.words);
                self.omp_refuse(o.span, msg);
            }
            (Construct::Critical | Construct::Section, _) => {
                // A single statement becomes the block of its own section.
                if !matches!(kind, StmtKind::Block { .. }) {
                    self.wrap_in_block(s);
                }
                // Located at its directive (where a refusal points).
                self.u().source_map.stmt.insert(s, o.span);
                let kind = match o.kind {
                    Construct::Section => OmpKind::Section,
                    _ => OmpKind::Critical(o.name),
                };
                self.u().stmts[s].omp = Some(Box::new(Omp { kind, span }));
            }
            (Construct::ParallelSections, StmtKind::Block { body, .. }) => {
                // Statements before the first `section` directive are the first section.
                let u = &self.p.units[self.unit];
                let is_section = |x: StmtId| matches!(u.stmts[x].omp.as_deref(), Some(o) if o.kind == OmpKind::Section);
                let work =
                    |x: StmtId| !matches!(u.stmts[x].kind, StmtKind::Comment(_) | StmtKind::Empty);
                let first = body
                    .iter()
                    .position(|&x| is_section(x))
                    .unwrap_or(body.len());
                let lead: Vec<StmtId> =
                    body[..first].iter().copied().filter(|&x| work(x)).collect();
                let stray = body[first..].iter().any(|&x| work(x) && !is_section(x));
                let mut sections: Vec<StmtId> = body[first..]
                    .iter()
                    .copied()
                    .filter(|&x| is_section(x))
                    .collect();
                if stray {
                    let msg = "`#pragma omp parallel sections` is supported when its block is `#pragma omp section` blocks".to_string();
                    self.omp_refuse(o.span, msg);
                    return;
                }
                if !lead.is_empty() {
                    let u = self.u();
                    let b = u.stmts.alloc(Stmt::new(StmtKind::Block {
                        scope: None,
                        decls: vec![],
                        body: lead,
                        associations: vec![],
                        construct: BlockKind::C,
                    }));
                    u.stmts[b].omp = Some(Box::new(Omp {
                        kind: OmpKind::Section,
                        span,
                    }));
                    u.source_map.stmt.insert(b, o.span);
                    sections.insert(0, b);
                }
                let u = self.u();
                if let StmtKind::Block { body, .. } = &mut u.stmts[s].kind {
                    *body = sections;
                }
                u.source_map.stmt.insert(s, o.span);
                u.stmts[s].omp = Some(Box::new(Omp {
                    kind: OmpKind::Sections(o.clauses),
                    span,
                }));
            }
            (Construct::Parallel, StmtKind::Block { body, .. }) => {
                let u = &self.p.units[self.unit];
                let mut declared = Vec::new();
                let mut loops = Vec::new();
                let mut fine = true;
                let mut barriers = Vec::new();
                let mut singles = Vec::new();
                for &x in body {
                    match &u.stmts[x].kind {
                        StmtKind::Comment(c) if is_barrier(c) => barriers.push(x),
                        StmtKind::Comment(_) | StmtKind::Empty => {}
                        StmtKind::Decl(Decl::Var(v)) if loops.is_empty() => {
                            for e in &v.entities {
                                fine &= e.init.is_none();
                                declared.push(e.sym);
                            }
                        }
                        StmtKind::CFor { .. } if self.omp_worksharing.contains(&x) => loops.push(x),
                        StmtKind::Block { .. } if self.omp_worksharing.contains(&x) => {
                            singles.push(x)
                        }
                        _ => fine = false,
                    }
                }
                for &b in &singles {
                    if let Some(x) = crate::omp::single_uses_private(u, b, &declared) {
                        let sp = u.source_map.stmt.get(b).copied().unwrap_or(o.span);
                        let msg = format!("a `single` / `master` block reading or writing `{}`, a private variable of its region, is not supported yet", self.p.name(x));
                        self.omp_refuse(sp, msg);
                        return;
                    }
                }
                // Several loops: each one parallel loop, their barriers (explicit, or the
                // implicit one at the end of each `omp for`) the ends of those loops. A
                // `firstprivate` variable would start each loop afresh instead of where the
                // thread left it.
                let firstprivate = o
                    .clauses
                    .iter()
                    .any(|c| matches!(c, radtap_il::omp::OmpClause::FirstPrivate(_)));
                fine &= loops.len() == 1 || !firstprivate;
                // A barrier anywhere else in the region.
                let mut below = Vec::new();
                for &x in body {
                    for c in radtap_il::directives::child_blocks(&u.stmts[x].kind) {
                        radtap_il::omp::stmts_below(u, c, &mut below);
                    }
                }
                let nested_single: Vec<Span> = below
                    .iter()
                    .filter(|&x| {
                        matches!(u.stmts[*x].kind, StmtKind::Block { .. })
                            && self.omp_worksharing.contains(x)
                    })
                    .filter_map(|x| u.source_map.stmt.get(*x).copied())
                    .collect();
                let misplaced: Vec<Span> = below
                    .into_iter()
                    .filter(|&x| matches!(&u.stmts[x].kind, StmtKind::Comment(c) if is_barrier(c)))
                    .filter_map(|x| u.source_map.stmt.get(x).copied())
                    .collect();
                for sp in nested_single {
                    let msg = "a `single` / `master` block is supported between the `omp for` loops of a `#pragma omp parallel` region only".to_string();
                    self.omp_refuse(sp, msg);
                }
                for sp in misplaced {
                    let msg = "`#pragma omp barrier` is supported between the `omp for` loops of a `#pragma omp parallel` region only".to_string();
                    self.omp_refuse(sp, msg);
                }
                if fine && !loops.is_empty() {
                    for l in loops {
                        let inner = self.u().stmts[l].omp.take().map(|b| b.kind);
                        let inner = match inner {
                            Some(OmpKind::Loop(c)) => c,
                            _ => Vec::new(),
                        };
                        let clauses = crate::omp::fuse(o.clauses.clone(), inner, declared.clone());
                        self.u().stmts[l].omp = Some(Box::new(Omp {
                            kind: OmpKind::Loop(clauses),
                            span,
                        }));
                    }
                    // What a barrier means is now the end of a parallel loop.
                    if let StmtKind::Block { body, .. } = &mut self.u().stmts[s].kind {
                        body.retain(|x| !barriers.contains(x));
                    }
                } else {
                    let msg = "a `#pragma omp parallel` region is supported when its work is `#pragma omp for` loops (separated by barriers), `single` or `master` blocks between them, after declarations (without initialisers) of its private variables".to_string();
                    self.omp_refuse(o.span, msg);
                }
            }
            _ => {
                let msg = format!(
                    "`#pragma omp {}` must be followed by {}",
                    o.words,
                    match o.kind {
                        Construct::Atomic => "an update `x op= e`",
                        Construct::Parallel | Construct::ParallelSections =>
                            "a compound statement `{ … }`",
                        _ => "a `for` loop",
                    }
                );
                self.omp_refuse(o.span, msg);
            }
        }
    }
}

impl CLower<'_, '_> {
    /// Makes statement `s` a block holding (a copy of) what it was.
    fn wrap_in_block(&mut self, s: StmtId) {
        let u = self.u();
        let inner = u.stmts[s].clone();
        let inner = u.stmts.alloc(Stmt {
            label: None,
            ..inner
        });
        if let Some(sp) = u.source_map.stmt.get(s).copied() {
            u.source_map.stmt.insert(inner, sp);
        }
        u.stmts[s].kind = StmtKind::Block {
            scope: None,
            decls: vec![],
            body: vec![inner],
            associations: vec![],
            construct: BlockKind::C,
        };
        u.stmts[s].directives.clear();
        u.stmts[s].comment = None;
    }
}

/// Whether a comment holds a `#pragma omp barrier` (kept where it stood by `pragma`).
fn is_barrier(c: &str) -> bool {
    let w: Vec<&str> = c
        .trim_start_matches("/*")
        .trim_end_matches("*/")
        .split_whitespace()
        .collect();
    w == ["#pragma", "omp", "barrier"]
}

impl Statements for CLower<'_, '_> {
    fn stmt_into(&mut self, n: Node, label: Option<String>, out: &mut Block) {
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
                if let Some(s) = self.pragma(n) {
                    out.push(s);
                }
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
                let omp = self.pending_omp.take();
                let region = omp.as_ref().is_some_and(|o| o.kind == Construct::Parallel);
                self.omp_regions += u32::from(region);
                let lowered = self.stmt(n, label);
                self.omp_regions -= u32::from(region);
                if let Some(s) = lowered {
                    let u = self.u();
                    let mut own = dirs;
                    own.append(&mut u.stmts[s].directives);
                    u.stmts[s].directives = own;
                    if let Some(o) = omp {
                        self.attach_omp(o, s);
                    }
                    out.push(s);
                } else {
                    self.pending_dirs.splice(0..0, dirs);
                    if let Some(o) = omp {
                        let msg = format!("`#pragma omp {}` governs no statement here", o.words);
                        self.omp_refuse(o.span, msg);
                    }
                }
            }
        }
    }
}
