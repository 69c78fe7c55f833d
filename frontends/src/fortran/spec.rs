//! Pass 2: specification parts. The order of the units (modules after the modules they USE),
//! the walk over a unit's specification part, statement functions, implicit typing, and the
//! declaration statements that are not type declarations: USE, IMPLICIT, PARAMETER, interfaces.

use super::lower::*;
use crate::ts::Field;
use crate::ts::{children_with_fields, named_children, text, trails};
use radtap_il::*;
use std::collections::HashMap;
use tree_sitter::Node;

impl<'a, 't> FortranLowering<'a, 't> {
    pub(super) fn spec_order(&self) -> Vec<usize> {
        // Modules in an order where each module comes after the modules it uses (when they are
        // in the program), then every other unit in creation order.
        let mut mods: Vec<usize> = (0..self.pending.len())
            .filter(|&i| self.p.units[self.pending[i].unit].kind == UnitKind::Module)
            .collect();
        // The program's modules each module uses, computed once.
        let deps: HashMap<usize, Vec<UnitId>> = mods
            .iter()
            .map(|&i| {
                let f = &self.files[self.pending[i].fidx];
                let used = named_children(self.pending[i].node)
                    .into_iter()
                    .filter(|c| c.kind() == "use_statement")
                    .filter_map(|c| {
                        named_children(c)
                            .into_iter()
                            .find(|x| x.kind() == "module_name")
                    })
                    .filter_map(|m| self.modules.get(&key(text(m, f.src))).copied())
                    .filter(|&mu| mu != self.pending[i].unit)
                    .collect();
                (i, used)
            })
            .collect();
        let mut done: Vec<usize> = Vec::new();
        let mut done_units: std::collections::HashSet<UnitId> = Default::default();
        while !mods.is_empty() {
            // The first module whose used modules are all done; on a USE cycle, the first.
            let pick = mods
                .iter()
                .position(|i| deps[i].iter().all(|u| done_units.contains(u)))
                .unwrap_or(0);
            let i = mods.remove(pick);
            done_units.insert(self.pending[i].unit);
            done.push(i);
        }
        done.extend(
            (0..self.pending.len())
                .filter(|&i| self.p.units[self.pending[i].unit].kind != UnitKind::Module),
        );
        done
    }

    pub(super) fn enter(&mut self, i: usize) {
        let pd = &self.pending[i];
        self.cur_unit = Some(pd.unit);
        self.cur_file = pd.fidx;
        self.cur_scope = Some(self.p.units[pd.unit].scope);
        self.pending_dirs.clear();
    }

    pub(super) fn lower_spec(&mut self, i: usize) {
        self.enter(i);
        let node = self.pending[i].node;
        let uid = self.pending[i].unit;
        self.relower_header_type(uid);
        let kids = children_with_fields(node);
        let mut idx = 0;
        // Skip the header statement.
        if self.p.units[self.pending[i].unit]
            .source_map
            .header
            .is_some()
        {
            while idx < kids.len() && !kids[idx].1.is_named() {
                idx += 1;
            }
            idx += 1;
        }
        let mut decls = Vec::new();
        let mut pending_label: Option<Node> = None;
        // Where the directives not yet attached to a declaration start: when the body
        // follows them, they belong to its first statement.
        let mut dirs_from: Option<(usize, usize)> = None;
        // `!$omp` lines among the declarations so far (see below).
        let mut omp_in_spec: Vec<(Span, String)> = Vec::new();
        // The declaration node last lowered and how many declarations it left, for a
        // comment at the end of its line.
        let mut last: Option<(Node, usize)> = None;
        while idx < kids.len() {
            let c = kids[idx].1;
            let k = c.kind();
            if !c.is_named() {
                idx += 1;
                continue;
            }
            if k == "statement_label" {
                pending_label = Some(c);
                idx += 1;
                continue;
            }
            if k == "comment" && super::omp::sentinel(self.t(c)).is_some() {
                // An `!$omp` line before the first statement belongs to the body, which
                // re-reads it (`omp.rs`); one among declarations (`threadprivate`) is refused
                // when a declaration follows.
                let t = self.t(c).to_string();
                dirs_from.get_or_insert((idx, decls.len()));
                omp_in_spec.push((self.sp(c), t.clone()));
                decls.push(Decl::Comment(t));
                last = None;
                idx += 1;
                continue;
            }
            if k == "comment" {
                let t = self.t(c).to_string();
                match parse_directive(&t) {
                    Some(mut d) => {
                        d.span = Some(self.sp(c));
                        dirs_from.get_or_insert((idx, decls.len()));
                        self.pending_dirs.push(d)
                    }
                    None => match last {
                        Some((prev, n)) if n == decls.len() && n > 0 && trails(prev, c) => {
                            decls.push(Decl::TrailingComment(t))
                        }
                        _ => decls.push(Decl::Comment(t)),
                    },
                }
                last = None;
                idx += 1;
                continue;
            }
            if k == "assignment_statement" && self.is_statement_function(c) {
                if let Some(d) = self.lower_stmt_function(c) {
                    decls.push(d);
                }
                idx += 1;
                continue;
            }
            if k == "format_statement" && pending_label.is_some() {
                // A FORMAT in the spec part: keep it with its label in the body instead.
                break;
            }
            if STATEMENT_KINDS.contains(&k)
                || k.starts_with("end_")
                || k == "internal_procedures"
                || k == "format_statement"
                || k == "entry_statement"
            {
                break;
            }
            // A label on a declaration is legal but meaningless.
            pending_label = None;
            dirs_from = None;
            for (sp, t) in std::mem::take(&mut omp_in_spec) {
                let w = super::omp::sentinel(&t)
                    .unwrap_or("")
                    .trim()
                    .to_ascii_lowercase();
                self.omp_refuse(sp, crate::omp::refusal(&w));
            }
            for d in std::mem::take(&mut self.pending_dirs) {
                decls.push(Decl::Directive(d));
            }
            let before = decls.len();
            self.lower_decl(c, &mut decls);
            last = (decls.len() > before).then_some((c, decls.len()));
            idx += 1;
        }
        if pending_label.is_some() {
            // Back up so the label is seen by the body.
            idx -= 1;
            while idx > 0 && kids[idx].1.kind() != "statement_label" {
                idx -= 1;
            }
        }
        if let (Some((at, n)), None) = (dirs_from, pending_label) {
            if idx < kids.len() {
                // The body re-reads the directives and the comments among them.
                idx = at;
                self.pending_dirs.clear();
                decls.truncate(n);
            }
        }
        self.pending[i].body_start = idx;
        self.unit().decls = decls;
        self.finish_implicit_types();
        self.mark_implicit_save();
    }

    /// A procedure's local initialised in its declaration or by DATA is saved (F2008
    /// 5.3.16), and a SAVE without a list saves every local: each is marked SAVE like one a
    /// SAVE statement names, so the analyses see its value
    /// carried from one call to the next and its derivative is saved too.
    fn mark_implicit_save(&mut self) {
        fn base(u: &UnitData, e: ExprId, out: &mut Vec<SymbolId>) {
            match &u.exprs[e] {
                Expr::Name(s) => out.push(*s),
                Expr::Index { base: b, .. } | Expr::Paren(b) => base(u, *b, out),
                Expr::ImpliedDo { items, .. } => {
                    for &i in items {
                        base(u, i, out);
                    }
                }
                _ => {}
            }
        }
        let Some(id) = self.cur_unit else { return };
        let u = &self.p.units[id];
        if !matches!(u.kind, UnitKind::Subroutine | UnitKind::Function) {
            return;
        }
        let mut saved = Vec::new();
        for d in &u.decls {
            match d {
                Decl::Var(v) => saved.extend(
                    v.entities
                        .iter()
                        .filter(|e| matches!(e.init, Some(Init::Expr(_))))
                        .map(|e| e.sym),
                ),
                Decl::Data(sets) => {
                    for set in sets {
                        for &o in &set.objects {
                            base(u, o, &mut saved);
                        }
                    }
                }
                // SAVE without a list: every local.
                Decl::Attr(a) if a.keyword == "save" && a.items.is_empty() => {
                    saved.extend(self.p.scopes[u.scope].order.iter().copied());
                }
                _ => {}
            }
        }
        for s in saved {
            let sd = &mut self.p.symbols[s];
            if sd.kind == SymbolKind::Variable
                && !sd.attrs.constant
                && !sd.attrs.dummy
                && !sd.attrs.pointer
                && sd.common.is_none()
            {
                sd.attrs.save = true;
            }
        }
    }

    fn is_statement_function(&self, c: Node) -> bool {
        let Some(lhs) = c.field("left") else {
            return false;
        };
        if lhs.kind() != "call_expression" {
            return false;
        }
        let Some(callee) = named_children(lhs).into_iter().next() else {
            return false;
        };
        if callee.kind() != "identifier" {
            return false;
        }
        let k = key(self.t(callee));
        match self.p.lookup(self.scope(), &k) {
            Some(s) => {
                let sd = &self.p.symbols[s];
                let is_array = sd.ty.as_ref().is_some_and(|t| !t.dims.is_empty());
                let is_char = sd
                    .ty
                    .as_ref()
                    .is_some_and(|t| t.base == BaseClass::Character);
                sd.kind == SymbolKind::Variable && !is_array && !is_char && sd.scope == self.scope()
            }
            None => true,
        }
    }

    fn lower_stmt_function(&mut self, c: Node<'t>) -> Option<Decl> {
        let lhs = c.field("left")?;
        let rhs = c.field("right")?;
        let kids = named_children(lhs);
        let name = self.get_or_create(self.scope(), kids[0], SymbolKind::StatementFunction);
        self.p.symbols[name].kind = SymbolKind::StatementFunction;
        let mut params = Vec::new();
        if let Some(al) = kids.get(1) {
            for a in named_children(*al) {
                if a.kind() == "identifier" {
                    params.push(self.get_or_create(self.scope(), a, SymbolKind::Variable));
                }
            }
        }
        let body = self.expr(rhs);
        Some(Decl::StmtFunction { name, params, body })
    }

    /// Gives every still-untyped variable of the current scope its implicit type.
    pub(super) fn finish_implicit_types(&mut self) {
        let scope = self.scope();
        let syms = self.p.scopes[scope].order.clone();
        for s in syms {
            let sd = &self.p.symbols[s];
            if sd.ty.is_none() && matches!(sd.kind, SymbolKind::Variable | SymbolKind::Constant) {
                if let Some(t) = self.implicit_type(scope, &sd.spelling.clone()) {
                    self.p.symbols[s].ty = Some(t);
                    self.p.symbols[s].implicit_type = true;
                }
            }
        }
    }

    pub(super) fn lower_decl(&mut self, c: Node<'t>, decls: &mut Vec<Decl>) {
        match c.kind() {
            "use_statement" => decls.push(self.lower_use(c)),
            "implicit_statement" => decls.push(self.lower_implicit(c)),
            "variable_declaration" if c.field("type").is_some_and(|t| t.kind() == "procedure") => {
                if let Some(d) = self.lower_procedure_decl(c) {
                    decls.push(d);
                }
            }
            "variable_declaration" => {
                if let Some(d) = self.lower_var_decl(c) {
                    decls.push(Decl::var(d));
                }
            }
            "parameter_statement" => {
                let mut items = Vec::new();
                for pa in named_children(c) {
                    let ks = named_children(pa);
                    if ks.len() < 2 {
                        continue;
                    }
                    let s = self.declare_name(ks[0]);
                    let e = self.expr(ks[1]);
                    self.p.symbols[s].kind = SymbolKind::Constant;
                    self.p.symbols[s].attrs.constant = true;
                    items.push((s, e));
                }
                decls.push(Decl::Parameter(items));
            }
            "derived_type_definition" => {
                if let Some(t) = self.lower_derived_type(c) {
                    decls.push(Decl::TypeDef(t));
                }
            }
            "common_statement" => decls.push(self.lower_common(c)),
            "equivalence_statement" => {
                let mut sets = Vec::new();
                for set in named_children(c) {
                    let items = named_children(set)
                        .into_iter()
                        .map(|x| self.expr(x))
                        .collect();
                    sets.push(items);
                }
                decls.push(Decl::Equivalence(sets));
            }
            "data_statement" => decls.push(self.lower_data(c)),
            "variable_modification" => decls.push(self.lower_attr_stmt(c)),
            "save_statement" | "public_statement" | "private_statement" => {
                decls.push(self.lower_simple_attr(c))
            }
            "interface" => {
                if let Some(i) = self.lower_interface(c) {
                    decls.push(Decl::Interface(i));
                }
            }
            // Read by the caller and expanded before parsing (`finclude.rs`): one left is a
            // file that was not read, whose declarations (COMMON blocks) would be unknown.
            // MPI's `include 'mpif.h'` (issue 46): its names are the `mpi` module's, which
            // radtap knows; the line stays as written.
            "include_statement"
                if crate::finclude::fortran_include(self.t(c))
                    .is_some_and(|n| n.eq_ignore_ascii_case("mpif.h")) =>
            {
                let imp = UseImport {
                    module: "mpi".into(),
                    unit: self.intrinsic_module("mpi"),
                    only: false,
                    names: Vec::new(),
                };
                let scope = self.scope();
                self.p.scopes[scope].uses.push(imp);
                decls.push(Decl::Verbatim(normalize_ws(self.t(c))));
            }
            "include_statement" => {
                let msg = format!(
                    "`{}`: the INCLUDE file was not read (give it beside the source or with -I); its declarations would be unknown",
                    normalize_ws(self.t(c))
                );
                self.err(Code::Unsupported, c, msg);
            }
            "namelist_statement" | "format_statement" => {
                decls.push(Decl::Verbatim(normalize_ws(self.t(c))))
            }
            "enum"
            | "enumeration_type"
            | "bind_statement"
            | "cray_pointer_declaration"
            | "import_statement" => {
                self.unsupported(c, &format!("`{}` statement", c.kind().replace('_', " ")))
            }
            "ERROR" => {}
            other => self.unsupported(c, &format!("`{other}` in a specification part")),
        }
    }

    fn lower_use(&mut self, c: Node<'t>) -> Decl {
        let mut imp = UseImport {
            module: String::new(),
            unit: None,
            only: false,
            names: Vec::new(),
        };
        for (_, ch) in children_with_fields(c) {
            match ch.kind() {
                "module_name" => imp.module = key(self.t(ch)),
                "included_items" => {
                    imp.only = true;
                    for it in named_children(ch) {
                        self.use_item(it, &mut imp);
                    }
                }
                "use_alias" => self.use_item(ch, &mut imp),
                _ => {}
            }
        }
        match self.modules.get(&imp.module) {
            Some(&u) => imp.unit = Some(u),
            None if is_intrinsic_module(&imp.module) => {
                imp.unit = self.intrinsic_module(&imp.module);
            }
            None => {
                let sp = self.sp(c);
                self.diags.push(Diagnostic::warning(
                    Code::UnknownModule,
                    sp,
                    format!(
                        "module `{}` is not among the input files: its names are left unresolved",
                        imp.module
                    ),
                ));
            }
        }
        let scope = self.scope();
        self.p.scopes[scope].uses.push(imp.clone());
        Decl::Use(imp, normalize_ws(self.t(c)))
    }

    fn use_item(&mut self, it: Node, imp: &mut UseImport) {
        match it.kind() {
            "identifier" => {
                let k = self.t(it).to_string();
                imp.names.push((k.clone(), k));
            }
            "use_alias" => {
                let ks = named_children(it);
                if ks.len() == 2 {
                    imp.names
                        .push((self.t(ks[0]).to_string(), self.t(ks[1]).to_string()));
                }
            }
            _ => {}
        }
    }

    fn lower_implicit(&mut self, c: Node<'t>) -> Decl {
        let scope = self.scope();
        let mut cur: Option<TypeSpec> = None;
        for ch in named_children(c) {
            match ch.kind() {
                "none" => self.p.scopes[scope].implicit_none = true,
                "intrinsic_type" | "derived_type" => cur = Some(self.lower_type_spec(ch)),
                "implicit_range" => {
                    let t = self.t(ch).to_ascii_lowercase();
                    let letters: Vec<char> = t.chars().filter(|c| c.is_ascii_lowercase()).collect();
                    let (a, b) = match letters.as_slice() {
                        [a] => (*a, *a),
                        [a, b] => (*a, *b),
                        _ => continue,
                    };
                    let sc = &mut self.p.scopes[scope];
                    if sc.implicit.len() < 26 {
                        sc.implicit.resize(26, None);
                    }
                    for l in a..=b {
                        sc.implicit[(l as u8 - b'a') as usize] = cur.clone();
                    }
                }
                _ => {}
            }
        }
        Decl::Implicit(normalize_ws(self.t(c)))
    }

    fn lower_interface(&mut self, c: Node<'t>) -> Option<Interface> {
        let mut itf = Interface {
            name: None,
            is_abstract: false,
            bodies: vec![],
            module_procs: vec![],
        };
        let outer_scope = self.scope();
        let outer_unit = self.cur_unit;
        for x in named_children(c) {
            match x.kind() {
                "interface_statement" => {
                    for y in named_children(x) {
                        match y.kind() {
                            "name" => {
                                let nm = self.t(y).to_string();
                                let s = self.get_or_create(outer_scope, y, SymbolKind::Generic);
                                if self.p.symbols[s].kind == SymbolKind::Variable
                                    || self.p.symbols[s].kind == SymbolKind::Unknown
                                {
                                    self.p.symbols[s].kind = SymbolKind::Generic;
                                }
                                itf.name = Some(nm);
                            }
                            "abstract_specifier" => itf.is_abstract = true,
                            "operator" | "assignment" => {
                                self.unsupported(y, "operator/assignment interfaces")
                            }
                            _ => {}
                        }
                    }
                }
                "procedure_statement" => {
                    let names: Vec<String> = named_children(x)
                        .into_iter()
                        .filter(|y| y.kind() == "method_name")
                        .map(|y| self.t(y).to_string())
                        .collect();
                    itf.module_procs.push(names);
                }
                "subroutine" | "function" => {
                    // An interface body: a unit of its own whose declarations we lower now. It
                    // names an external procedure: register it in the enclosing scope.
                    let scope = self
                        .p
                        .scopes
                        .alloc(ScopeData::new(ScopeKind::Global, Some(self.global)));
                    let kind = if x.kind() == "function" {
                        UnitKind::Function
                    } else {
                        UnitKind::Subroutine
                    };
                    let u = self
                        .p
                        .units
                        .alloc(UnitData::new(kind, Lang::Fortran, scope));
                    self.p.scopes[scope].kind = ScopeKind::Unit(u);
                    let kids = named_children(x);
                    // IMPORT makes the host's names visible in the body (`import :: wp`
                    // names some of them; all are made visible: the body's own dummies and
                    // declarations still come first).
                    if kids.iter().any(|y| y.kind() == "import_statement") {
                        self.p.scopes[scope].parent = Some(outer_scope);
                    }
                    if let Some(h) = kids.first() {
                        if let Some(nn) = h.field("name") {
                            let s = self.get_or_create(outer_scope, nn, SymbolKind::Procedure);
                            if self.p.symbols[s].kind != SymbolKind::Generic {
                                self.p.symbols[s].kind = SymbolKind::Procedure;
                            }
                            self.p.units[u].name = Some(s);
                        }
                        self.lower_header(u, *h, scope);
                    }
                    let save = (self.cur_unit, self.cur_scope);
                    self.cur_unit = Some(u);
                    self.cur_scope = Some(scope);
                    let mut decls = Vec::new();
                    for y in kids.iter().skip(1) {
                        if y.kind().starts_with("end_") {
                            continue;
                        }
                        if y.kind() == "comment" {
                            decls.push(Decl::Comment(self.t(*y).to_string()));
                            continue;
                        }
                        if y.kind() == "import_statement" {
                            decls.push(Decl::Verbatim(normalize_ws(self.t(*y))));
                            continue;
                        }
                        self.lower_decl(*y, &mut decls);
                    }
                    self.p.units[u].decls = decls;
                    self.finish_implicit_types();
                    self.cur_unit = save.0;
                    self.cur_scope = save.1;
                    itf.bodies.push(u);
                }
                "comment" | "end_interface_statement" => {}
                _ => self.unsupported(x, &format!("`{}` in an interface", x.kind())),
            }
        }
        self.cur_unit = outer_unit;
        Some(itf)
    }
}
