//! C writer.

use crate::prec::{c_bin, C_ASSIGN, C_COMMA, C_COND, C_POSTFIX, C_PRIMARY, C_UNARY};
use radtap_il::*;

struct W<'p> {
    p: &'p Program,
    out: String,
    indent: usize,
    /// The statement span of each line written.
    map: crate::LineSpans,
}

/// Writes a whole C file.
pub(crate) fn write_file(p: &Program, file: usize) -> (String, Vec<Option<Span>>) {
    let mut w = W {
        p,
        out: String::new(),
        indent: 0,
        map: Default::default(),
    };
    for it in &p.files[file].items {
        match it {
            FileItem::Comment(c) => w.line(c),
            FileItem::Unit(u) => {
                let decls = &p.units[*u].decls;
                // Functions of this file, and the names declared so far: a function used
                // before its definition gets a prototype in front of its first user (the
                // input may order its functions freely behind prototypes; generated
                // functions have none of their own).
                let defined: Vec<(String, UnitId)> = decls
                    .iter()
                    .filter_map(|d| match d {
                        Decl::Unit(f) => p.units[*f].name.map(|n| (w.name(n).to_string(), *f)),
                        _ => None,
                    })
                    .collect();
                let mut declared: std::collections::HashSet<String> = Default::default();
                for (i, d) in decls.iter().enumerate() {
                    if matches!(d, Decl::Unit(_)) && i > 0 {
                        w.out.push('\n');
                    }
                    match d {
                        Decl::Var(v) => {
                            for e in &v.entities {
                                declared.insert(w.name(e.sym).to_string());
                            }
                        }
                        Decl::Unit(f) => {
                            if let Some(n) = p.units[*f].name {
                                declared.insert(w.name(n).to_string());
                            }
                            let used = w.names_used(*f);
                            for (name, g) in &defined {
                                if !declared.contains(name) && used.contains(name.as_str()) {
                                    declared.insert(name.clone());
                                    let h = w.header(*g);
                                    w.line(&format!("{h};"));
                                }
                            }
                        }
                        _ => {}
                    }
                    w.decl(*u, d);
                }
            }
        }
    }
    w.map.sync(&w.out);
    (w.out, w.map.spans)
}

fn bin_str(op: BinOp) -> &'static str {
    match op {
        BinOp::Add => "+",
        BinOp::Sub => "-",
        BinOp::Mul => "*",
        BinOp::Div => "/",
        BinOp::Rem => "%",
        BinOp::Eq(_) => "==",
        BinOp::Ne(_) => "!=",
        BinOp::Lt(_) => "<",
        BinOp::Le(_) => "<=",
        BinOp::Gt(_) => ">",
        BinOp::Ge(_) => ">=",
        BinOp::And => "&&",
        BinOp::Or => "||",
        BinOp::BitAnd => "&",
        BinOp::BitOr => "|",
        BinOp::BitXor => "^",
        BinOp::Shl => "<<",
        BinOp::Shr => ">>",
        BinOp::Pow | BinOp::Concat | BinOp::Eqv | BinOp::Neqv => "?",
    }
}

impl<'p> W<'p> {
    /// Ends the line just written with comment `c`, as the source had it.
    fn trail(&mut self, c: &str) {
        if self.out.ends_with('\n') {
            self.out.pop();
            self.out.push(' ');
            self.out.push_str(c.trim());
            self.out.push('\n');
        } else {
            self.line(c);
        }
    }

    fn line(&mut self, s: &str) {
        self.out.push_str(&"    ".repeat(self.indent));
        self.out.push_str(s);
        self.out.push('\n');
    }

    fn name(&self, s: SymbolId) -> &'p str {
        self.p.name(s)
    }

    // ------------------------------------------------------------------ types and declarations

    fn spec(&mut self, uid: UnitId, t: &TypeSpec, with_body: bool) -> String {
        let mut s = String::new();
        for q in &t.qualifiers {
            s.push_str(q);
            s.push(' ');
        }
        s.push_str(&t.keyword);
        if let Some(n) = &t.name {
            s.push(' ');
            s.push_str(n);
        }
        if let (Some(td), true) = (t.inline_def, with_body) {
            s.push_str(&self.record_body(uid, td));
        }
        s
    }

    fn record_body(&mut self, uid: UnitId, td: TypeDefId) -> String {
        let def = &self.p.typedefs[td];
        let mut s = String::from(" {");
        if def.kind == TypeDefKind::Enum {
            let mut items = Vec::new();
            for f in &def.fields {
                if let Decl::Enumerators(es) = f {
                    for (sym, v) in es {
                        match v {
                            Some(v) => {
                                items.push(format!("{} = {}", self.name(*sym), self.expr(uid, *v)))
                            }
                            None => items.push(self.name(*sym).to_string()),
                        }
                    }
                }
            }
            s.push(' ');
            s.push_str(&items.join(", "));
            s.push_str(" }");
            return s;
        }
        s.push('\n');
        let fields = def.fields.clone();
        let base = "    ".repeat(self.indent + 1);
        for f in &fields {
            match f {
                Decl::Var(v) => {
                    self.indent += 1;
                    let d = self.var_decl(uid, v);
                    self.indent -= 1;
                    s.push_str(&format!("{base}{d};\n"));
                }
                Decl::Comment(c) => s.push_str(&format!("{base}{c}\n")),
                _ => {}
            }
        }
        s.push_str(&"    ".repeat(self.indent));
        s.push('}');
        s
    }

    /// Applies declarator ops (top-down) around `inner`.
    fn declarator(&self, uid: UnitId, ops: &[DeclOp], inner: &str) -> String {
        let mut s = inner.to_string();
        let mut last_ptr = false;
        for op in ops.iter().rev() {
            match op {
                DeclOp::Pointer(q) => {
                    let quals = if q.is_empty() {
                        String::new()
                    } else {
                        format!("{} ", q.join(" "))
                    };
                    s = format!("*{quals}{s}");
                    last_ptr = true;
                }
                DeclOp::Array(e) => {
                    if last_ptr {
                        s = format!("({s})");
                    }
                    let size = e.map(|e| self.expr(uid, e)).unwrap_or_default();
                    s = format!("{s}[{size}]");
                    last_ptr = false;
                }
                DeclOp::Function(params, variadic) => {
                    if last_ptr {
                        s = format!("({s})");
                    }
                    s = format!("{s}({})", self.params(uid, params, *variadic, false));
                    last_ptr = false;
                }
            }
        }
        s
    }

    fn cparam(&self, uid: UnitId, p: &CParam) -> String {
        let mut spec = String::new();
        for q in &p.spec.qualifiers {
            spec.push_str(q);
            spec.push(' ');
        }
        spec.push_str(&p.spec.keyword);
        if let Some(n) = &p.spec.name {
            spec.push(' ');
            spec.push_str(n);
        }
        let d = self.declarator(uid, &p.derived, p.name.as_deref().unwrap_or(""));
        if d.is_empty() {
            spec
        } else if d.starts_with('[') || d.starts_with('(') && p.name.is_none() {
            format!("{spec}{d}")
        } else {
            format!("{spec} {d}")
        }
    }

    fn params(&self, uid: UnitId, ps: &[CParam], variadic: bool, void: bool) -> String {
        if ps.is_empty() && !variadic {
            return if void { "void".into() } else { String::new() };
        }
        let mut parts: Vec<String> = ps.iter().map(|p| self.cparam(uid, p)).collect();
        if variadic {
            parts.push("...".into());
        }
        parts.join(", ")
    }

    fn var_decl(&mut self, uid: UnitId, v: &VarDecl) -> String {
        let mut s = String::new();
        for a in &v.attrs {
            if let Attr::Keyword(k) = a {
                s.push_str(k);
                s.push(' ');
            }
        }
        s.push_str(&self.spec(uid, &v.spec, true));
        let ents: Vec<String> = v
            .entities
            .iter()
            .map(|en| {
                let mut d = self.declarator(uid, &en.derived, self.name(en.sym));
                if let Some(Init::Expr(e)) = &en.init {
                    d.push_str(" = ");
                    d.push_str(&self.expr(uid, *e));
                }
                d
            })
            .collect();
        if !ents.is_empty() {
            s.push(' ');
            s.push_str(&ents.join(", "));
        }
        s
    }

    fn decl(&mut self, uid: UnitId, d: &Decl) {
        match d {
            Decl::Var(v) => {
                let s = self.var_decl(uid, v);
                self.line(&format!("{s};"));
            }
            Decl::Preproc(t) | Decl::Verbatim(t) => {
                self.out.push_str(t);
                self.out.push('\n');
            }
            Decl::Comment(c) => {
                for l in c.lines() {
                    self.line(l)
                }
            }
            Decl::TrailingComment(c) => self.trail(c),
            Decl::Directive(d) => self.line(&d.text),
            Decl::Unit(u) => self.function(*u),
            Decl::TypeDef(td) => {
                let b = self.record_body(uid, *td);
                self.line(&format!("struct{b};"));
            }
            Decl::Use(..)
            | Decl::Implicit(_)
            | Decl::Parameter(_)
            | Decl::Common(_)
            | Decl::Equivalence(_)
            | Decl::Data(_)
            | Decl::Attr(_)
            | Decl::Interface(_)
            | Decl::StmtFunction { .. }
            | Decl::Enumerators(_) => {
                self.line("/* (Fortran declaration with no C form) */");
            }
        }
    }

    /// The names a function's expressions mention.
    fn names_used(&self, uid: UnitId) -> std::collections::HashSet<&'p str> {
        let u = &self.p.units[uid];
        u.exprs
            .iter()
            .filter_map(|(_, e)| match e {
                Expr::Name(s) => Some(self.name(*s)),
                Expr::Opaque(t) => Some(t.as_str()),
                Expr::Intrinsic(r) => Some(r.spelling),
                _ => None,
            })
            .collect()
    }

    fn function(&mut self, uid: UnitId) {
        let u = &self.p.units[uid];
        for d in &u.directives {
            self.line(&d.text);
        }
        let mut h = self.header(uid);
        h.push_str(" {");
        self.line(&h);
        self.indent += 1;
        let u = &self.p.units[uid];
        let body = u.body.clone();
        self.block(uid, &body);
        self.indent -= 1;
        self.line("}");
    }

    /// A function's head: prefixes, return type, name and parameters (no body).
    fn header(&mut self, uid: UnitId) -> String {
        let u = &self.p.units[uid];
        let mut h = String::new();
        for pf in &u.attrs.prefixes {
            if !pf.is_empty() {
                h.push_str(pf);
                h.push(' ');
            }
        }
        if let Some(t) = &u.header_type {
            let t = t.clone();
            h.push_str(&self.spec(uid, &t, false));
            h.push(' ');
        }
        let u = &self.p.units[uid];
        let name = u.name.map(|n| self.name(n)).unwrap_or("f");
        let params = self.params(uid, &u.c_params, u.c_variadic, u.c_void_params);
        let ptrs = self.declarator(uid, &u.ret_derived, &format!("{name}({params})"));
        h.push_str(&ptrs);
        h
    }

    // ------------------------------------------------------------------ statements

    /// A body, one level in.
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

    fn braced(&mut self, uid: UnitId, head: &str, b: &[StmtId]) {
        self.line(&format!("{head} {{"));
        self.indented(uid, b);
    }

    /// Writes a statement, noting its span (when it has one) for the lines it writes.
    fn stmt(&mut self, uid: UnitId, sid: StmtId) {
        let sp = self.p.units[uid].source_map.stmt.get(sid).copied();
        let outer = self.map.enter(&self.out, sp);
        self.stmt_text(uid, sid);
        let end = self.p.units[uid].stmts[sid]
            .omp
            .as_ref()
            .and_then(|o| o.lines(self.p, radtap_il::Lang::C).1);
        if let Some(end) = end {
            self.line(&end);
        }
        self.map.leave(&self.out, outer);
    }

    fn stmt_text(&mut self, uid: UnitId, sid: StmtId) {
        let st = &self.p.units[uid].stmts[sid];
        for d in &st.directives {
            self.line(&d.text);
        }
        if let Some(o) = &st.omp {
            let begin = o.lines(self.p, radtap_il::Lang::C).0;
            self.line(&begin);
        }
        if crate::is_directive_holder(st) {
            return;
        }
        if let Some(l) = &st.label {
            // Labels sit one level out, like most C code.
            let ind = self.indent.saturating_sub(1);
            self.out.push_str(&"    ".repeat(ind));
            self.out.push_str(&format!("{l}:\n"));
        }
        let kind = st.kind.clone();
        let e = |w: &Self, x: ExprId| w.expr(uid, x);
        match &kind {
            StmtKind::Assign { lhs, op, rhs } => {
                let ops = op
                    .map(|o| format!("{}=", bin_str(o)))
                    .unwrap_or_else(|| "=".into());
                let s = format!(
                    "{} {ops} {};",
                    e(self, *lhs),
                    self.expr_prec(uid, *rhs, C_ASSIGN)
                );
                self.line(&s);
            }
            StmtKind::Call { callee, args, .. } => {
                let a: Vec<String> = args
                    .iter()
                    .map(|a| self.expr_prec(uid, a.value, C_ASSIGN))
                    .collect();
                let s = format!(
                    "{}({});",
                    self.expr_prec(uid, *callee, C_POSTFIX),
                    a.join(", ")
                );
                self.line(&s);
            }
            StmtKind::Expr(x) => {
                let s = format!("{};", e(self, *x));
                self.line(&s);
            }
            StmtKind::If {
                arms, else_block, ..
            } => {
                for (i, (c, b)) in arms.iter().enumerate() {
                    let cs = e(self, *c);
                    if i == 0 {
                        self.braced(uid, &format!("if ({cs})"), b);
                    } else {
                        self.out.push_str(&"    ".repeat(self.indent));
                        self.out.push_str(&format!("}} else if ({cs}) {{\n"));
                        self.indented(uid, b);
                    }
                }
                if let Some(b) = else_block {
                    self.line("} else {");
                    self.indented(uid, b);
                }
                self.line("}");
            }
            StmtKind::CFor {
                init,
                cond,
                step,
                body,
                ..
            } => {
                let init_s = match init {
                    Some(i) => self.inline_stmt(uid, *i),
                    None => String::new(),
                };
                let c = cond.map(|c| e(self, c)).unwrap_or_default();
                let st = step.map(|s| e(self, s)).unwrap_or_default();
                let head = format!(
                    "for ({init_s};{}{};{}{})",
                    if c.is_empty() { "" } else { " " },
                    c,
                    if st.is_empty() { "" } else { " " },
                    st
                );
                self.braced(uid, &head, body);
                self.line("}");
            }
            StmtKind::While { cond, body, .. } => {
                let h = format!("while ({})", e(self, *cond));
                self.braced(uid, &h, body);
                self.line("}");
            }
            StmtKind::Loop { body } => {
                self.braced(uid, "for (;;)", body);
                self.line("}");
            }
            StmtKind::DoWhile { body, cond } => {
                self.braced(uid, "do", body);
                let s = format!("}} while ({});", e(self, *cond));
                self.line(&s);
            }
            StmtKind::Switch { expr, body } => {
                let h = format!("switch ({})", e(self, *expr));
                self.braced(uid, &h, body);
                self.line("}");
            }
            StmtKind::CaseLabel(v) => {
                self.indent = self.indent.saturating_sub(1);
                match v {
                    Some(v) => {
                        let s = format!("case {}:", e(self, *v));
                        self.line(&s)
                    }
                    None => self.line("default:"),
                }
                self.indent += 1;
            }
            StmtKind::Block { body, .. } => {
                self.line("{");
                self.indented(uid, body);
                self.line("}");
            }
            StmtKind::Decl(d) => self.decl(uid, d),
            StmtKind::Break => self.line("break;"),
            StmtKind::CContinue => self.line("continue;"),
            StmtKind::Goto(l) => self.line(&format!("goto {l};")),
            StmtKind::Return(v) => match v {
                Some(v) => {
                    let s = format!("return {};", e(self, *v));
                    self.line(&s)
                }
                None => self.line("return;"),
            },
            StmtKind::Empty | StmtKind::Continue => self.line(";"),
            StmtKind::Comment(c) => self.line(c),
            StmtKind::Stop { .. } => self.line("exit(0);"),
            StmtKind::PointerAssign { .. }
            | StmtKind::Do { .. }
            | StmtKind::Select { .. }
            | StmtKind::Where { .. }
            | StmtKind::Forall { .. }
            | StmtKind::Exit(_)
            | StmtKind::Cycle(_)
            | StmtKind::ComputedGoto { .. }
            | StmtKind::ArithIf { .. }
            | StmtKind::Memory { .. }
            | StmtKind::Io { .. }
            | StmtKind::Format(_)
            | StmtKind::Entry { .. } => self.line("/* (Fortran statement with no C form) */"),
        }
    }

    /// A `for` initializer, without the trailing `;`.
    fn inline_stmt(&mut self, uid: UnitId, sid: StmtId) -> String {
        match self.p.units[uid].stmts[sid].kind.clone() {
            StmtKind::Decl(Decl::Var(v)) => self.var_decl(uid, &v),
            StmtKind::Assign { lhs, op, rhs } => {
                let ops = op
                    .map(|o| format!("{}=", bin_str(o)))
                    .unwrap_or_else(|| "=".into());
                format!(
                    "{} {ops} {}",
                    self.expr(uid, lhs),
                    self.expr_prec(uid, rhs, C_ASSIGN)
                )
            }
            StmtKind::Expr(e) => self.expr(uid, e),
            StmtKind::Call { callee, args, .. } => {
                let a: Vec<String> = args
                    .iter()
                    .map(|a| self.expr_prec(uid, a.value, C_ASSIGN))
                    .collect();
                format!("{}({})", self.expr(uid, callee), a.join(", "))
            }
            _ => String::new(),
        }
    }

    // ------------------------------------------------------------------ expressions

    fn expr(&self, uid: UnitId, e: ExprId) -> String {
        self.expr_prec(uid, e, 0)
    }

    fn prec(&self, uid: UnitId, e: ExprId) -> u8 {
        match &self.p.units[uid].exprs[e] {
            Expr::Comma(_) => C_COMMA,
            Expr::Assign { .. } => C_ASSIGN,
            Expr::Cond { .. } => C_COND,
            Expr::Binary { op, .. } => c_bin(*op),
            Expr::Unary { .. } | Expr::Cast { .. } | Expr::SizeofType(_) => C_UNARY,
            Expr::IncDec { prefix: true, .. } => C_UNARY,
            Expr::IncDec { prefix: false, .. }
            | Expr::Index { .. }
            | Expr::Call { .. }
            | Expr::Field { .. }
            | Expr::CompoundLit { .. } => C_POSTFIX,
            Expr::Literal(_)
            | Expr::Name(_)
            | Expr::Opaque(_)
            | Expr::Intrinsic(_)
            | Expr::Paren(_)
            | Expr::ArrayCtor { .. }
            | Expr::ImpliedDo { .. }
            | Expr::Designated { .. } => C_PRIMARY,
        }
    }

    /// Writes `e`, parenthesized if it binds less tightly than `min`.
    fn expr_prec(&self, uid: UnitId, e: ExprId, min: u8) -> String {
        let s = self.expr_raw(uid, e);
        if self.prec(uid, e) < min {
            format!("({s})")
        } else {
            s
        }
    }

    fn expr_raw(&self, uid: UnitId, e: ExprId) -> String {
        let u = &self.p.units[uid];
        match &u.exprs[e] {
            Expr::Literal(l) => l.text.clone(),
            Expr::Name(s) => self.name(*s).to_string(),
            Expr::Opaque(t) => t.clone(),
            Expr::Intrinsic(r) => r.spelling.to_string(),
            Expr::Index { base, subs } => {
                let mut s = self.expr_prec(uid, *base, C_POSTFIX);
                for sub in subs {
                    match sub {
                        Subscript::Index(i) => s.push_str(&format!("[{}]", self.expr(uid, *i))),
                        Subscript::Range(..) => s.push_str("[/* section */]"),
                    }
                }
                s
            }
            Expr::Call { callee, args } => {
                let a: Vec<String> = args
                    .iter()
                    .map(|a| self.expr_prec(uid, a.value, C_ASSIGN))
                    .collect();
                format!(
                    "{}({})",
                    self.expr_prec(uid, *callee, C_POSTFIX),
                    a.join(", ")
                )
            }
            Expr::Field { base, field, arrow } => {
                format!(
                    "{}{}{}",
                    self.expr_prec(uid, *base, C_POSTFIX),
                    if *arrow { "->" } else { "." },
                    field
                )
            }
            Expr::Unary { op, arg } => {
                let a = self.expr_prec(uid, *arg, C_UNARY);
                match op {
                    UnOp::Neg => format!(
                        "-{}",
                        if a.starts_with('-') {
                            format!(" {a}")
                        } else {
                            a
                        }
                    ),
                    UnOp::Plus => format!(
                        "+{}",
                        if a.starts_with('+') {
                            format!(" {a}")
                        } else {
                            a
                        }
                    ),
                    UnOp::Not => format!("!{a}"),
                    UnOp::BitNot => format!("~{a}"),
                    UnOp::Deref => format!("*{a}"),
                    UnOp::AddrOf => format!("&{a}"),
                    UnOp::Sizeof => format!("sizeof {a}"),
                }
            }
            Expr::Binary { op, lhs, rhs } => {
                let p = c_bin(*op);
                format!(
                    "{} {} {}",
                    self.expr_prec(uid, *lhs, p),
                    bin_str(*op),
                    self.expr_prec(uid, *rhs, p + 1)
                )
            }
            Expr::Paren(x) => format!("({})", self.expr(uid, *x)),
            Expr::ArrayCtor { items, .. } => {
                let it: Vec<String> = items
                    .iter()
                    .map(|&i| self.expr_prec(uid, i, C_ASSIGN))
                    .collect();
                format!("{{{}}}", it.join(", "))
            }
            Expr::Designated { designators, value } => format!(
                "{} = {}",
                designators.join(""),
                self.expr_prec(uid, *value, C_ASSIGN)
            ),
            Expr::Cast { ty, arg } => format!(
                "({}){}",
                self.cparam(uid, ty),
                self.expr_prec(uid, *arg, C_UNARY)
            ),
            Expr::SizeofType(ty) => format!("sizeof({})", self.cparam(uid, ty)),
            Expr::Cond { cond, then, else_ } => format!(
                "{} ? {} : {}",
                self.expr_prec(uid, *cond, C_COND + 1),
                self.expr_prec(uid, *then, C_COMMA + 1),
                self.expr_prec(uid, *else_, C_COND)
            ),
            Expr::Assign { op, lhs, rhs } => {
                let ops = op
                    .map(|o| format!("{}=", bin_str(o)))
                    .unwrap_or_else(|| "=".into());
                format!(
                    "{} {ops} {}",
                    self.expr_prec(uid, *lhs, C_UNARY),
                    self.expr_prec(uid, *rhs, C_ASSIGN)
                )
            }
            Expr::IncDec { inc, prefix, arg } => {
                let o = if *inc { "++" } else { "--" };
                if *prefix {
                    format!("{o}{}", self.expr_prec(uid, *arg, C_UNARY))
                } else {
                    format!("{}{o}", self.expr_prec(uid, *arg, C_POSTFIX))
                }
            }
            Expr::Comma(items) => items
                .iter()
                .map(|&i| self.expr_prec(uid, i, C_ASSIGN))
                .collect::<Vec<_>>()
                .join(", "),
            Expr::CompoundLit { ty, init } => {
                format!("({}){}", self.cparam(uid, ty), self.expr(uid, *init))
            }
            Expr::ImpliedDo { .. } => "/* implied-do */".into(),
        }
    }
}
