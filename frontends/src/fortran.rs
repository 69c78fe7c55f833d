//! Fortran lowering: tree-sitter-fortran trees into the IL.
//!
//! Three passes over all Fortran files of the program, so that order of units and files does
//! not matter: (1) create units and scopes and register procedure and module names; (2) lower
//! specification parts, modules first in USE order; (3) lower executable parts, hosts before
//! their internal procedures. Names are resolved while lowering: a `call_expression` is an array
//! reference when its name is a variable with dimensions (or a character substring), otherwise
//! a function call.

use crate::intrinsics::is_fortran_intrinsic;
use crate::ts::{children_with_fields, named_children, span, text};
use radtap_il::*;
use std::collections::HashMap;
use tree_sitter::Node;

/// One parsed Fortran file.
pub(crate) struct FFile<'t> {
    pub(crate) file: u32,
    pub(crate) src: &'t str,
    pub(crate) root: Node<'t>,
    pub(crate) line_map: Option<&'t [u32]>,
}

struct Pending<'t> {
    unit: UnitId,
    node: Node<'t>,
    fidx: usize,
    /// Index of the first body child (after the spec part), filled by pass 2.
    body_start: usize,
}

pub(crate) struct FortranLowering<'a, 't> {
    p: &'a mut Program,
    diags: &'a mut Vec<Diagnostic>,
    files: &'a [FFile<'t>],
    global: ScopeId,
    pending: Vec<Pending<'t>>,
    modules: HashMap<String, UnitId>,
    // Per-unit state while lowering one unit.
    cur_unit: Option<UnitId>,
    cur_file: usize,
    cur_scope: Option<ScopeId>,
    pending_dirs: Vec<Directive>,
}

fn key(s: &str) -> String {
    s.to_ascii_lowercase()
}

const STATEMENT_KINDS: &[&str] = &[
    "allocate_statement",
    "arithmetic_if_statement",
    "assign_statement",
    "assignment_statement",
    "associate_statement",
    "block_construct",
    "call_expression",
    "close_statement",
    "deallocate_statement",
    "do_loop",
    "file_position_statement",
    "forall_statement",
    "if_statement",
    "inquire_statement",
    "keyword_statement",
    "nullify_statement",
    "open_statement",
    "pointer_association_statement",
    "print_statement",
    "read_statement",
    "select_case_statement",
    "select_rank_statement",
    "select_type_statement",
    "stop_statement",
    "subroutine_call",
    "where_statement",
    "write_statement",
    "coarray_critical_statement",
    "coarray_statement",
    "coarray_team_statement",
];

/// Parses `!$AD NAME args` out of a comment.
pub(crate) fn parse_directive(comment: &str) -> Option<Directive> {
    let body = comment
        .trim_start_matches(['!', '/', '*', 'c', 'C'])
        .trim_start();
    let body = body.strip_prefix('$')?;
    let rest = body
        .strip_prefix("AD")
        .or_else(|| body.strip_prefix("ad"))?;
    if !rest.starts_with(char::is_whitespace) {
        return None;
    }
    let rest = rest.trim().trim_end_matches("*/").trim();
    let (name, args) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    Some(Directive {
        name: name.to_ascii_uppercase(),
        args: args.trim().to_string(),
        text: comment.trim().to_string(),
    })
}

impl<'a, 't> FortranLowering<'a, 't> {
    pub(crate) fn new(
        p: &'a mut Program,
        diags: &'a mut Vec<Diagnostic>,
        files: &'a [FFile<'t>],
        global: ScopeId,
    ) -> Self {
        FortranLowering {
            p,
            diags,
            files,
            global,
            pending: Vec::new(),
            modules: HashMap::new(),
            cur_unit: None,
            cur_file: 0,
            cur_scope: None,
            pending_dirs: Vec::new(),
        }
    }

    /// Runs the three passes; returns the file items of each file.
    pub(crate) fn run(mut self) -> Vec<Vec<FileItem>> {
        let mut items = Vec::new();
        for fidx in 0..self.files.len() {
            let root = self.files[fidx].root;
            self.cur_file = fidx;
            let mut its = Vec::new();
            let mut dirs = Vec::new();
            for ch in named_children(root) {
                match ch.kind() {
                    "program" | "module" | "subroutine" | "function" | "block_data" => {
                        let u = self.declare_unit(ch, fidx, None, self.global);
                        self.p.units[u].directives = std::mem::take(&mut dirs);
                        its.push(FileItem::Unit(u));
                    }
                    "comment" => {
                        let t = self.t(ch).to_string();
                        match parse_directive(&t) {
                            Some(d) => dirs.push(d),
                            None => its.push(FileItem::Comment(t)),
                        }
                    }
                    "ERROR" => {}
                    other => self.unsupported(ch, &format!("`{other}` at file level")),
                }
            }
            for d in dirs {
                its.push(FileItem::Comment(d.text));
            }
            items.push(its);
        }
        // Pass 2: specification parts, modules first (repeatedly, so a module can USE a module
        // defined later in the input).
        let order = self.spec_order();
        for i in order {
            self.lower_spec(i);
        }
        // Pass 3: bodies, in creation order (hosts before contained procedures).
        for i in 0..self.pending.len() {
            self.lower_body(i);
        }
        items
    }

    fn t(&self, n: Node) -> &'t str {
        text(n, self.files[self.cur_file].src)
    }

    fn sp(&self, n: Node) -> Span {
        let f = &self.files[self.cur_file];
        span(n, f.file, f.line_map)
    }

    fn unsupported(&mut self, n: Node, what: &str) {
        let sp = self.sp(n);
        self.diags.push(Diagnostic::error(
            Code::Unsupported,
            sp,
            format!("unsupported construct: {what}"),
        ));
    }

    fn err(&mut self, code: Code, n: Node, msg: String) {
        let sp = self.sp(n);
        self.diags.push(Diagnostic::error(code, sp, msg));
    }

    fn unit(&mut self) -> &mut UnitData {
        let u = self.cur_unit.expect("lowering outside a unit");
        &mut self.p.units[u]
    }

    fn scope(&self) -> ScopeId {
        self.cur_scope.expect("lowering outside a scope")
    }

    // ---------------------------------------------------------------- pass 1: units

    fn declare_unit(
        &mut self,
        n: Node<'t>,
        fidx: usize,
        parent: Option<UnitId>,
        parent_scope: ScopeId,
    ) -> UnitId {
        self.cur_file = fidx;
        let kind = match n.kind() {
            "program" => UnitKind::Program,
            "module" => UnitKind::Module,
            "subroutine" => UnitKind::Subroutine,
            "function" => UnitKind::Function,
            _ => UnitKind::BlockData,
        };
        let scope = self
            .p
            .scopes
            .alloc(ScopeData::new(ScopeKind::Global, Some(parent_scope)));
        let mut u = UnitData::new(kind, Lang::Fortran, scope);
        u.parent = parent;
        let uid = self.p.units.alloc(u);
        self.p.scopes[scope].kind = ScopeKind::Unit(uid);
        let kids = named_children(n);
        let header = kids.first().copied().filter(|h| {
            matches!(
                h.kind(),
                "program_statement"
                    | "module_statement"
                    | "subroutine_statement"
                    | "function_statement"
                    | "block_data_statement"
            )
        });
        let mut name_sym = None;
        if let Some(h) = header {
            let hsp = self.sp(h);
            self.p.units[uid].source_map.header = Some(hsp);
            let name_node = h
                .child_by_field_name("name")
                .or_else(|| named_children(h).into_iter().find(|c| c.kind() == "name"));
            if let Some(nn) = name_node {
                let spelling = self.t(nn).to_string();
                let k = key(&spelling);
                let sk = match kind {
                    UnitKind::Module => SymbolKind::Module,
                    UnitKind::Program | UnitKind::BlockData => SymbolKind::UnitName,
                    _ => SymbolKind::Procedure,
                };
                let existing = self.p.scopes[parent_scope].names.get(&k).copied();
                let sym = match existing {
                    Some(s) if self.p.symbols[s].unit.is_none() => s,
                    Some(_) => {
                        self.err(
                            Code::Redeclared,
                            nn,
                            format!("`{spelling}` is defined twice"),
                        );
                        self.new_sym_unregistered(&spelling, sk, parent_scope)
                    }
                    None => self.p.add_symbol(
                        parent_scope,
                        k.clone(),
                        sym_data(&spelling, sk, parent_scope),
                    ),
                };
                self.p.symbols[sym].kind = sk;
                self.p.symbols[sym].unit = Some(uid);
                if kind == UnitKind::Module {
                    self.modules.insert(k, uid);
                }
                name_sym = Some(sym);
            }
            self.lower_header(uid, h, scope);
        }
        self.p.units[uid].name = name_sym;
        if let (Some(_), Some(ns)) = (header, name_sym) {
            self.check_end_name(n, ns);
        }
        self.pending.push(Pending {
            unit: uid,
            node: n,
            fidx,
            body_start: 0,
        });
        // Contained procedures.
        for ch in &kids {
            if ch.kind() == "internal_procedures" {
                let mut comments = Vec::new();
                let mut dirs = Vec::new();
                for c in named_children(*ch) {
                    match c.kind() {
                        "subroutine" | "function" => {
                            let cu = self.declare_unit(c, fidx, Some(uid), scope);
                            self.p.units[uid].contains.push(cu);
                            // `$AD` directives just before a contained procedure's header.
                            self.p.units[cu].directives.append(&mut dirs);
                            self.cur_file = fidx;
                        }
                        "comment" => {
                            let t = self.t(c).to_string();
                            match parse_directive(&t) {
                                Some(d) => dirs.push(d),
                                None => comments.push(t),
                            }
                        }
                        "contains_statement" => {}
                        "module_procedure" => {
                            self.unsupported(c, "separate module procedures (submodules)")
                        }
                        _ => {}
                    }
                }
                comments.extend(dirs.into_iter().map(|d| d.text));
                self.p.units[uid].trailing_comments = comments;
            }
        }
        uid
    }

    fn new_sym_unregistered(
        &mut self,
        spelling: &str,
        kind: SymbolKind,
        scope: ScopeId,
    ) -> SymbolId {
        self.p.symbols.alloc(sym_data(spelling, kind, scope))
    }

    fn check_end_name(&mut self, n: Node, name: SymbolId) {
        let Some(end) = named_children(n)
            .into_iter()
            .rev()
            .find(|c| c.kind().starts_with("end_"))
        else {
            return;
        };
        if let Some(en) = named_children(end).into_iter().find(|c| c.kind() == "name") {
            let written = self.t(en);
            if key(written) != key(self.p.name(name)) {
                let msg = format!(
                    "END statement names `{written}` but the unit is `{}`",
                    self.p.name(name)
                );
                self.err(Code::EndNameMismatch, en, msg);
            }
        }
    }

    fn lower_header(&mut self, uid: UnitId, h: Node<'t>, scope: ScopeId) {
        for (field, c) in children_with_fields(h) {
            match (field, c.kind()) {
                (Some("parameters"), _) => {
                    let ps = named_children(c);
                    if ps.is_empty() {
                        self.p.units[uid].empty_parens = true;
                    }
                    for pn in ps {
                        if pn.kind() != "identifier" {
                            self.unsupported(pn, "alternate return dummy `*`");
                            continue;
                        }
                        let s = self.get_or_create(scope, pn, SymbolKind::Variable);
                        self.p.symbols[s].attrs.dummy = true;
                        self.p.units[uid].params.push(s);
                    }
                }
                (Some("type"), _) => {
                    let save = (self.cur_unit, self.cur_scope);
                    self.cur_unit = Some(uid);
                    self.cur_scope = Some(scope);
                    let ts = self.lower_type_spec(c);
                    self.p.units[uid].header_type = Some(ts);
                    (self.cur_unit, self.cur_scope) = save;
                }
                (_, "procedure_qualifier") => {
                    let q = self.t(c).to_ascii_lowercase();
                    self.p.units[uid].attrs.prefixes.push(q);
                }
                (_, "function_result") => {
                    if let Some(id) = named_children(c)
                        .into_iter()
                        .find(|x| x.kind() == "identifier")
                    {
                        let s = self.get_or_create(scope, id, SymbolKind::Variable);
                        self.p.units[uid].result = Some(s);
                        self.p.units[uid].explicit_result = true;
                    }
                }
                (_, "language_binding") => self.unsupported(c, "BIND(C) on a procedure"),
                _ => {}
            }
        }
        if self.p.units[uid].kind == UnitKind::Function && self.p.units[uid].result.is_none() {
            if let Some(nn) = h.child_by_field_name("name") {
                let spelling = self.t(nn).to_string();
                let s = self.p.add_symbol(
                    scope,
                    key(&spelling),
                    sym_data(&spelling, SymbolKind::Variable, scope),
                );
                self.p.units[uid].result = Some(s);
            }
        }
        if let (Some(r), Some(ht)) = (
            self.p.units[uid].result,
            self.p.units[uid].header_type.clone(),
        ) {
            self.p.symbols[r].ty = Some(type_of_spec(&ht, &[]));
        }
    }

    fn get_or_create(&mut self, scope: ScopeId, n: Node, kind: SymbolKind) -> SymbolId {
        let spelling = self.t(n).to_string();
        let k = key(&spelling);
        if let Some(&s) = self.p.scopes[scope].names.get(&k) {
            return s;
        }
        self.p
            .add_symbol(scope, k, sym_data(&spelling, kind, scope))
    }

    // ---------------------------------------------------------------- pass 2: spec parts

    fn spec_order(&self) -> Vec<usize> {
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

    fn enter(&mut self, i: usize) {
        let pd = &self.pending[i];
        self.cur_unit = Some(pd.unit);
        self.cur_file = pd.fidx;
        self.cur_scope = Some(self.p.units[pd.unit].scope);
        self.pending_dirs.clear();
    }

    fn lower_spec(&mut self, i: usize) {
        self.enter(i);
        let node = self.pending[i].node;
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
            if k == "comment" {
                let t = self.t(c).to_string();
                match parse_directive(&t) {
                    Some(d) => {
                        dirs_from.get_or_insert((idx, decls.len()));
                        self.pending_dirs.push(d)
                    }
                    None => decls.push(Decl::Comment(t)),
                }
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
            for d in std::mem::take(&mut self.pending_dirs) {
                decls.push(Decl::Directive(d));
            }
            self.lower_decl(c, &mut decls);
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
    }

    fn is_statement_function(&self, c: Node) -> bool {
        let Some(lhs) = c.child_by_field_name("left") else {
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
        let lhs = c.child_by_field_name("left")?;
        let rhs = c.child_by_field_name("right")?;
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
    fn finish_implicit_types(&mut self) {
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

    fn implicit_type(&self, scope: ScopeId, name: &str) -> Option<Type> {
        let letter = name.chars().next()?.to_ascii_lowercase();
        if !letter.is_ascii_lowercase() {
            return None;
        }
        let li = (letter as u8 - b'a') as usize;
        let mut sc = Some(scope);
        while let Some(s) = sc {
            let d = &self.p.scopes[s];
            if let Some(Some(ts)) = d.implicit.get(li) {
                return Some(type_of_spec(ts, &[]));
            }
            if d.implicit_none {
                return None;
            }
            sc = d.parent;
        }
        let (class, bytes) = if ('i'..='n').contains(&letter) {
            (BaseClass::Integer, 4)
        } else {
            (BaseClass::Real, 4)
        };
        Some(Type {
            base: class,
            bytes: Some(bytes),
            dims: vec![],
            pointers: 0,
        })
    }

    fn lower_decl(&mut self, c: Node<'t>, decls: &mut Vec<Decl>) {
        match c.kind() {
            "use_statement" => decls.push(self.lower_use(c)),
            "implicit_statement" => decls.push(self.lower_implicit(c)),
            "variable_declaration" => {
                if let Some(d) = self.lower_var_decl(c) {
                    decls.push(Decl::Var(d));
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
            "include_statement" | "namelist_statement" | "format_statement" => {
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
            None if is_intrinsic_module(&imp.module) => {}
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

    /// A type spec as written (`real(dp)`, `character*8`, `type(pt)`).
    fn lower_type_spec(&mut self, n: Node<'t>) -> TypeSpec {
        let mut ts = TypeSpec {
            class: BaseClass::Opaque,
            keyword: String::new(),
            name: None,
            kind: KindSel::Default,
            char_len: None,
            bytes: None,
            qualifiers: vec![],
            inline_def: None,
        };
        match n.kind() {
            "intrinsic_type" => {
                let kids = children_with_fields(n);
                let kw: Vec<String> = kids
                    .iter()
                    .filter(|(f, c)| f.is_none() && !c.is_named())
                    .map(|(_, c)| self.t(*c).to_ascii_lowercase())
                    .collect();
                ts.keyword = kw.join(" ");
                for (field, ch) in kids {
                    if field == Some("kind") {
                        self.lower_kind(ch, &mut ts);
                    }
                }
                let (class, bytes) = match ts.keyword.as_str() {
                    "integer" => (BaseClass::Integer, 4),
                    "real" => (BaseClass::Real, 4),
                    "double precision" | "doubleprecision" => (BaseClass::Real, 8),
                    "complex" => (BaseClass::Complex, 8),
                    "double complex" | "doublecomplex" => (BaseClass::Complex, 16),
                    "logical" => (BaseClass::Logical, 4),
                    "character" => (BaseClass::Character, 1),
                    _ => (BaseClass::Opaque, 0),
                };
                ts.class = class;
                ts.bytes = match &ts.kind {
                    KindSel::Default => Some(bytes),
                    // `complex*16` already counts both parts.
                    KindSel::Star(n) => Some(*n),
                    KindSel::Paren(e) | KindSel::Keyword(e) => {
                        let e = *e;
                        self.const_int(e).map(|k| {
                            if class == BaseClass::Complex {
                                2 * k as u32
                            } else {
                                k as u32
                            }
                        })
                    }
                };
            }
            "derived_type" => {
                for (field, ch) in children_with_fields(n) {
                    if !ch.is_named() && ts.keyword.is_empty() {
                        ts.keyword = self.t(ch).to_ascii_lowercase();
                    }
                    if field == Some("name") {
                        let nm = self.t(ch).to_string();
                        if let Some(s) = self.p.lookup(self.scope(), &key(&nm)) {
                            if let Some(td) = self.typedef_of_symbol(s) {
                                ts.class = BaseClass::Record(td);
                            }
                        }
                        ts.name = Some(nm);
                    }
                    if ch.kind() == "unlimited_polymorphic" {
                        ts.name = Some("*".into());
                    }
                }
            }
            "declared_type" | "procedure" => self.unsupported(n, "this declared type form"),
            _ => self.unsupported(n, "this type specification"),
        }
        ts
    }

    fn typedef_of_symbol(&self, s: SymbolId) -> Option<TypeDefId> {
        let sd = &self.p.symbols[s];
        if sd.kind != SymbolKind::Type {
            return None;
        }
        match sd.ty.as_ref()?.base {
            BaseClass::Record(t) => Some(t),
            _ => None,
        }
    }

    fn lower_kind(&mut self, k: Node<'t>, ts: &mut TypeSpec) {
        let kids = children_with_fields(k);
        let star = kids
            .first()
            .is_some_and(|(_, c)| self.t(*c) == "*" && !c.is_named())
            || self.t(k).starts_with('*');
        let named: Vec<Node> = kids
            .iter()
            .map(|(_, c)| *c)
            .filter(|c| c.is_named() && c.kind() != "comment")
            .collect();
        let is_char = ts.keyword == "character";
        if star {
            // `*8` or `*(*)` or `*(n)`.
            if is_char {
                let lv = match named.last() {
                    Some(c) if c.kind() == "assumed_size" => LenValue::Assumed,
                    Some(c) => LenValue::Expr(self.expr(*c)),
                    None => LenValue::Assumed,
                };
                ts.char_len = Some(CharLen::Star(lv));
            } else if let Some(c) = named.first() {
                match self.t(*c).parse::<u32>() {
                    Ok(v) => ts.kind = KindSel::Star(v),
                    Err(_) => self.unsupported(*c, "non-literal `*kind`"),
                }
            }
            return;
        }
        for c in named {
            if c.kind() == "keyword_argument" {
                let name = c
                    .child_by_field_name("name")
                    .map(|x| key(self.t(x)))
                    .unwrap_or_default();
                let Some(v) = c.child_by_field_name("value") else {
                    continue;
                };
                if name == "len" {
                    let lv = self.len_value(v);
                    ts.char_len = Some(CharLen::Keyword(lv));
                } else {
                    let e = self.expr(v);
                    ts.kind = KindSel::Keyword(e);
                }
            } else if is_char {
                let lv = self.len_value(c);
                ts.char_len = Some(CharLen::Paren(lv));
            } else {
                let e = self.expr(c);
                ts.kind = KindSel::Paren(e);
            }
        }
    }

    fn len_value(&mut self, v: Node<'t>) -> LenValue {
        match v.kind() {
            "assumed_size" => LenValue::Assumed,
            "assumed_shape" | "extent_specifier" if self.t(v).trim() == ":" => LenValue::Deferred,
            _ if self.t(v).trim() == ":" => LenValue::Deferred,
            _ => LenValue::Expr(self.expr(v)),
        }
    }

    /// Evaluates simple integer constant expressions (for kinds): literals, `kind(1.0d0)`,
    /// `selected_real_kind(p)`, and named constants.
    fn const_int(&self, e: ExprId) -> Option<i64> {
        let u = &self.p.units[self.cur_unit?];
        self.const_int_in(u, e, 0)
    }

    fn const_int_in(&self, u: &UnitData, e: ExprId, depth: u32) -> Option<i64> {
        if depth > 8 {
            return None;
        }
        match &u.exprs[e] {
            Expr::Literal(l) if l.kind == LitKind::Int => l.text.split('_').next()?.parse().ok(),
            Expr::Name(s) => {
                // Find the parameter's initializer in the unit that declared it.
                let sd = &self.p.symbols[*s];
                let ScopeKind::Unit(owner) = self.p.scopes[sd.scope].kind else {
                    return None;
                };
                let ou = &self.p.units[owner];
                for d in &ou.decls {
                    match d {
                        Decl::Var(v) => {
                            for en in &v.entities {
                                if en.sym == *s {
                                    if let Some(Init::Expr(ie)) = en.init {
                                        return self.const_int_in(ou, ie, depth + 1);
                                    }
                                }
                            }
                        }
                        Decl::Parameter(ps) => {
                            for (ps, pe) in ps {
                                if ps == s {
                                    return self.const_int_in(ou, *pe, depth + 1);
                                }
                            }
                        }
                        _ => {}
                    }
                }
                None
            }
            Expr::Call { callee, args } => {
                let Expr::Name(f) = u.exprs[*callee] else {
                    return None;
                };
                let fname = key(self.p.name(f));
                let a0 = args.first()?.value;
                match fname.as_str() {
                    "kind" => match &u.exprs[a0] {
                        Expr::Literal(l) if l.kind == LitKind::Real => {
                            let t = l.text.to_ascii_lowercase();
                            if t.contains('d') {
                                Some(8)
                            } else if let Some((_, k)) = t.split_once('_') {
                                k.parse().ok()
                            } else {
                                Some(4)
                            }
                        }
                        Expr::Literal(l) if l.kind == LitKind::Int => Some(4),
                        _ => None,
                    },
                    "selected_real_kind" => {
                        let p = self.const_int_in(u, a0, depth + 1)?;
                        Some(if p <= 6 {
                            4
                        } else if p <= 15 {
                            8
                        } else {
                            16
                        })
                    }
                    "selected_int_kind" => {
                        let r = self.const_int_in(u, a0, depth + 1)?;
                        Some(if r <= 2 {
                            1
                        } else if r <= 4 {
                            2
                        } else if r <= 9 {
                            4
                        } else {
                            8
                        })
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }

    fn declare_name(&mut self, n: Node) -> SymbolId {
        let scope = self.scope();
        self.get_or_create(scope, n, SymbolKind::Variable)
    }

    fn lower_var_decl(&mut self, c: Node<'t>) -> Option<VarDecl> {
        let mut spec = None;
        let mut attrs = Vec::new();
        let mut entities = Vec::new();
        let mut double_colon = false;
        for (field, ch) in children_with_fields(c) {
            match field {
                Some("type") => spec = Some(self.lower_type_spec(ch)),
                Some("attribute") => {
                    if let Some(a) = self.lower_attr(ch) {
                        attrs.push(a);
                    }
                }
                Some("declarator") => {
                    if let Some(e) = self.lower_entity(ch) {
                        entities.push(e);
                    }
                }
                _ if self.t(ch) == "::" => double_colon = true,
                _ => {}
            }
        }
        let spec = spec?;
        for en in &entities {
            self.apply_decl(en, &spec, &attrs, c);
        }
        Some(VarDecl {
            spec,
            attrs,
            entities,
            double_colon,
        })
    }

    fn apply_decl(&mut self, en: &Entity, spec: &TypeSpec, attrs: &[Attr], at: Node) {
        let mut dims: Vec<Dim> = Vec::new();
        for a in attrs {
            if let Attr::Dimension(d) = a {
                dims = d.clone();
            }
        }
        if let Some(d) = &en.dims {
            dims = d.clone();
        }
        let s = en.sym;
        let had_type = self.p.symbols[s].ty.is_some() && !self.p.symbols[s].implicit_type;
        let is_result = self.cur_unit.is_some_and(|u| {
            self.p.units[u].result == Some(s) && self.p.units[u].header_type.is_some()
        });
        if had_type && !is_result && self.p.symbols[s].kind != SymbolKind::Procedure {
            let sp = self.sp(at);
            let msg = format!("`{}` is declared twice in this scope", self.p.name(s));
            self.diags
                .push(Diagnostic::error(Code::Redeclared, sp, msg));
        }
        let mut ty = type_of_spec(spec, &dims);
        if let Some(old) = &self.p.symbols[s].ty {
            if ty.dims.is_empty() {
                ty.dims = old.dims.clone();
            }
        }
        let sd = &mut self.p.symbols[s];
        sd.ty = Some(ty);
        sd.implicit_type = false;
        for a in attrs {
            apply_attr(sd, a);
        }
    }

    fn lower_attr(&mut self, q: Node<'t>) -> Option<Attr> {
        let t = self.t(q).to_ascii_lowercase();
        let t = t.trim();
        if t.starts_with("intent") {
            let inner: String = t.chars().filter(|c| c.is_ascii_alphabetic()).collect();
            let intent = match inner.as_str() {
                "intentin" => Intent::In,
                "intentout" => Intent::Out,
                _ => Intent::InOut,
            };
            return Some(Attr::Intent(intent));
        }
        if t.starts_with("dimension") {
            let al = named_children(q)
                .into_iter()
                .find(|c| c.kind() == "argument_list" || c.kind() == "size")?;
            return Some(Attr::Dimension(self.dims(al)));
        }
        if t.starts_with("bind") || t.starts_with("codimension") {
            self.unsupported(q, &format!("the `{t}` attribute"));
            return None;
        }
        Some(Attr::Keyword(t.to_string()))
    }

    fn dims(&mut self, size: Node<'t>) -> Vec<Dim> {
        let mut out = Vec::new();
        for c in named_children(size) {
            match c.kind() {
                "comment" => {}
                "assumed_size" => out.push(Dim {
                    lower: None,
                    upper: DimUpper::Assumed,
                }),
                "extent_specifier" | "assumed_shape" => {
                    let (segs, _) = self.colon_segments(c);
                    let lower = segs.first().copied().flatten();
                    let upper = match segs.get(1).copied().flatten() {
                        Some(n) if n.kind() == "assumed_size" => DimUpper::Assumed,
                        Some(n) => DimUpper::Expr(self.expr(n)),
                        None => DimUpper::Deferred,
                    };
                    let lower = lower.map(|l| self.expr(l));
                    out.push(Dim { lower, upper });
                }
                _ => {
                    let e = self.expr(c);
                    out.push(Dim {
                        lower: None,
                        upper: DimUpper::Expr(e),
                    });
                }
            }
        }
        out
    }

    /// Splits `a:b:c` into its (optional) parts by the `:` tokens.
    fn colon_segments(&self, n: Node<'t>) -> (Vec<Option<Node<'t>>>, usize) {
        let mut segs: Vec<Option<Node>> = vec![None];
        let mut colons = 0;
        for (_, c) in children_with_fields(n) {
            if !c.is_named() && self.t(c) == ":" {
                segs.push(None);
                colons += 1;
            } else if !c.is_named() && self.t(c) == "::" {
                segs.push(None);
                segs.push(None);
                colons += 2;
            } else if c.is_named() && c.kind() != "comment" {
                if let Some(last) = segs.last_mut() {
                    *last = Some(c);
                }
            }
        }
        (segs, colons)
    }

    fn lower_entity(&mut self, d: Node<'t>) -> Option<Entity> {
        match d.kind() {
            "identifier" => Some(Entity {
                sym: self.declare_name(d),
                dims: None,
                char_len: None,
                derived: vec![],
                init: None,
            }),
            "sized_declarator" => {
                let mut en = None;
                let mut dims = None;
                let mut cl = None;
                for c in named_children(d) {
                    match c.kind() {
                        "identifier" => en = Some(self.declare_name(c)),
                        "size" => dims = Some(self.dims(c)),
                        "character_length" => {
                            let inner: Vec<Node> = named_children(c);
                            cl = Some(match inner.first() {
                                Some(x) if x.kind() == "assumed_size" => LenValue::Assumed,
                                Some(x) => LenValue::Expr(self.expr(*x)),
                                None => {
                                    let t = self.t(c).trim_start_matches('*').trim();
                                    if t.contains('*') {
                                        LenValue::Assumed
                                    } else {
                                        let lit = self.unit().exprs.alloc(Expr::Literal(Literal {
                                            kind: LitKind::Int,
                                            text: t.to_string(),
                                        }));
                                        LenValue::Expr(lit)
                                    }
                                }
                            });
                        }
                        _ => {}
                    }
                }
                Some(Entity {
                    sym: en?,
                    dims,
                    char_len: cl,
                    derived: vec![],
                    init: None,
                })
            }
            "init_declarator" | "pointer_init_declarator" | "data_declarator" => {
                let left = d.child_by_field_name("left")?;
                let right = d.child_by_field_name("right")?;
                let mut en = self.lower_entity(left)?;
                en.init = Some(match d.kind() {
                    "init_declarator" => Init::Expr(self.expr(right)),
                    "pointer_init_declarator" => Init::Pointer(self.expr(right)),
                    _ => Init::Data(self.data_values(right)),
                });
                Some(en)
            }
            "coarray_declarator" => {
                self.unsupported(d, "coarrays");
                None
            }
            _ => {
                self.unsupported(d, &format!("declarator `{}`", d.kind()));
                None
            }
        }
    }

    fn data_values(&mut self, dv: Node<'t>) -> Vec<DataValue> {
        let mut out = Vec::new();
        let mut repeat = None;
        for (field, c) in children_with_fields(dv) {
            if !c.is_named() || c.kind() == "comment" {
                continue;
            }
            if field == Some("repeat") {
                repeat = Some(self.expr(c));
            } else {
                let value = self.expr(c);
                out.push(DataValue {
                    repeat: repeat.take(),
                    value,
                });
            }
        }
        out
    }

    fn lower_data(&mut self, c: Node<'t>) -> Decl {
        let mut sets = Vec::new();
        for set in named_children(c) {
            if set.kind() != "data_set" {
                continue;
            }
            let mut objects = Vec::new();
            let mut values = Vec::new();
            for x in named_children(set) {
                if x.kind() == "data_value" {
                    values.extend(self.data_values(x));
                } else if x.kind() != "comment" {
                    objects.push(self.expr(x));
                }
            }
            sets.push(DataSet { objects, values });
        }
        Decl::Data(sets)
    }

    fn lower_common(&mut self, c: Node<'t>) -> Decl {
        let mut blocks: Vec<(Option<SymbolId>, Vec<Entity>)> = Vec::new();
        let scope = self.scope();
        let add = |this: &mut Self,
                   blk: Option<SymbolId>,
                   d: Node<'t>,
                   blocks: &mut Vec<(Option<SymbolId>, Vec<Entity>)>| {
            if let Some(en) = this.lower_entity(d) {
                if let Some(dims) = &en.dims {
                    let ty = this.p.symbols[en.sym].ty.clone();
                    let mut t = ty.unwrap_or(Type {
                        base: BaseClass::Opaque,
                        bytes: None,
                        dims: vec![],
                        pointers: 0,
                    });
                    t.dims = dims.clone();
                    this.p.symbols[en.sym].ty = Some(t);
                }
                this.p.symbols[en.sym].common = blk.or(this.p.symbols[en.sym].common);
                if blocks.is_empty() {
                    blocks.push((blk, Vec::new()));
                }
                if let Some(last) = blocks.last_mut() {
                    last.1.push(en);
                }
            }
        };
        for ch in named_children(c) {
            match ch.kind() {
                "variable_group" => {
                    let mut blk = None;
                    for x in named_children(ch) {
                        if x.kind() == "name" {
                            let nm = self.t(x).to_string();
                            let s = self.common_symbol(&nm, scope);
                            blk = Some(s);
                            blocks.push((blk, Vec::new()));
                        } else if x.kind() != "comment" {
                            add(self, blk, x, &mut blocks);
                        }
                    }
                }
                "comment" => {}
                _ => {
                    let blk = blocks.last().and_then(|b| b.0);
                    add(self, blk, ch, &mut blocks);
                }
            }
        }
        Decl::Common(blocks)
    }

    fn common_symbol(&mut self, name: &str, _scope: ScopeId) -> SymbolId {
        // COMMON block names are global: one symbol per block across the program.
        let k = format!("/{}/", key(name));
        let g = self.global;
        if let Some(&s) = self.p.scopes[g].names.get(&k) {
            return s;
        }
        self.p
            .add_symbol(g, k, sym_data(name, SymbolKind::Common, g))
    }

    fn lower_attr_stmt(&mut self, c: Node<'t>) -> Decl {
        let mut keyword = String::new();
        let mut items = Vec::new();
        let mut double_colon = false;
        let mut attr = None;
        for (field, ch) in children_with_fields(c) {
            if ch.kind() == "type_qualifier" {
                keyword = normalize_ws(&self.t(ch).to_ascii_lowercase());
                attr = self.lower_attr(ch);
            } else if self.t(ch) == "::" {
                double_colon = true;
            } else if field == Some("declarator") {
                let (sym, dims) = match ch.kind() {
                    "sized_declarator" => {
                        let mut s = None;
                        let mut d = None;
                        for x in named_children(ch) {
                            match x.kind() {
                                "identifier" => s = Some(self.declare_name(x)),
                                "size" => d = Some(self.dims(x)),
                                _ => {}
                            }
                        }
                        (s, d)
                    }
                    "identifier" => (Some(self.declare_name(ch)), None),
                    _ => (None, None),
                };
                if let Some(sym) = sym {
                    if let Some(d) = &dims {
                        let ty = self.p.symbols[sym].ty.clone();
                        if let Some(mut t) = ty {
                            t.dims = d.clone();
                            self.p.symbols[sym].ty = Some(t);
                        } else {
                            let it = self
                                .implicit_type(self.scope(), &self.p.symbols[sym].spelling.clone());
                            let mut t = it.unwrap_or(Type {
                                base: BaseClass::Opaque,
                                bytes: None,
                                dims: vec![],
                                pointers: 0,
                            });
                            t.dims = d.clone();
                            self.p.symbols[sym].ty = Some(t);
                            self.p.symbols[sym].implicit_type = true;
                        }
                    }
                    if let Some(a) = &attr {
                        apply_attr(&mut self.p.symbols[sym], a);
                    }
                    if keyword == "external" {
                        self.p.symbols[sym].kind = SymbolKind::Procedure;
                    } else if keyword == "intrinsic" {
                        self.p.symbols[sym].kind = SymbolKind::Intrinsic;
                    }
                    items.push(AttrItem {
                        sym,
                        dims,
                        common: false,
                    });
                }
            }
        }
        if let Some(Attr::Dimension(_)) = attr {
            keyword = "dimension".into();
        }
        Decl::Attr(AttrStmt {
            keyword,
            double_colon,
            items,
        })
    }

    fn lower_simple_attr(&mut self, c: Node<'t>) -> Decl {
        let keyword = match c.kind() {
            "save_statement" => "save",
            "public_statement" => "public",
            _ => "private",
        }
        .to_string();
        let mut items = Vec::new();
        let mut double_colon = false;
        let scope = self.scope();
        for (_, ch) in children_with_fields(c) {
            match ch.kind() {
                "identifier" => {
                    let s = self.declare_name(ch);
                    match keyword.as_str() {
                        "save" => self.p.symbols[s].attrs.save = true,
                        "private" => self.p.symbols[s].attrs.private = true,
                        _ => self.p.symbols[s].attrs.public = true,
                    }
                    items.push(AttrItem {
                        sym: s,
                        dims: None,
                        common: false,
                    });
                }
                "common_block" => {
                    let nm = self.t(ch).trim_matches('/').trim().to_string();
                    let s = self.common_symbol(&nm, scope);
                    items.push(AttrItem {
                        sym: s,
                        dims: None,
                        common: true,
                    });
                }
                _ if self.t(ch) == "::" => double_colon = true,
                _ => {}
            }
        }
        if keyword == "private" && items.is_empty() {
            // Default accessibility: every name of the module not marked PUBLIC is private.
            self.p.scopes[scope].default_private = true;
        }
        Decl::Attr(AttrStmt {
            keyword,
            double_colon,
            items,
        })
    }

    fn lower_derived_type(&mut self, c: Node<'t>) -> Option<TypeDefId> {
        let stmt = named_children(c)
            .into_iter()
            .find(|x| x.kind() == "derived_type_statement")?;
        let name_node = named_children(stmt)
            .into_iter()
            .find(|x| x.kind() == "type_name")?;
        let name = self.t(name_node).to_string();
        let mut attrs = Vec::new();
        for x in named_children(stmt) {
            match x.kind() {
                "access_specifier" | "abstract_specifier" => {
                    attrs.push(self.t(x).to_ascii_lowercase())
                }
                "base_type_specifier" | "derived_type_parameter_list" => {
                    self.unsupported(x, "type extension and parameterized derived types")
                }
                "language_binding" => attrs.push(normalize_ws(&self.t(x).to_ascii_lowercase())),
                _ => {}
            }
        }
        let outer = self.scope();
        let tscope = self.p.scopes.alloc(ScopeData::new(ScopeKind::Block, None));
        let td = self.p.typedefs.alloc(TypeDefData {
            kind: TypeDefKind::Derived,
            name: Some(name.clone()),
            fields: vec![],
            scope: tscope,
            unit: self.cur_unit?,
            attrs,
            sequence: false,
        });
        self.p.scopes[tscope].kind = ScopeKind::Type(td);
        let sym = self.get_or_create(outer, name_node, SymbolKind::Type);
        self.p.symbols[sym].kind = SymbolKind::Type;
        let access = &self.p.typedefs[td].attrs;
        self.p.symbols[sym].attrs.public |= access.iter().any(|a| a == "public");
        self.p.symbols[sym].attrs.private |= access.iter().any(|a| a == "private");
        self.p.symbols[sym].ty = Some(Type {
            base: BaseClass::Record(td),
            bytes: None,
            dims: vec![],
            pointers: 0,
        });
        let mut fields = Vec::new();
        self.cur_scope = Some(tscope);
        for x in named_children(c) {
            match x.kind() {
                "variable_declaration" => {
                    // Component types (`type(other)`, kinds) are looked up through the
                    // enclosing scope while the components are declared.
                    self.p.scopes[tscope].parent = Some(outer);
                    if let Some(d) = self.lower_var_decl(x) {
                        fields.push(Decl::Var(d));
                    }
                    self.p.scopes[tscope].parent = None;
                }
                "sequence_statement" => {
                    self.p.typedefs[td].sequence = true;
                    fields.push(Decl::Verbatim("sequence".into()));
                }
                "comment" => fields.push(Decl::Comment(self.t(x).to_string())),
                "private_statement" => fields.push(Decl::Verbatim("private".into())),
                "derived_type_procedures" => self.unsupported(x, "type-bound procedures"),
                _ => {}
            }
        }
        self.cur_scope = Some(outer);
        self.p.typedefs[td].fields = fields;
        Some(td)
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
                    if let Some(h) = kids.first() {
                        if let Some(nn) = h.child_by_field_name("name") {
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

    // ---------------------------------------------------------------- pass 3: bodies

    fn lower_body(&mut self, i: usize) {
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

    /// Lowers a sequence of statement nodes (with label and comment siblings).
    fn block(&mut self, nodes: &[Node<'t>]) -> Block {
        let mut out = Vec::new();
        let mut label: Option<String> = None;
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
                "comment" => {
                    let t = self.t(n).to_string();
                    match parse_directive(&t) {
                        Some(d) => self.pending_dirs.push(d),
                        None => {
                            let sid = self.unit().stmts.alloc(Stmt::new(StmtKind::Comment(t)));
                            out.push(sid);
                        }
                    }
                }
                "ERROR" => {}
                "block_label_start_expression" | "end_do_loop_statement" | "end_if_statement" => {}
                _ => {
                    if let Some(sid) = self.stmt(n, label.take()) {
                        out.push(sid);
                    }
                }
            }
        }
        out
    }

    fn push_stmt(
        &mut self,
        kind: StmtKind,
        n: Node,
        label: Option<String>,
        construct: Option<String>,
    ) -> StmtId {
        let sp = self.sp(n);
        let dirs = std::mem::take(&mut self.pending_dirs);
        let u = self.unit();
        let id = u.stmts.alloc(Stmt {
            kind,
            label,
            construct_name: construct,
            directives: dirs,
        });
        u.source_map.stmt.insert(id, sp);
        id
    }

    fn construct_name(&self, n: Node) -> Option<String> {
        named_children(n)
            .into_iter()
            .find(|c| c.kind() == "block_label_start_expression")
            .map(|c| self.t(c).trim_end_matches(':').trim().to_string())
    }

    fn stmt(&mut self, n: Node<'t>, label: Option<String>) -> Option<StmtId> {
        let k = n.kind();
        let kind = match k {
            "assignment_statement" => {
                let lhs = self.expr(n.child_by_field_name("left")?);
                let rhs = self.expr(n.child_by_field_name("right")?);
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
                let callee_node = n.child_by_field_name("subroutine")?;
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
                let nn = n.child_by_field_name("name")?;
                let scope = self.scope();
                let spelling = self.t(nn).to_string();
                let g = self.global;
                let name = self.p.add_symbol(
                    g,
                    key(&spelling),
                    sym_data(&spelling, SymbolKind::Procedure, g),
                );
                let mut params = Vec::new();
                if let Some(ps) = n.child_by_field_name("parameters") {
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
                        let (Some(nm), Some(sel)) = (
                            a.child_by_field_name("name"),
                            a.child_by_field_name("selector"),
                        ) else {
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

    fn paren_inner(&mut self, n: Node<'t>) -> ExprId {
        match named_children(n)
            .into_iter()
            .find(|c| c.kind() != "comment")
        {
            Some(inner) => self.expr(inner),
            None => self.opaque(n),
        }
    }

    fn opaque(&mut self, n: Node) -> ExprId {
        let t = self.t(n).to_string();
        let sp = self.sp(n);
        let u = self.unit();
        let e = u.exprs.alloc(Expr::Opaque(t));
        u.source_map.expr.insert(e, sp);
        e
    }

    fn if_stmt(&mut self, n: Node<'t>, label: Option<String>) -> Option<StmtId> {
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

    fn do_loop(&mut self, n: Node<'t>, label: Option<String>) -> Option<StmtId> {
        let kids = named_children(n);
        let ds = *kids.iter().find(|c| c.kind() == "do_statement")?;
        let cn = self.construct_name(n);
        let dirs = std::mem::take(&mut self.pending_dirs);
        let term_label = ds
            .child_by_field_name("do_label")
            .map(|l| self.t(l).trim().to_string());
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
                    self.unsupported(c, "DO CONCURRENT (write a plain DO loop)");
                    return None;
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

    fn keyword_stmt(&mut self, n: Node<'t>) -> Option<StmtKind> {
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
        let mut ctl = src.get(ctl_start..ctl_end).unwrap_or("").trim().to_string();
        if ctl.ends_with(',') {
            ctl.pop();
        }
        let ctl = ctl.trim();
        control.push_str(&normalize_continuations(ctl.trim()));
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

    // ---------------------------------------------------------------- expressions

    fn alloc_expr(&mut self, e: Expr, n: Node) -> ExprId {
        let sp = self.sp(n);
        let u = self.unit();
        let id = u.exprs.alloc(e);
        u.source_map.expr.insert(id, sp);
        id
    }

    fn args(&mut self, al: Node<'t>) -> Vec<Arg> {
        let mut out = Vec::new();
        for c in named_children(al) {
            match c.kind() {
                "comment" => {}
                "keyword_argument" => out.push(self.keyword_arg(c)),
                _ => {
                    let value = self.expr(c);
                    out.push(Arg {
                        keyword: None,
                        value,
                    });
                }
            }
        }
        out
    }

    fn keyword_arg(&mut self, c: Node<'t>) -> Arg {
        let keyword = c.child_by_field_name("name").map(|k| self.t(k).to_string());
        let value = match c.child_by_field_name("value") {
            Some(v) if v.kind() == "assumed_size" => self.alloc_expr(Expr::Opaque("*".into()), v),
            Some(v) => self.expr(v),
            None => self.opaque(c),
        };
        Arg { keyword, value }
    }

    fn subscripts(&mut self, al: Node<'t>) -> Vec<Subscript> {
        let mut out = Vec::new();
        for c in named_children(al) {
            match c.kind() {
                "comment" => {}
                "extent_specifier" | "multiple_subscript_triplet" | "assumed_shape" => {
                    let (segs, _) = self.colon_segments(c);
                    let lo = segs.first().copied().flatten().map(|e| self.expr(e));
                    let hi = segs.get(1).copied().flatten().map(|e| self.expr(e));
                    let st = segs.get(2).copied().flatten().map(|e| self.expr(e));
                    out.push(Subscript::Range(lo, hi, st));
                }
                "keyword_argument" => {
                    self.unsupported(c, "a keyword in a subscript");
                }
                _ => {
                    let e = self.expr(c);
                    out.push(Subscript::Index(e));
                }
            }
        }
        out
    }

    /// Resolves a name used as a callee (CALL or function reference).
    fn callee(&mut self, n: Node<'t>, is_call_stmt: bool) -> ExprId {
        if n.kind() != "identifier" {
            return self.expr(n);
        }
        let spelling = self.t(n).to_string();
        let k = key(&spelling);
        let scope = self.scope();
        let sym = match self.p.lookup(scope, &k) {
            Some(s) => {
                let sd = &mut self.p.symbols[s];
                if matches!(sd.kind, SymbolKind::Variable | SymbolKind::Unknown)
                    && (is_call_stmt || sd.ty.as_ref().is_none_or(|t| t.dims.is_empty()))
                {
                    sd.kind = if sd.attrs.dummy {
                        SymbolKind::Procedure
                    } else if is_fortran_intrinsic(&k) && !sd.attrs.external && sd.ty.is_none() {
                        SymbolKind::Intrinsic
                    } else {
                        SymbolKind::Procedure
                    };
                }
                s
            }
            None => {
                let kind = if is_fortran_intrinsic(&k) {
                    SymbolKind::Intrinsic
                } else {
                    SymbolKind::Procedure
                };
                let g = if kind == SymbolKind::Procedure {
                    self.global
                } else {
                    scope
                };
                let mut data = sym_data(&spelling, kind, g);
                if kind == SymbolKind::Procedure && !is_call_stmt {
                    data.ty = self.implicit_type(scope, &spelling);
                }
                self.p.add_symbol(g, k, data)
            }
        };
        self.alloc_expr(Expr::Name(sym), n)
    }

    fn name_expr(&mut self, n: Node<'t>) -> ExprId {
        let spelling = self.t(n).to_string();
        let k = key(&spelling);
        let scope = self.scope();
        let sym = match self.p.lookup(scope, &k) {
            Some(s) => s,
            None => {
                // Names from modules outside the program stay unresolved but known.
                if self.scope_uses_unknown_module(scope) {
                    return self.alloc_expr(Expr::Opaque(spelling), n);
                }
                let ty = self.implicit_type(scope, &spelling);
                if ty.is_none() {
                    let sp = self.sp(n);
                    self.diags.push(Diagnostic::error(
                        Code::Undeclared,
                        sp,
                        format!("`{spelling}` is not declared (IMPLICIT NONE is in force)"),
                    ));
                }
                let unit_scope = self.unit_scope(scope);
                let mut d = sym_data(&spelling, SymbolKind::Variable, unit_scope);
                d.ty = ty;
                d.implicit_type = true;
                self.p.add_symbol(unit_scope, k, d)
            }
        };
        self.alloc_expr(Expr::Name(sym), n)
    }

    fn unit_scope(&self, mut s: ScopeId) -> ScopeId {
        loop {
            match self.p.scopes[s].kind {
                ScopeKind::Block | ScopeKind::Type(_) => match self.p.scopes[s].parent {
                    Some(p) => s = p,
                    None => return s,
                },
                _ => return s,
            }
        }
    }

    fn scope_uses_unknown_module(&self, mut s: ScopeId) -> bool {
        loop {
            let sc = &self.p.scopes[s];
            if sc
                .uses
                .iter()
                .any(|u| u.unit.is_none() && !is_intrinsic_module(&u.module))
            {
                return true;
            }
            match sc.parent {
                Some(p) => s = p,
                None => return false,
            }
        }
    }

    fn is_array_or_char(&self, s: SymbolId) -> bool {
        let sd = &self.p.symbols[s];
        if !matches!(
            sd.kind,
            SymbolKind::Variable | SymbolKind::Constant | SymbolKind::Unknown
        ) {
            return false;
        }
        match &sd.ty {
            Some(t) => !t.dims.is_empty() || t.base == BaseClass::Character,
            None => false,
        }
    }

    pub(crate) fn expr(&mut self, n: Node<'t>) -> ExprId {
        match n.kind() {
            "identifier" => self.name_expr(n),
            "number_literal" => {
                let t = self.t(n).to_string();
                let is_real = t.contains(['.', 'e', 'E', 'd', 'D'])
                    && !t.starts_with(['z', 'Z', 'b', 'B', 'o', 'O']);
                let kind = if is_real { LitKind::Real } else { LitKind::Int };
                self.alloc_expr(Expr::Literal(Literal { kind, text: t }), n)
            }
            "string_literal" => {
                let t = normalize_continuations(self.t(n));
                self.alloc_expr(
                    Expr::Literal(Literal {
                        kind: LitKind::Str,
                        text: t,
                    }),
                    n,
                )
            }
            "boolean_literal" => {
                let t = self.t(n).to_string();
                self.alloc_expr(
                    Expr::Literal(Literal {
                        kind: LitKind::Logical,
                        text: t,
                    }),
                    n,
                )
            }
            "complex_literal" => {
                let t: String = normalize_continuations(self.t(n));
                self.alloc_expr(
                    Expr::Literal(Literal {
                        kind: LitKind::Complex,
                        text: t,
                    }),
                    n,
                )
            }
            "null_literal" => {
                let scope = self.scope();
                let sym = match self.p.lookup(scope, "null") {
                    Some(s) => s,
                    None => self.p.add_symbol(
                        scope,
                        "null".into(),
                        sym_data("null", SymbolKind::Intrinsic, scope),
                    ),
                };
                let callee = self.alloc_expr(Expr::Name(sym), n);
                self.alloc_expr(
                    Expr::Call {
                        callee,
                        args: vec![],
                    },
                    n,
                )
            }
            "parenthesized_expression" => {
                let inner = self.paren_inner(n);
                self.alloc_expr(Expr::Paren(inner), n)
            }
            "math_expression" => {
                let op_t = n
                    .child_by_field_name("operator")
                    .map(|o| self.t(o).to_string())
                    .unwrap_or_default();
                if op_t == "**" {
                    return self.pow_chain(n);
                }
                let op = match op_t.as_str() {
                    "+" => BinOp::Add,
                    "-" => BinOp::Sub,
                    "*" => BinOp::Mul,
                    "/" => BinOp::Div,
                    _ => {
                        self.unsupported(n, &format!("user-defined operator `{op_t}`"));
                        return self.opaque(n);
                    }
                };
                self.binary(n, op)
            }
            "unary_expression" => {
                let op_t = match n.child_by_field_name("operator").or_else(|| n.child(0)) {
                    Some(o) => self.t(o).to_string(),
                    None => String::new(),
                };
                if n.child_by_field_name("argument").is_none() {
                    // `-2.0` in a DATA value: the sign is part of the constant.
                    let t = self.t(n).split_whitespace().collect::<String>();
                    let is_real = t.contains(['.', 'e', 'E', 'd', 'D']);
                    let kind = if is_real { LitKind::Real } else { LitKind::Int };
                    return self.alloc_expr(Expr::Literal(Literal { kind, text: t }), n);
                }
                let op = match op_t.as_str() {
                    "-" => UnOp::Neg,
                    "+" => UnOp::Plus,
                    _ => {
                        self.unsupported(n, &format!("user-defined operator `{op_t}`"));
                        return self.opaque(n);
                    }
                };
                let Some(a) = n.child_by_field_name("argument") else {
                    return self.opaque(n);
                };
                let arg = self.expr(a);
                self.alloc_expr(Expr::Unary { op, arg }, n)
            }
            "logical_expression" => {
                let op_t = n
                    .child_by_field_name("operator")
                    .map(|o| self.t(o).to_ascii_lowercase())
                    .unwrap_or_default();
                if op_t == ".not." {
                    let Some(a) = n
                        .child_by_field_name("argument")
                        .or_else(|| n.child_by_field_name("right"))
                    else {
                        return self.opaque(n);
                    };
                    let arg = self.expr(a);
                    return self.alloc_expr(Expr::Unary { op: UnOp::Not, arg }, n);
                }
                let op = match op_t.as_str() {
                    ".and." => BinOp::And,
                    ".or." => BinOp::Or,
                    ".eqv." => BinOp::Eqv,
                    _ => BinOp::Neqv,
                };
                self.binary(n, op)
            }
            "relational_expression" => {
                let op_t = n
                    .child_by_field_name("operator")
                    .map(|o| self.t(o).to_ascii_lowercase())
                    .unwrap_or_default();
                let sp = if op_t.starts_with('.') {
                    RelSpell::Dotted
                } else {
                    RelSpell::Symbol
                };
                let op = match op_t.as_str() {
                    "==" | ".eq." => BinOp::Eq(sp),
                    "/=" | ".ne." => BinOp::Ne(sp),
                    "<" | ".lt." => BinOp::Lt(sp),
                    "<=" | ".le." => BinOp::Le(sp),
                    ">" | ".gt." => BinOp::Gt(sp),
                    _ => BinOp::Ge(sp),
                };
                self.binary(n, op)
            }
            "concatenation_expression" => self.binary(n, BinOp::Concat),
            "call_expression" => self.call_expr(n),
            "derived_type_member_expression" => {
                let kids = named_children(n);
                let (Some(b), Some(f)) = (
                    kids.first(),
                    kids.iter().find(|c| c.kind() == "type_member"),
                ) else {
                    return self.opaque(n);
                };
                let base = self.expr(*b);
                let field = self.t(*f).to_string();
                self.alloc_expr(
                    Expr::Field {
                        base,
                        field,
                        arrow: false,
                    },
                    n,
                )
            }
            "array_literal" => {
                let old_style = self.t(n).starts_with("(/");
                let mut items = Vec::new();
                let mut type_spec = None;
                for (field, c) in children_with_fields(n) {
                    if field == Some("type") {
                        if c.is_named() {
                            type_spec = Some(normalize_ws(self.t(c)));
                        }
                        continue;
                    }
                    if c.is_named() && c.kind() != "comment" {
                        items.push(self.expr(c));
                    }
                }
                self.alloc_expr(
                    Expr::ArrayCtor {
                        items,
                        old_style,
                        type_spec,
                    },
                    n,
                )
            }
            "implied_do_loop_expression" => {
                let kids: Vec<Node> = named_children(n)
                    .into_iter()
                    .filter(|c| c.kind() != "comment")
                    .collect();
                let Some(lc) = kids.iter().find(|c| c.kind() == "loop_control_expression") else {
                    return self.opaque(n);
                };
                let items: Vec<ExprId> = kids
                    .iter()
                    .filter(|c| c.kind() != "loop_control_expression")
                    .map(|c| self.expr(*c))
                    .collect();
                let ks: Vec<Node> = named_children(*lc)
                    .into_iter()
                    .filter(|c| c.kind() != "comment")
                    .collect();
                if ks.len() < 3 {
                    return self.opaque(n);
                }
                let var = self.expr(ks[0]);
                let lo = self.expr(ks[1]);
                let hi = self.expr(ks[2]);
                let step = ks.get(3).map(|s| self.expr(*s));
                self.alloc_expr(
                    Expr::ImpliedDo {
                        items,
                        var,
                        lo,
                        hi,
                        step,
                    },
                    n,
                )
            }
            "keyword_argument" => {
                self.unsupported(n, "a keyword argument here");
                self.opaque(n)
            }
            "extent_specifier" => {
                self.unsupported(n, "a range here");
                self.opaque(n)
            }
            "conditional_expression" => {
                self.unsupported(n, "conditional expressions (Fortran 2023)");
                self.opaque(n)
            }
            "coarray_expression" => {
                self.unsupported(n, "coarrays");
                self.opaque(n)
            }
            "ERROR" => self.opaque(n),
            other => {
                self.unsupported(n, &format!("expression `{other}`"));
                self.opaque(n)
            }
        }
    }

    fn binary(&mut self, n: Node<'t>, op: BinOp) -> ExprId {
        let (Some(l), Some(r)) = (
            n.child_by_field_name("left"),
            n.child_by_field_name("right"),
        ) else {
            return self.opaque(n);
        };
        let lhs = self.expr(l);
        let rhs = self.expr(r);
        self.alloc_expr(Expr::Binary { op, lhs, rhs }, n)
    }

    /// `a**b**c` parses left-associative; Fortran's `**` is right-associative.
    fn pow_chain(&mut self, n: Node<'t>) -> ExprId {
        let mut operands = Vec::new();
        let mut cur = n;
        loop {
            let is_pow = cur.kind() == "math_expression"
                && cur
                    .child_by_field_name("operator")
                    .is_some_and(|o| self.t(o) == "**");
            if !is_pow {
                operands.push(cur);
                break;
            }
            let (Some(l), Some(r)) = (
                cur.child_by_field_name("left"),
                cur.child_by_field_name("right"),
            ) else {
                return self.opaque(n);
            };
            operands.push(r);
            cur = l;
        }
        operands.reverse(); // a, b, c
        let mut acc = self.expr(operands[operands.len() - 1]);
        for i in (0..operands.len() - 1).rev() {
            let l = self.expr(operands[i]);
            let node = if i == 0 { n } else { operands[i] };
            acc = self.alloc_expr(
                Expr::Binary {
                    op: BinOp::Pow,
                    lhs: l,
                    rhs: acc,
                },
                node,
            );
        }
        acc
    }

    fn call_expr(&mut self, n: Node<'t>) -> ExprId {
        let kids: Vec<Node> = named_children(n)
            .into_iter()
            .filter(|c| c.kind() != "comment")
            .collect();
        let Some(&callee_node) = kids.first() else {
            return self.opaque(n);
        };
        let arglists: Vec<Node> = kids
            .iter()
            .skip(1)
            .copied()
            .filter(|c| c.kind() == "argument_list")
            .collect();
        if arglists.is_empty() {
            return self.expr(callee_node);
        }
        // Decide array reference vs call.
        let is_index = match callee_node.kind() {
            "identifier" => {
                let k = key(self.t(callee_node));
                match self.p.lookup(self.scope(), &k) {
                    Some(s) => self.is_array_or_char(s),
                    None => false,
                }
            }
            "derived_type_member_expression" | "call_expression" => true,
            _ => true,
        };
        let mut acc = if is_index {
            self.expr(callee_node)
        } else {
            self.callee(callee_node, false)
        };
        for (i, al) in arglists.into_iter().enumerate() {
            if is_index || i > 0 {
                let subs = self.subscripts(al);
                acc = self.alloc_expr(Expr::Index { base: acc, subs }, n);
            } else {
                let args = self.args(al);
                acc = self.alloc_expr(Expr::Call { callee: acc, args }, n);
            }
        }
        acc
    }
}

fn is_intrinsic_module(m: &str) -> bool {
    matches!(
        m,
        "iso_fortran_env"
            | "iso_c_binding"
            | "ieee_arithmetic"
            | "ieee_exceptions"
            | "ieee_features"
            | "omp_lib"
            | "mpi"
    )
}

pub(crate) fn sym_data(spelling: &str, kind: SymbolKind, scope: ScopeId) -> SymbolData {
    SymbolData {
        spelling: spelling.to_string(),
        kind,
        scope,
        ty: None,
        attrs: SymAttrs::default(),
        unit: None,
        common: None,
        implicit_type: false,
    }
}

/// The semantic type of a declared type with dimensions.
pub(crate) fn type_of_spec(ts: &TypeSpec, dims: &[Dim]) -> Type {
    Type {
        base: ts.class,
        bytes: ts.bytes,
        dims: dims.to_vec(),
        pointers: 0,
    }
}

fn apply_attr(sd: &mut SymbolData, a: &Attr) {
    match a {
        Attr::Intent(i) => sd.attrs.intent = Some(*i),
        Attr::Dimension(_) => {}
        Attr::Keyword(k) => match k.as_str() {
            "parameter" => {
                sd.attrs.constant = true;
                sd.kind = SymbolKind::Constant;
            }
            "allocatable" => sd.attrs.allocatable = true,
            "pointer" => sd.attrs.pointer = true,
            "target" => sd.attrs.target = true,
            "optional" => sd.attrs.optional = true,
            "save" => sd.attrs.save = true,
            "value" => sd.attrs.value = true,
            "private" => sd.attrs.private = true,
            "public" => sd.attrs.public = true,
            "external" => {
                sd.attrs.external = true;
                sd.kind = SymbolKind::Procedure;
            }
            "intrinsic" => sd.kind = SymbolKind::Intrinsic,
            _ => {}
        },
    }
}

/// Collapses runs of white space (and removes `&` continuation joins) in a verbatim statement.
pub(crate) fn normalize_ws(s: &str) -> String {
    normalize_continuations(s)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Removes `&` + newline + optional leading `&` continuation joins from text that spans
/// lines, keeping everything else as written.
pub(crate) fn normalize_continuations(s: &str) -> String {
    if !s.contains('\n') {
        return s.to_string();
    }
    let mut out = String::new();
    let lines: Vec<&str> = s.split('\n').collect();
    for (i, l) in lines.iter().enumerate() {
        let mut l: &str = l;
        if i > 0 {
            let t = l.trim_start();
            l = t.strip_prefix('&').unwrap_or(t);
        }
        if i + 1 < lines.len() {
            let t = l.trim_end();
            // Drop a trailing comment after the continuation mark.
            let t = match t.rfind('&') {
                Some(p) => &t[..p],
                None => t,
            };
            out.push_str(t);
        } else {
            out.push_str(l);
        }
    }
    out
}
