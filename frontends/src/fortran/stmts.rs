//! Pass 3: executable parts. A unit's body, statement sequences with their labels, comments
//! and `!$AD` directives, and the executable statements: assignments, CALL, SELECT CASE,
//! WHERE, FORALL, STOP, arithmetic IF, ALLOCATE, FORMAT, ENTRY, ASSOCIATE, BLOCK and I/O (IF
//! constructs, DO loops and the jumps are in `control`).

use super::lower::*;
use crate::ts::Field;
use crate::ts::{children_with_fields, named_children, trails};
use radtap_il::*;
use tree_sitter::Node;

impl<'a, 't> FortranLowering<'a, 't> {
    pub(super) fn lower_body(&mut self, i: usize) {
        self.enter(i);
        let node = self.pending[i].node;
        let start = self.pending[i].body_start;
        let kids: Vec<Node> = children_with_fields(node)
            .into_iter()
            .skip(start)
            .map(|(_, c)| c)
            .collect();
        let stop = kids
            .iter()
            .position(|c| c.kind() == "internal_procedures" || c.kind().starts_with("end_"))
            .unwrap_or(kids.len());
        let body = self.block(&kids[..stop]);
        self.unit().body = body;
        self.check_concurrent_indices();
        // Implicit variables created while lowering the body.
        self.finish_implicit_types();
        for d in std::mem::take(&mut self.pending_dirs) {
            let sid = self
                .unit()
                .stmts
                .alloc(Stmt::new(StmtKind::Comment(d.text)));
            self.unit().body.push(sid);
        }
    }

    /// A DO CONCURRENT index is local to its construct, but the nest of DO loops it is
    /// lowered to assigns the variable of the same name: refused where that variable is used
    /// outside DO loops over it (a value read after the construct would change).
    fn check_concurrent_indices(&mut self) {
        let loops = std::mem::take(&mut self.concurrent);
        if loops.is_empty() {
            return;
        }
        let u = self.unit();
        let nests: Vec<StmtId> = loops.iter().map(|(s, _)| *s).collect();
        let mut bad = Vec::new();
        for (s, vars) in &loops {
            let mut used = false;
            uses_outside(u, &u.body, vars, &nests, &mut used);
            if used {
                bad.push(*s);
            }
        }
        for s in bad {
            let sp = self
                .unit()
                .source_map
                .stmt
                .get(s)
                .copied()
                .unwrap_or_default();
            self.diags.push(Diagnostic::error(
                Code::Unsupported,
                sp,
                "unsupported construct: DO CONCURRENT whose index variable is also used outside DO loops over it",
            ));
        }
    }

    pub(super) fn stmt(&mut self, n: Node<'t>, label: Option<String>) -> Option<StmtId> {
        let k = n.kind();
        let kind = match k {
            "assignment_statement" => {
                let lhs = self.expr(n.field("left")?);
                let rhs = self.expr(n.field("right")?);
                StmtKind::Assign { lhs, op: None, rhs }
            }
            "pointer_association_statement" => {
                let ks = named_children(n);
                let ks: Vec<Node> = ks.into_iter().filter(|c| c.kind() != "comment").collect();
                if ks.len() != 2 {
                    self.unsupported(n, "this pointer assignment form");
                    return None;
                }
                StmtKind::PointerAssign {
                    lhs: self.expr(ks[0]),
                    rhs: self.expr(ks[1]),
                }
            }
            "subroutine_call" => {
                let callee_node = n.field("subroutine")?;
                let callee = self.callee(callee_node, true);
                let al = named_children(n)
                    .into_iter()
                    .find(|c| c.kind() == "argument_list");
                let args = match al {
                    Some(al) => self.args(al),
                    None => vec![],
                };
                StmtKind::Call {
                    callee,
                    args,
                    no_parens: al.is_none(),
                }
            }
            "if_statement" => return self.if_stmt(n, label),
            "do_loop" => return self.do_loop(n, label),
            "select_case_statement" => {
                let sel = named_children(n)
                    .into_iter()
                    .find(|c| c.kind() == "selector")?;
                let se = named_children(sel)
                    .into_iter()
                    .find(|c| c.kind() != "comment")?;
                let selector = self.expr(se);
                let mut cases = Vec::new();
                for cs in named_children(n)
                    .into_iter()
                    .filter(|c| c.kind() == "case_statement")
                {
                    let mut values = Vec::new();
                    let kids = named_children(cs);
                    for x in &kids {
                        if x.kind() == "case_value_range_list" {
                            for v in named_children(*x) {
                                if v.kind() == "extent_specifier" {
                                    let (segs, _) = self.colon_segments(v);
                                    let lo = segs.first().copied().flatten().map(|e| self.expr(e));
                                    let hi = segs.get(1).copied().flatten().map(|e| self.expr(e));
                                    values.push(CaseValue::Range(lo, hi));
                                } else if v.kind() != "comment" {
                                    values.push(CaseValue::Value(self.expr(v)));
                                }
                            }
                        }
                    }
                    let stmts: Vec<Node> = kids
                        .into_iter()
                        .filter(|x| {
                            !matches!(
                                x.kind(),
                                "case_value_range_list" | "default" | "block_label"
                            )
                        })
                        .collect();
                    let body = self.block(&stmts);
                    cases.push(Case { values, body });
                }
                StmtKind::Select { selector, cases }
            }
            "where_statement" => {
                let kids = named_children(n);
                let cond = kids
                    .iter()
                    .find(|c| c.kind() == "parenthesized_expression")?;
                let mask = self.paren_inner(*cond);
                let single = !kids.iter().any(|c| c.kind() == "end_where_statement");
                let first_body: Vec<Node> = kids
                    .iter()
                    .copied()
                    .filter(|c| {
                        !matches!(
                            c.kind(),
                            "parenthesized_expression"
                                | "elsewhere_clause"
                                | "end_where_statement"
                                | "block_label_start_expression"
                        )
                    })
                    .collect();
                let b = self.block(&first_body);
                let mut arms = vec![(mask, b)];
                let mut else_block = None;
                for ew in kids.iter().filter(|c| c.kind() == "elsewhere_clause") {
                    let ek = named_children(*ew);
                    let m = ek
                        .iter()
                        .find(|c| c.kind() == "parenthesized_expression")
                        .copied();
                    let stmts: Vec<Node> = ek
                        .into_iter()
                        .filter(|c| !matches!(c.kind(), "parenthesized_expression" | "block_label"))
                        .collect();
                    let b = self.block(&stmts);
                    match m {
                        Some(m) => {
                            let me = self.paren_inner(m);
                            arms.push((me, b));
                        }
                        None => else_block = Some(b),
                    }
                }
                StmtKind::Where {
                    arms,
                    else_block,
                    single,
                }
            }
            "forall_statement" => {
                let kids = named_children(n);
                let mut specs = Vec::new();
                let mut mask = None;
                let single = !kids.iter().any(|c| c.kind() == "end_forall_statement");
                let mut body_nodes = Vec::new();
                for x in &kids {
                    match x.kind() {
                        "triplet_spec" => {
                            let ks: Vec<Node> = named_children(*x)
                                .into_iter()
                                .filter(|c| c.kind() != "comment")
                                .collect();
                            if ks.len() < 3 {
                                self.unsupported(*x, "this FORALL triplet");
                                continue;
                            }
                            let var = self.expr(ks[0]);
                            let lo = self.expr(ks[1]);
                            let hi = self.expr(ks[2]);
                            let stride = ks.get(3).map(|s| self.expr(*s));
                            specs.push(ForallSpec {
                                var,
                                lo,
                                hi,
                                stride,
                            });
                        }
                        "end_forall_statement" | "block_label_start_expression" => {}
                        "comment" | "statement_label" => body_nodes.push(*x),
                        kk if STATEMENT_KINDS.contains(&kk) => body_nodes.push(*x),
                        "concurrent_header" => self.unsupported(*x, "FORALL with a type-spec"),
                        _ => mask = Some(self.expr(*x)),
                    }
                }
                let body = self.block(&body_nodes);
                StmtKind::Forall {
                    specs,
                    mask,
                    body,
                    single,
                }
            }
            "keyword_statement" => self.keyword_stmt(n)?,
            "stop_statement" => {
                let error = self
                    .t(n)
                    .trim_start()
                    .to_ascii_lowercase()
                    .starts_with("error");
                let code = named_children(n)
                    .into_iter()
                    .find(|c| c.kind() != "comment")
                    .map(|c| self.expr(c));
                StmtKind::Stop { code, error }
            }
            "arithmetic_if_statement" => {
                let kids = named_children(n);
                let cond = kids
                    .iter()
                    .find(|c| c.kind() == "parenthesized_expression")?;
                let expr = self.paren_inner(*cond);
                let labels: Vec<String> = kids
                    .iter()
                    .filter(|c| c.kind() == "statement_label_reference")
                    .map(|c| self.t(*c).trim().to_string())
                    .collect();
                if labels.len() != 3 {
                    self.unsupported(n, "arithmetic IF without three labels");
                    return None;
                }
                StmtKind::ArithIf {
                    expr,
                    labels: [labels[0].clone(), labels[1].clone(), labels[2].clone()],
                }
            }
            "allocate_statement" | "deallocate_statement" | "nullify_statement" => {
                let op = match k {
                    "allocate_statement" => MemOp::Allocate,
                    "deallocate_statement" => MemOp::Deallocate,
                    _ => MemOp::Nullify,
                };
                let mut items = Vec::new();
                let mut options = Vec::new();
                for (field, c) in children_with_fields(n) {
                    if !c.is_named() || c.kind() == "comment" {
                        continue;
                    }
                    if field == Some("type") {
                        self.unsupported(c, "ALLOCATE with a type-spec");
                        continue;
                    }
                    match c.kind() {
                        "keyword_argument" => options.push(self.keyword_arg(c)),
                        "sized_allocation" => {
                            let ks = named_children(c);
                            let base = self.expr(ks[0]);
                            let subs = match ks.iter().find(|x| x.kind() == "size") {
                                Some(sz) => self.subscripts(*sz),
                                None => vec![],
                            };
                            let e = self.unit().exprs.alloc(Expr::Index { base, subs });
                            items.push(e);
                        }
                        "coarray_allocation" => self.unsupported(c, "coarray allocation"),
                        _ => items.push(self.expr(c)),
                    }
                }
                StmtKind::Memory { op, items, options }
            }
            "print_statement"
            | "write_statement"
            | "read_statement"
            | "open_statement"
            | "close_statement"
            | "inquire_statement"
            | "file_position_statement" => self.io_stmt(n)?,
            "format_statement" => {
                let t = self.t(n);
                let inner = t.trim_start()[6..].trim();
                StmtKind::Format(normalize_continuations(inner))
            }
            "entry_statement" => {
                let nn = n.field("name")?;
                let scope = self.scope();
                let spelling = self.t(nn).to_string();
                let g = self.global;
                let name = self.p.add_symbol(
                    g,
                    key(&spelling),
                    sym_data(&spelling, SymbolKind::Procedure, g),
                );
                let mut params = Vec::new();
                if let Some(ps) = n.field("parameters") {
                    for pn in named_children(ps) {
                        params.push(self.get_or_create(scope, pn, SymbolKind::Variable));
                    }
                }
                StmtKind::Entry { name, params }
            }
            "associate_statement" => {
                let kids = named_children(n);
                let outer = self.scope();
                let scope = self
                    .p
                    .scopes
                    .alloc(ScopeData::new(ScopeKind::Block, Some(outer)));
                let mut associations = Vec::new();
                if let Some(al) = kids.iter().find(|c| c.kind() == "association_list") {
                    for a in named_children(*al) {
                        let (Some(nm), Some(sel)) = (a.field("name"), a.field("selector")) else {
                            continue;
                        };
                        let e = self.expr(sel);
                        let s = self.get_or_create(scope, nm, SymbolKind::Variable);
                        associations.push((s, e));
                    }
                }
                self.cur_scope = Some(scope);
                let stmts: Vec<Node> = kids
                    .into_iter()
                    .filter(|c| {
                        !matches!(
                            c.kind(),
                            "association_list"
                                | "end_associate_statement"
                                | "block_label_start_expression"
                        )
                    })
                    .collect();
                let body = self.block(&stmts);
                self.cur_scope = Some(outer);
                StmtKind::Block {
                    scope: Some(scope),
                    decls: vec![],
                    body,
                    associations,
                    construct: BlockKind::Associate,
                }
            }
            "block_construct" => {
                let kids = named_children(n);
                let outer = self.scope();
                let scope = self
                    .p
                    .scopes
                    .alloc(ScopeData::new(ScopeKind::Block, Some(outer)));
                self.cur_scope = Some(scope);
                let mut decls = Vec::new();
                let mut rest = Vec::new();
                let mut in_spec = true;
                for x in kids {
                    if matches!(
                        x.kind(),
                        "end_block_construct_statement" | "block_label_start_expression"
                    ) {
                        continue;
                    }
                    if in_spec
                        && (x.kind() == "variable_declaration"
                            || x.kind() == "use_statement"
                            || x.kind() == "parameter_statement")
                    {
                        self.lower_decl(x, &mut decls);
                    } else if in_spec && x.kind() == "comment" {
                        decls.push(Decl::Comment(self.t(x).to_string()));
                    } else {
                        in_spec = false;
                        rest.push(x);
                    }
                }
                self.finish_implicit_types();
                let body = self.block(&rest);
                self.cur_scope = Some(outer);
                StmtKind::Block {
                    scope: Some(scope),
                    decls,
                    body,
                    associations: vec![],
                    construct: BlockKind::Block,
                }
            }
            "include_statement" => {
                self.unsupported(
                    n,
                    "INCLUDE among executable statements (put it in the specification part)",
                );
                return None;
            }
            "assign_statement" => {
                self.unsupported(n, "ASSIGN and assigned GOTO (rewrite with an integer variable and a computed GOTO)");
                return None;
            }
            "call_expression" => {
                self.unsupported(n, "this statement (it parses as a bare expression)");
                return None;
            }
            _ => {
                self.unsupported(n, &format!("`{}`", k.replace('_', " ")));
                return None;
            }
        };
        let cn = self.construct_name(n);
        Some(self.push_stmt(kind, n, label, cn))
    }

    fn io_stmt(&mut self, n: Node<'t>) -> Option<StmtKind> {
        let first = n.child(0)?;
        let kw = self.t(first).to_ascii_lowercase();
        let kind = match kw.as_str() {
            "write" => IoKind::Write,
            "read" => IoKind::Read,
            "print" => IoKind::Print,
            "open" => IoKind::Open,
            "close" => IoKind::Close,
            "inquire" => IoKind::Inquire,
            "rewind" => IoKind::Rewind,
            "backspace" => IoKind::Backspace,
            "endfile" => IoKind::Endfile,
            "flush" => IoKind::Flush,
            _ => {
                self.unsupported(n, &format!("I/O statement `{kw}`"));
                return None;
            }
        };
        let src = self.files[self.cur_file].src;
        let kids = children_with_fields(n);
        let mut items = Vec::new();
        let mut control = String::new();
        // Control part: from after the keyword to the item list.
        let item_list = kids
            .iter()
            .find(|(_, c)| matches!(c.kind(), "output_item_list" | "input_item_list"))
            .map(|(_, c)| *c);
        let ctl_start = first.end_byte();
        let ctl_end = item_list.map(|l| l.start_byte()).unwrap_or(n.end_byte());
        // Continuation joins are removed before trimming: a control part ending the line
        // (`write (u, fmt) &` + newline + items) keeps its `&` only up to its newline.
        let ctl = normalize_continuations(src.get(ctl_start..ctl_end).unwrap_or(""));
        let mut ctl = ctl.trim().to_string();
        if ctl.ends_with(',') {
            ctl.pop();
        }
        control.push_str(ctl.trim());
        if let Some(l) = item_list {
            for c in named_children(l) {
                if c.kind() != "comment" {
                    items.push(self.expr(c));
                }
            }
        }
        Some(StmtKind::Io {
            kind,
            control,
            items,
        })
    }
}

/// Whether a statement of `block` (recursively) outside the DO CONCURRENT nests `nests` and
/// outside counted DO loops over one of `vars` refers to one of `vars`.
fn uses_outside(
    u: &UnitData,
    block: &[StmtId],
    vars: &[SymbolId],
    nests: &[StmtId],
    used: &mut bool,
) {
    for &s in block {
        if *used {
            return;
        }
        if nests.contains(&s) {
            continue;
        }
        let k = &u.stmts[s].kind;
        if let StmtKind::Do { var, .. } = k {
            if matches!(u.exprs[*var], Expr::Name(v) if vars.contains(&v)) {
                continue;
            }
        }
        let mut exprs = Vec::new();
        let mut subs = Vec::new();
        radtap_il::visit::stmt_children(k, &mut |e| exprs.push(e), &mut |b| subs.push(b));
        while let Some(e) = exprs.pop() {
            if matches!(u.exprs[e], Expr::Name(v) if vars.contains(&v)) {
                *used = true;
                return;
            }
            radtap_il::visit::expr_children(&u.exprs[e], &mut |c| exprs.push(c));
        }
        uses_outside(u, &subs, vars, nests, used);
    }
}

impl<'t> Blocks<'t> for FortranLowering<'_, 't> {
    /// Lowers a sequence of statement nodes (with label and comment siblings).
    fn block(&mut self, nodes: &[Node<'t>]) -> Block {
        let mut out = Vec::new();
        let mut label: Option<String> = None;
        // The node of the statement last pushed to `out`, for trailing comments.
        let mut last: Option<Node<'t>> = None;
        // Open `!$omp parallel` regions of this block, with where their statements start.
        let mut regions: Vec<(crate::omp::Pending, usize)> = Vec::new();
        for &n in nodes {
            if !n.is_named() {
                continue;
            }
            match n.kind() {
                "statement_label" => {
                    let t = self.t(n).trim().to_string();
                    if !t.is_empty() {
                        label = Some(t);
                    }
                }
                "comment" if super::omp::sentinel(self.t(n)).is_some() => {
                    self.omp_comment(n, &mut out, &mut regions);
                }
                "comment" => {
                    let t = self.t(n).to_string();
                    match parse_directive(&t) {
                        Some(mut d) => {
                            d.span = Some(self.sp(n));
                            self.pending_dirs.push(d)
                        }
                        None => match (last, out.last()) {
                            (Some(prev), Some(&sid))
                                if trails(prev, n) && self.unit().stmts[sid].comment.is_none() =>
                            {
                                self.unit().stmts[sid].comment = Some(t);
                            }
                            _ => {
                                let sid = self.unit().stmts.alloc(Stmt::new(StmtKind::Comment(t)));
                                out.push(sid);
                            }
                        },
                    }
                }
                "ERROR" => {}
                "block_label_start_expression" | "end_do_loop_statement" | "end_if_statement" => {}
                _ => {
                    last = None;
                    // The directives written before this statement are its own, not those
                    // of the first statement of its body (lowered before it).
                    let dirs = std::mem::take(&mut self.pending_dirs);
                    let omp = self.pending_omp.take();
                    if let Some(sid) = self.stmt(n, label.take()) {
                        let u = self.unit();
                        let mut own = dirs;
                        own.append(&mut u.stmts[sid].directives);
                        u.stmts[sid].directives = own;
                        if let Some(o) = omp {
                            let in_region = regions
                                .iter()
                                .any(|(o, _)| o.kind == crate::omp::Construct::Parallel);
                            self.attach_omp(o, sid, in_region);
                        }
                        out.push(sid);
                        last = Some(n);
                    } else {
                        self.pending_dirs.splice(0..0, dirs);
                        if let Some(o) = omp {
                            self.omp_unmatched(o);
                        }
                    }
                }
            }
        }
        for (o, _) in regions {
            let msg = format!(
                "`!$omp {}` without its `!$omp end {}` in the same block",
                o.words, o.words
            );
            self.omp_refuse(o.span, msg);
        }
        if let Some(o) = self.pending_omp.take() {
            self.omp_unmatched(o);
        }
        // Directives after the last statement (`$AD CHECKPOINT-END` closing a loop body)
        // stay in this block, on an empty statement at the last one's line, instead of
        // moving to the statement after the construct.
        if let Some(sp) = self.pending_dirs.last().and_then(|d| d.span) {
            let dirs = std::mem::take(&mut self.pending_dirs);
            let u = self.unit();
            let mut st = Stmt::new(StmtKind::Empty);
            st.directives = dirs;
            let sid = u.stmts.alloc(st);
            u.source_map.stmt.insert(sid, sp);
            out.push(sid);
        }
        out
    }
}
