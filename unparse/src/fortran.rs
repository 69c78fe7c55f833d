//! Free-form Fortran writer: units, declarations and statements written line by line at
//! their indentation, continued with `&` past 132 columns, with the statement span of each
//! line; the text of a declaration's pieces is in `specs`, of an expression in `exprs`.

use radtap_il::*;

mod exprs;
mod specs;
mod writer;

use writer::W;

/// Writes a whole Fortran file.
pub(crate) fn write_file(p: &Program, file: usize) -> (String, Vec<Option<Span>>) {
    let mut w = W {
        p,
        out: String::new(),
        indent: 0,
        map: Default::default(),
    };
    let items = &p.files[file].items;
    for (i, it) in items.iter().enumerate() {
        match it {
            FileItem::Comment(c) => w.line(c),
            FileItem::Unit(u) => {
                if i > 0 && matches!(items[i - 1], FileItem::Unit(_)) {
                    w.out.push('\n');
                }
                w.unit(*u);
            }
        }
    }
    w.map.sync(&w.out);
    (w.out, w.map.spans)
}

/// Writes one unit (with its contained procedures) as Fortran.
pub fn write_unit(p: &Program, u: UnitId) -> String {
    let mut w = W {
        p,
        out: String::new(),
        indent: 0,
        map: Default::default(),
    };
    w.unit(u);
    w.out
}

impl<'p> W<'p> {
    // ------------------------------------------------------------------ units

    fn unit(&mut self, uid: UnitId) {
        let u = &self.p.units[uid];
        for d in &u.directives {
            self.line(&d.text);
        }
        let name = u.name.map(|s| self.name(s).to_string());
        let (kw, end_kw) = match u.kind {
            UnitKind::Program => ("program", "end program"),
            UnitKind::Module => ("module", "end module"),
            UnitKind::Subroutine => ("subroutine", "end subroutine"),
            UnitKind::Function => ("function", "end function"),
            UnitKind::BlockData => ("block data", "end block data"),
            UnitKind::CFile => ("! C translation unit", "!"),
        };
        let has_header = u.source_map.header.is_some() || u.kind != UnitKind::Program;
        if has_header {
            let mut h = String::new();
            for pf in &u.attrs.prefixes {
                h.push_str(pf);
                h.push(' ');
            }
            if let Some(t) = &u.header_type {
                h.push_str(&self.type_spec(uid, t));
                h.push(' ');
            }
            h.push_str(kw);
            if let Some(n) = &name {
                h.push(' ');
                h.push_str(n);
            }
            if matches!(u.kind, UnitKind::Subroutine | UnitKind::Function) {
                let ps: Vec<&str> = u.params.iter().map(|&s| self.name(s)).collect();
                if !ps.is_empty() || u.empty_parens || u.kind == UnitKind::Function {
                    h.push_str(&format!("({})", ps.join(", ")));
                }
            }
            if u.explicit_result {
                if let Some(r) = u.result {
                    h.push_str(&format!(" result({})", self.name(r)));
                }
            }
            self.line(&h);
        }
        self.indent += 1;
        self.decls(uid, &u.decls);
        self.block(uid, &u.body);
        self.indent -= 1;
        if !u.contains.is_empty() {
            self.line("contains");
            self.indent += 1;
            for c in &u.trailing_comments {
                self.line(c);
            }
            for (i, &c) in u.contains.iter().enumerate() {
                if i > 0 {
                    self.out.push('\n');
                }
                self.unit(c);
            }
            self.indent -= 1;
        }
        match (&name, has_header) {
            (Some(n), true) => self.line(&format!("{end_kw} {n}")),
            _ => self.line(end_kw),
        }
    }

    // ------------------------------------------------------------------ declarations

    fn decls(&mut self, uid: UnitId, decls: &[Decl]) {
        for d in decls {
            self.decl(uid, d);
        }
    }

    fn decl(&mut self, uid: UnitId, d: &Decl) {
        match d {
            Decl::Var(v) => {
                let s = self.var_decl(uid, v);
                self.line(&s);
            }
            Decl::Use(_, text)
            | Decl::Implicit(text)
            | Decl::Verbatim(text)
            | Decl::Preproc(text) => self.line(text),
            Decl::Parameter(ps) => {
                let items: Vec<String> = ps
                    .iter()
                    .map(|(s, e)| format!("{} = {}", self.name(*s), self.expr(uid, *e)))
                    .collect();
                self.line(&format!("parameter ({})", items.join(", ")));
            }
            Decl::TypeDef(t) => self.typedef(*t),
            Decl::Common(blocks) => {
                let mut s = String::from("common");
                for (i, (b, ents)) in blocks.iter().enumerate() {
                    match b {
                        Some(b) => s.push_str(&format!(" /{}/ ", self.name(*b))),
                        None if i > 0 => s.push_str(" // "),
                        None => s.push(' '),
                    }
                    let es: Vec<String> = ents.iter().map(|e| self.entity(uid, e)).collect();
                    s.push_str(&es.join(", "));
                }
                self.line(&s);
            }
            Decl::Equivalence(sets) => {
                let ss: Vec<String> = sets
                    .iter()
                    .map(|set| {
                        format!(
                            "({})",
                            set.iter()
                                .map(|&e| self.expr(uid, e))
                                .collect::<Vec<_>>()
                                .join(", ")
                        )
                    })
                    .collect();
                self.line(&format!("equivalence {}", ss.join(", ")));
            }
            Decl::Data(sets) => {
                let ss: Vec<String> = sets
                    .iter()
                    .map(|set| {
                        let objs: Vec<String> =
                            set.objects.iter().map(|&e| self.expr(uid, e)).collect();
                        format!(
                            "{} /{}/",
                            objs.join(", "),
                            self.data_values(uid, &set.values)
                        )
                    })
                    .collect();
                self.line(&format!("data {}", ss.join(", ")));
            }
            Decl::Attr(a) => {
                let items: Vec<String> = a
                    .items
                    .iter()
                    .map(|it| {
                        if it.common {
                            format!("/{}/", self.name(it.sym))
                        } else {
                            let mut s = self.name(it.sym).to_string();
                            if let Some(d) = &it.dims {
                                s.push_str(&self.dims(uid, d));
                            }
                            s
                        }
                    })
                    .collect();
                let mut s = a.keyword.clone();
                if !items.is_empty() {
                    s.push_str(if a.double_colon { " :: " } else { " " });
                    s.push_str(&items.join(", "));
                }
                self.line(&s);
            }
            Decl::Interface(itf) => {
                let head = match (&itf.name, itf.is_abstract) {
                    (_, true) => "abstract interface".to_string(),
                    (Some(n), false) => format!("interface {n}"),
                    (None, false) => "interface".to_string(),
                };
                self.line(&head);
                self.indent += 1;
                for &b in &itf.bodies {
                    self.unit(b);
                }
                for mp in &itf.module_procs {
                    self.line(&format!("module procedure {}", mp.join(", ")));
                }
                self.indent -= 1;
                match &itf.name {
                    Some(n) => self.line(&format!("end interface {n}")),
                    None => self.line("end interface"),
                }
            }
            Decl::StmtFunction { name, params, body } => {
                let ps: Vec<&str> = params.iter().map(|&s| self.name(s)).collect();
                let s = format!(
                    "{}({}) = {}",
                    self.name(*name),
                    ps.join(", "),
                    self.expr(uid, *body)
                );
                self.line(&s);
            }
            Decl::Comment(c) => {
                for l in c.lines() {
                    self.line(l)
                }
            }
            Decl::TrailingComment(c) => self.trail(c),
            Decl::Directive(d) => self.line(&d.text),
            Decl::Unit(u) => self.unit(*u),
            Decl::Enumerators(_) => self.line("! (C enumerators cannot be written as Fortran)"),
        }
    }

    fn typedef(&mut self, t: TypeDefId) {
        let td = &self.p.typedefs[t];
        let name = td.name.clone().unwrap_or_default();
        let mut head = String::from("type");
        for a in &td.attrs {
            head.push_str(", ");
            head.push_str(a);
        }
        head.push_str(" :: ");
        head.push_str(&name);
        self.line(&head);
        self.indent += 1;
        let uid = td.unit;
        for f in &td.fields {
            self.decl(uid, f);
        }
        self.indent -= 1;
        self.line(&format!("end type {name}"));
    }

    // ------------------------------------------------------------------ statements

    /// A construct body, one level in.
    fn indented(&mut self, uid: UnitId, b: &[StmtId]) {
        self.indent += 1;
        self.block(uid, b);
        self.indent -= 1;
    }

    fn block(&mut self, uid: UnitId, b: &[StmtId]) {
        for &s in b {
            self.stmt(uid, s);
            if let Some(c) = &self.p.units[uid].stmts[s].comment {
                self.trail(c);
            }
        }
    }

    /// Writes a statement, noting its span (when it has one) for the lines it writes.
    fn stmt(&mut self, uid: UnitId, sid: StmtId) {
        let sp = self.p.units[uid].source_map.stmt.get(sid).copied();
        let outer = self.map.enter(&self.out, sp);
        self.stmt_text(uid, sid);
        let end = self.p.units[uid].stmts[sid]
            .omp
            .as_ref()
            .and_then(|o| o.lines(self.p, radtap_il::Lang::Fortran).1);
        if let Some(end) = end {
            self.line(&end);
        }
        self.map.leave(&self.out, outer);
    }

    fn stmt_text(&mut self, uid: UnitId, sid: StmtId) {
        let u = &self.p.units[uid];
        let st = &u.stmts[sid];
        for d in &st.directives {
            self.line(&d.text);
        }
        if let Some(o) = &st.omp {
            let begin = o.lines(self.p, radtap_il::Lang::Fortran).0;
            self.line(&begin);
        }
        if crate::is_directive_holder(st) {
            return;
        }
        let label = st.label.as_deref();
        let cn = st.construct_name.as_deref();
        let named = |s: &str| match cn {
            Some(n) => format!("{n}: {s}"),
            None => s.to_string(),
        };
        let end_named = |s: &str| match cn {
            Some(n) => format!("{s} {n}"),
            None => s.to_string(),
        };
        match &st.kind {
            StmtKind::If {
                arms,
                else_block,
                logical: true,
                ..
            } if arms.len() == 1 && arms[0].1.len() == 1 && else_block.is_none() => {
                let inner = self
                    .simple_stmt(uid, arms[0].1[0])
                    .unwrap_or_else(|| "continue".into());
                let s = format!("if ({}) {}", self.expr(uid, arms[0].0), inner);
                self.line_with_label(label, &s);
            }
            StmtKind::If {
                arms, else_block, ..
            } => {
                for (i, (c, b)) in arms.iter().enumerate() {
                    let cs = self.expr(uid, *c);
                    if i == 0 {
                        self.line_with_label(label, &named(&format!("if ({cs}) then")));
                    } else {
                        self.line(&end_named(&format!("else if ({cs}) then")));
                    }
                    self.indented(uid, b);
                }
                if let Some(b) = else_block {
                    self.line(&end_named("else"));
                    self.indented(uid, b);
                }
                self.line(&end_named("end if"));
            }
            StmtKind::Do {
                var,
                start,
                end,
                step,
                body,
                term_label,
            } => {
                let mut h = String::from("do ");
                if let Some(l) = term_label {
                    h.push_str(l);
                    h.push(' ');
                }
                h.push_str(&format!(
                    "{} = {}, {}",
                    self.expr(uid, *var),
                    self.expr(uid, *start),
                    self.expr(uid, *end)
                ));
                if let Some(s) = step {
                    h.push_str(&format!(", {}", self.expr(uid, *s)));
                }
                self.line_with_label(label, &named(&h));
                self.indented(uid, body);
                if term_label.is_none() {
                    self.line(&end_named("end do"));
                }
            }
            StmtKind::While {
                cond,
                body,
                term_label,
            } => {
                let h = match term_label {
                    Some(l) => format!("do {l} while ({})", self.expr(uid, *cond)),
                    None => format!("do while ({})", self.expr(uid, *cond)),
                };
                self.line_with_label(label, &named(&h));
                self.indented(uid, body);
                if term_label.is_none() {
                    self.line(&end_named("end do"));
                }
            }
            StmtKind::Loop { body } => {
                self.line_with_label(label, &named("do"));
                self.indented(uid, body);
                self.line(&end_named("end do"));
            }
            StmtKind::Select { selector, cases } => {
                self.line_with_label(
                    label,
                    &named(&format!("select case ({})", self.expr(uid, *selector))),
                );
                for c in cases {
                    if c.values.is_empty() {
                        self.line(&end_named("case default"));
                    } else {
                        let vs: Vec<String> = c
                            .values
                            .iter()
                            .map(|v| match v {
                                CaseValue::Value(e) => self.expr(uid, *e),
                                CaseValue::Range(a, b) => format!(
                                    "{}:{}",
                                    a.map(|e| self.expr(uid, e)).unwrap_or_default(),
                                    b.map(|e| self.expr(uid, e)).unwrap_or_default()
                                ),
                            })
                            .collect();
                        self.line(&end_named(&format!("case ({})", vs.join(", "))));
                    }
                    self.indented(uid, &c.body);
                }
                self.line(&end_named("end select"));
            }
            StmtKind::Where {
                arms,
                else_block,
                single,
            } => {
                if *single && arms.len() == 1 && arms[0].1.len() == 1 {
                    let inner = self.simple_stmt(uid, arms[0].1[0]).unwrap_or_default();
                    self.line_with_label(
                        label,
                        &format!("where ({}) {}", self.expr(uid, arms[0].0), inner),
                    );
                    return;
                }
                for (i, (m, b)) in arms.iter().enumerate() {
                    let ms = self.expr(uid, *m);
                    if i == 0 {
                        self.line_with_label(label, &named(&format!("where ({ms})")));
                    } else {
                        self.line(&end_named(&format!("elsewhere ({ms})")));
                    }
                    self.indented(uid, b);
                }
                if let Some(b) = else_block {
                    self.line(&end_named("elsewhere"));
                    self.indented(uid, b);
                }
                self.line(&end_named("end where"));
            }
            StmtKind::Forall {
                specs,
                mask,
                body,
                single,
            } => {
                let mut parts: Vec<String> = specs
                    .iter()
                    .map(|sp| {
                        let mut s = format!(
                            "{}={}:{}",
                            self.expr(uid, sp.var),
                            self.expr(uid, sp.lo),
                            self.expr(uid, sp.hi)
                        );
                        if let Some(st) = sp.stride {
                            s.push_str(&format!(":{}", self.expr(uid, st)));
                        }
                        s
                    })
                    .collect();
                if let Some(m) = mask {
                    parts.push(self.expr(uid, *m));
                }
                let head = format!("forall ({})", parts.join(", "));
                if *single && body.len() == 1 {
                    let inner = self.simple_stmt(uid, body[0]).unwrap_or_default();
                    self.line_with_label(label, &format!("{head} {inner}"));
                    return;
                }
                self.line_with_label(label, &named(&head));
                self.indented(uid, body);
                self.line(&end_named("end forall"));
            }
            // A critical section's statements, between its `!$omp` lines (`stmt`).
            StmtKind::Block {
                body,
                construct: BlockKind::C,
                ..
            } if matches!(st.omp.as_deref(), Some(o) if matches!(o.kind, radtap_il::omp::OmpKind::Critical(_) | radtap_il::omp::OmpKind::Sections(_) | radtap_il::omp::OmpKind::Section)) =>
            {
                self.indented(uid, body);
            }
            StmtKind::Block {
                decls,
                body,
                associations,
                construct,
                ..
            } => {
                let (head, end) = match construct {
                    BlockKind::Associate => {
                        let a: Vec<String> = associations
                            .iter()
                            .map(|(s, e)| format!("{} => {}", self.name(*s), self.expr(uid, *e)))
                            .collect();
                        (format!("associate ({})", a.join(", ")), "end associate")
                    }
                    BlockKind::Block | BlockKind::C => ("block".to_string(), "end block"),
                };
                self.line_with_label(label, &named(&head));
                self.indent += 1;
                self.decls(uid, decls);
                self.block(uid, body);
                self.indent -= 1;
                self.line(&end_named(end));
            }
            StmtKind::Comment(c) => self.line(c),
            _ => {
                let s = self
                    .simple_stmt(uid, sid)
                    .unwrap_or_else(|| "! (statement with no Fortran form)".into());
                self.line_with_label(label, &s);
            }
        }
    }

    /// A statement that fits on one line (the forms allowed in a logical IF).
    fn simple_stmt(&self, uid: UnitId, sid: StmtId) -> Option<String> {
        let u = &self.p.units[uid];
        let e = |x: ExprId| self.expr(uid, x);
        Some(match &u.stmts[sid].kind {
            StmtKind::Assign { lhs, rhs, .. } => format!("{} = {}", e(*lhs), e(*rhs)),
            StmtKind::PointerAssign { lhs, rhs } => format!("{} => {}", e(*lhs), e(*rhs)),
            StmtKind::Call {
                callee,
                args,
                no_parens,
            } => {
                if *no_parens && args.is_empty() {
                    format!("call {}", e(*callee))
                } else {
                    format!("call {}({})", e(*callee), self.args(uid, args))
                }
            }
            StmtKind::Exit(n) => n.as_ref().map_or("exit".into(), |n| format!("exit {n}")),
            StmtKind::Cycle(n) => n.as_ref().map_or("cycle".into(), |n| format!("cycle {n}")),
            StmtKind::Goto(l) => format!("go to {l}"),
            StmtKind::ComputedGoto { labels, expr } => {
                format!("go to ({}) {}", labels.join(", "), e(*expr))
            }
            StmtKind::ArithIf { expr, labels } => format!(
                "if ({}) {}, {}, {}",
                e(*expr),
                labels[0],
                labels[1],
                labels[2]
            ),
            StmtKind::Return(_) => "return".into(),
            StmtKind::Stop { code, error } => {
                let kw = if *error { "error stop" } else { "stop" };
                match code {
                    Some(c) => format!("{kw} {}", e(*c)),
                    None => kw.to_string(),
                }
            }
            StmtKind::Continue => "continue".into(),
            StmtKind::Memory { op, items, options } => {
                let kw = match op {
                    MemOp::Allocate => "allocate",
                    MemOp::Deallocate => "deallocate",
                    MemOp::Nullify => "nullify",
                };
                let mut parts: Vec<String> = items.iter().map(|&x| e(x)).collect();
                if !options.is_empty() {
                    parts.push(self.args(uid, options));
                }
                format!("{kw}({})", parts.join(", "))
            }
            StmtKind::Io {
                kind,
                control,
                items,
            } => {
                let kw = match kind {
                    IoKind::Write => "write",
                    IoKind::Read => "read",
                    IoKind::Print => "print",
                    IoKind::Open => "open",
                    IoKind::Close => "close",
                    IoKind::Inquire => "inquire",
                    IoKind::Rewind => "rewind",
                    IoKind::Backspace => "backspace",
                    IoKind::Endfile => "endfile",
                    IoKind::Flush => "flush",
                };
                let its: Vec<String> = items.iter().map(|&x| e(x)).collect();
                let mut s = format!("{kw} {control}");
                if !its.is_empty() {
                    if control.starts_with('(') {
                        s.push(' ');
                    } else {
                        s.push_str(", ");
                    }
                    s.push_str(&its.join(", "));
                }
                s
            }
            StmtKind::Format(f) => format!("format {f}"),
            StmtKind::Entry { name, params } => {
                let ps: Vec<&str> = params.iter().map(|&s| self.name(s)).collect();
                format!("entry {}({})", self.name(*name), ps.join(", "))
            }
            StmtKind::Comment(c) => c.clone(),
            StmtKind::Empty => "continue".into(),
            StmtKind::If { .. }
            | StmtKind::Do { .. }
            | StmtKind::While { .. }
            | StmtKind::Loop { .. }
            | StmtKind::Select { .. }
            | StmtKind::Where { .. }
            | StmtKind::Forall { .. }
            | StmtKind::Block { .. }
            | StmtKind::Expr(_)
            | StmtKind::CFor { .. }
            | StmtKind::DoWhile { .. }
            | StmtKind::Switch { .. }
            | StmtKind::CaseLabel(_)
            | StmtKind::Decl(_)
            | StmtKind::Break
            | StmtKind::CContinue => return None,
        })
    }

    fn args(&self, uid: UnitId, args: &[Arg]) -> String {
        args.iter()
            .map(|a| match &a.keyword {
                Some(k) => format!("{k}={}", self.expr(uid, a.value)),
                None => self.expr(uid, a.value),
            })
            .collect::<Vec<_>>()
            .join(", ")
    }
}
