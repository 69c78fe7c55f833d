//! C lowering: tree-sitter-c trees into the IL.
//!
//! A C file becomes one `CFile` unit whose declarations keep the file's order (preprocessor
//! lines, declarations, type definitions, and function definitions as `Decl::Unit`). Functions
//! are units of their own whose scope's parent is the file scope; compound statements open
//! block scopes. Typedef names are tracked in the scopes, so that `(real)(x)` and `(real) - y`,
//! which tree-sitter-c parses as a call and a subtraction, are reclassified as casts.

use crate::fortran::parse_directive;
use crate::ts::{children_with_fields, named_children, span, text};
use radtap_il::*;
use std::collections::HashSet;
use tree_sitter::Node;

struct CLower<'a, 's> {
    p: &'a mut Program,
    diags: &'a mut Vec<Diagnostic>,
    file: u32,
    src: &'s str,
    global: ScopeId,
    file_unit: UnitId,
    unit: UnitId,
    scope: ScopeId,
    macros: HashSet<String>,
    pending_dirs: Vec<Directive>,
    line_map: Option<&'s [u32]>,
}

/// Names from the C library headers that may be used without a declaration in the file.
const HEADER_NAMES: &[&str] = &["stdout", "stderr", "stdin", "errno", "size_t", "FILE"];

/// C library functions that may be named without a call (passed as function pointers).
const C_LIBRARY: &[&str] = &[
    "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh", "asinh", "acosh",
    "atanh", "exp", "exp2", "expm1", "log", "log10", "log2", "log1p", "sqrt", "cbrt", "pow",
    "fabs", "hypot", "erf", "erfc", "tgamma", "lgamma", "floor", "ceil", "fmod", "fmin", "fmax",
    "round", "trunc", "sinf", "cosf", "expf", "logf", "sqrtf", "fabsf", "powf", "abs", "labs",
    "malloc", "calloc", "realloc", "free", "printf", "puts", "strcmp",
];

/// Placeholder for `(T)` with a typedef `T`, until the operand it casts is known.
const CAST_MARK: &str = "\u{1}cast";
/// Placeholder for a bare typedef name in expression position; only `(T1)(T2)(x)` (the name
/// as the single argument of a cast read as a call) turns it into a cast.
const BARE_TYPE_MARK: &str = "\u{1}type";

pub(crate) fn lower_c_file(
    p: &mut Program,
    diags: &mut Vec<Diagnostic>,
    file: u32,
    src: &str,
    root: Node,
    global: ScopeId,
    line_map: Option<&[u32]>,
) -> Vec<FileItem> {
    let scope = p
        .scopes
        .alloc(ScopeData::new(ScopeKind::Global, Some(global)));
    let uid = p
        .units
        .alloc(UnitData::new(UnitKind::CFile, Lang::C, scope));
    p.scopes[scope].kind = ScopeKind::Unit(uid);
    let mut l = CLower {
        p,
        diags,
        file,
        src,
        global,
        file_unit: uid,
        unit: uid,
        scope,
        macros: HashSet::new(),
        pending_dirs: vec![],
        line_map,
    };
    let mut decls = Vec::new();
    for ch in named_children(root) {
        l.top_item(ch, &mut decls);
    }
    for d in std::mem::take(&mut l.pending_dirs) {
        decls.push(Decl::Directive(d));
    }
    l.p.units[uid].decls = decls;
    l.report_unused_cast_marks();
    vec![FileItem::Unit(uid)]
}

fn cparam_empty(spec: TypeSpec) -> CParam {
    CParam {
        spec,
        name: None,
        derived: vec![],
        dims: vec![],
    }
}

impl<'a, 's> CLower<'a, 's> {
    fn t(&self, n: Node) -> &'s str {
        text(n, self.src)
    }
    fn sp(&self, n: Node) -> Span {
        span(n, self.file, self.line_map)
    }
    fn unsupported(&mut self, n: Node, what: &str) {
        let sp = self.sp(n);
        self.diags.push(Diagnostic::error(
            Code::Unsupported,
            sp,
            format!("unsupported construct: {what}"),
        ));
    }
    fn u(&mut self) -> &mut UnitData {
        &mut self.p.units[self.unit]
    }

    fn top_item(&mut self, ch: Node, decls: &mut Vec<Decl>) {
        match ch.kind() {
            "preproc_include" | "preproc_def" | "preproc_call" => {
                decls.push(Decl::Preproc(self.t(ch).trim_end().to_string()))
            }
            "preproc_function_def" => {
                if let Some(n) = ch.child_by_field_name("name") {
                    self.macros.insert(self.t(n).to_string());
                }
                decls.push(Decl::Preproc(self.t(ch).trim_end().to_string()));
            }
            "comment" => {
                let t = self.t(ch).to_string();
                match parse_directive(&t) {
                    Some(d) => self.pending_dirs.push(d),
                    None => decls.push(Decl::Comment(t)),
                }
            }
            "function_definition" => {
                if let Some(u) = self.function(ch) {
                    decls.push(Decl::Unit(u));
                }
            }
            "declaration" | "type_definition" => {
                for d in std::mem::take(&mut self.pending_dirs) {
                    decls.push(Decl::Directive(d));
                }
                if let Some(v) = self.declaration(ch) {
                    decls.push(Decl::Var(v));
                }
            }
            "struct_specifier" | "union_specifier" | "enum_specifier" => {
                // `struct p { ... };` at file level.
                let spec = self.type_spec_node(ch, vec![]);
                decls.push(Decl::Var(VarDecl {
                    spec,
                    attrs: vec![],
                    entities: vec![],
                    double_colon: false,
                }));
            }
            "preproc_if" | "preproc_ifdef" | "preproc_else" | "preproc_elif" => self.unsupported(
                ch,
                "conditional compilation (#if/#ifdef): run the C preprocessor first",
            ),
            "ERROR" | ";" => {}
            "expression_statement" if self.t(ch).trim() == ";" => {}
            other => self.unsupported(ch, &format!("`{other}` at file level")),
        }
    }

    // ------------------------------------------------------------------ types

    fn is_typedef_name(&self, name: &str) -> bool {
        self.p
            .lookup(self.scope, name)
            .is_some_and(|s| self.p.symbols[s].kind == SymbolKind::Type)
    }

    /// Type spec of a declaration: qualifiers, storage classes and the `type` field.
    fn decl_spec(&mut self, n: Node) -> (TypeSpec, Vec<Attr>) {
        let mut attrs = Vec::new();
        let mut quals = Vec::new();
        let mut ty = None;
        for (field, c) in children_with_fields(n) {
            match (field, c.kind()) {
                (_, "storage_class_specifier") => attrs.push(Attr::Keyword(self.t(c).to_string())),
                (None, "type_qualifier") => quals.push(self.t(c).to_string()),
                (Some("type"), _) => ty = Some(c),
                (None, "typedef") => attrs.push(Attr::Keyword("typedef".into())),
                (None, "attribute_specifier") => self.unsupported(c, "__attribute__"),
                _ => {}
            }
        }
        let spec = match ty {
            Some(t) => self.type_spec_node(t, quals),
            None => TypeSpec {
                class: BaseClass::Integer,
                keyword: "int".into(),
                name: None,
                kind: KindSel::Default,
                char_len: None,
                bytes: Some(4),
                qualifiers: quals,
                inline_def: None,
            },
        };
        (spec, attrs)
    }

    fn type_spec_node(&mut self, t: Node, qualifiers: Vec<String>) -> TypeSpec {
        let mut ts = TypeSpec {
            class: BaseClass::Opaque,
            keyword: String::new(),
            name: None,
            kind: KindSel::Default,
            char_len: None,
            bytes: None,
            qualifiers,
            inline_def: None,
        };
        match t.kind() {
            "primitive_type" | "sized_type_specifier" => {
                ts.keyword = self.t(t).split_whitespace().collect::<Vec<_>>().join(" ");
                let (c, b) = primitive_class(&ts.keyword);
                ts.class = c;
                ts.bytes = b;
            }
            "type_identifier" => {
                let name = self.t(t).to_string();
                match self.p.lookup(self.scope, &name) {
                    Some(s) => {
                        if let Some(ty) = &self.p.symbols[s].ty {
                            ts.class = ty.base;
                            ts.bytes = ty.bytes;
                        }
                    }
                    None if !HEADER_NAMES.contains(&name.as_str()) => {
                        let sp = self.sp(t);
                        self.diags.push(Diagnostic::error(
                            Code::Undeclared,
                            sp,
                            format!("unknown type name `{name}`"),
                        ));
                    }
                    None => {}
                }
                ts.keyword = name;
            }
            "struct_specifier" | "union_specifier" | "enum_specifier" => {
                let kw = match t.kind() {
                    "struct_specifier" => "struct",
                    "union_specifier" => "union",
                    _ => "enum",
                };
                ts.keyword = kw.to_string();
                let name = t.child_by_field_name("name").map(|n| self.t(n).to_string());
                ts.name = name.clone();
                let tag_key = name.as_ref().map(|n| format!("{kw} {n}"));
                if let Some(body) = t.child_by_field_name("body") {
                    let td = self.record(kw, name.clone(), body);
                    ts.inline_def = Some(td);
                    ts.class = if kw == "enum" {
                        BaseClass::Enum
                    } else {
                        BaseClass::Record(td)
                    };
                    if let Some(k) = tag_key {
                        let mut d = sym_c(&k, SymbolKind::Type, self.scope);
                        d.spelling = name.clone().unwrap_or_default();
                        d.ty = Some(Type {
                            base: ts.class,
                            bytes: None,
                            dims: vec![],
                            pointers: 0,
                        });
                        self.p.add_symbol(self.scope, k, d);
                    }
                } else if let Some(k) = tag_key {
                    ts.class = match self
                        .p
                        .lookup(self.scope, &k)
                        .and_then(|s| self.p.symbols[s].ty.clone())
                    {
                        Some(ty) => ty.base,
                        None if kw == "enum" => BaseClass::Enum,
                        None => BaseClass::Opaque,
                    };
                }
                if kw == "enum" {
                    ts.bytes = Some(4);
                }
            }
            "macro_type_specifier" => self.unsupported(t, "a macro used as a type"),
            _ => self.unsupported(t, &format!("type `{}`", t.kind())),
        }
        ts
    }

    fn record(&mut self, kw: &str, name: Option<String>, body: Node) -> TypeDefId {
        let kind = match kw {
            "struct" => TypeDefKind::Struct,
            "union" => TypeDefKind::Union,
            _ => TypeDefKind::Enum,
        };
        let tscope = self
            .p
            .scopes
            .alloc(ScopeData::new(ScopeKind::Block, Some(self.scope)));
        let td = self.p.typedefs.alloc(TypeDefData {
            kind,
            name,
            fields: vec![],
            scope: tscope,
            unit: self.unit,
            attrs: vec![],
            sequence: false,
        });
        self.p.scopes[tscope].kind = ScopeKind::Type(td);
        let mut fields = Vec::new();
        if kind == TypeDefKind::Enum {
            let mut items = Vec::new();
            for e in named_children(body) {
                if e.kind() != "enumerator" {
                    continue;
                }
                let Some(nn) = e.child_by_field_name("name") else {
                    continue;
                };
                let name = self.t(nn).to_string();
                let value = e.child_by_field_name("value").map(|v| self.expr(v));
                let mut d = sym_c(&name, SymbolKind::Constant, self.scope);
                d.ty = Some(Type {
                    base: BaseClass::Integer,
                    bytes: Some(4),
                    dims: vec![],
                    pointers: 0,
                });
                d.attrs.constant = true;
                let s = self.p.add_symbol(self.scope, name, d);
                items.push((s, value));
            }
            fields.push(Decl::Enumerators(items));
        } else {
            let outer = self.scope;
            for f in named_children(body) {
                match f.kind() {
                    "field_declaration" => {
                        let (spec, attrs) = self.decl_spec(f);
                        let mut entities = Vec::new();
                        for (field, d) in children_with_fields(f) {
                            if field == Some("declarator") {
                                self.scope = tscope;
                                let en = self.entity(d, &spec, &attrs);
                                self.scope = outer;
                                if let Some(en) = en {
                                    entities.push(en);
                                }
                            } else if d.kind() == "bitfield_clause" {
                                self.unsupported(d, "bit-fields");
                            }
                        }
                        fields.push(Decl::Var(VarDecl {
                            spec,
                            attrs,
                            entities,
                            double_colon: false,
                        }));
                    }
                    "comment" => fields.push(Decl::Comment(self.t(f).to_string())),
                    _ => self.unsupported(f, &format!("`{}` in a struct", f.kind())),
                }
            }
        }
        self.p.typedefs[td].fields = fields;
        td
    }

    /// Declarator ops top-down, and the name node.
    fn declarator_ops<'n>(&mut self, mut d: Node<'n>, ops: &mut Vec<DeclOp>) -> Option<Node<'n>> {
        loop {
            match d.kind() {
                "identifier" | "field_identifier" | "type_identifier" => return Some(d),
                "pointer_declarator" | "abstract_pointer_declarator" => {
                    let quals: Vec<String> = named_children(d)
                        .into_iter()
                        .filter(|c| c.kind() == "type_qualifier")
                        .map(|c| self.t(c).to_string())
                        .collect();
                    ops.push(DeclOp::Pointer(quals));
                    d = d.child_by_field_name("declarator")?;
                }
                "array_declarator" | "abstract_array_declarator" => {
                    let size = d.child_by_field_name("size").map(|s| self.expr(s));
                    let has_static = children_with_fields(d)
                        .iter()
                        .any(|(_, c)| self.t(*c) == "static" || c.kind() == "type_qualifier");
                    if has_static {
                        self.unsupported(d, "`static`/qualifiers inside array brackets");
                    }
                    ops.push(DeclOp::Array(size));
                    match d.child_by_field_name("declarator") {
                        Some(x) => d = x,
                        None => return None,
                    }
                }
                "function_declarator" | "abstract_function_declarator" => {
                    let (params, variadic) = match d.child_by_field_name("parameters") {
                        Some(pl) => self.param_list(pl),
                        None => (vec![], false),
                    };
                    ops.push(DeclOp::Function(params, variadic));
                    match d.child_by_field_name("declarator") {
                        Some(x) => d = x,
                        None => return None,
                    }
                }
                "parenthesized_declarator" | "abstract_parenthesized_declarator" => {
                    d = named_children(d)
                        .into_iter()
                        .find(|c| c.kind() != "comment")?;
                }
                "init_declarator" => {
                    d = d.child_by_field_name("declarator")?;
                }
                _ => {
                    self.unsupported(d, &format!("declarator `{}`", d.kind()));
                    return None;
                }
            }
        }
    }

    fn param_list(&mut self, pl: Node) -> (Vec<CParam>, bool) {
        let mut out = Vec::new();
        let mut variadic = false;
        for p in named_children(pl) {
            match p.kind() {
                "parameter_declaration" => {
                    let (spec, _) = self.decl_spec(p);
                    let mut ops = Vec::new();
                    let name = match p.child_by_field_name("declarator") {
                        Some(d) => self
                            .declarator_ops(d, &mut ops)
                            .map(|n| self.t(n).to_string()),
                        None => None,
                    };
                    out.push(CParam {
                        spec,
                        name,
                        derived: ops,
                        dims: vec![],
                    });
                }
                "variadic_parameter" => variadic = true,
                "comment" => {}
                _ => self.unsupported(p, "K&R-style parameter declarations"),
            }
        }
        (out, variadic)
    }

    fn type_of(spec: &TypeSpec, ops: &[DeclOp]) -> Type {
        let mut dims = Vec::new();
        let mut pointers = 0;
        for op in ops {
            match op {
                DeclOp::Pointer(_) => pointers += 1,
                DeclOp::Array(Some(e)) => dims.push(Dim {
                    lower: None,
                    upper: DimUpper::Expr(*e),
                }),
                DeclOp::Array(None) => dims.push(Dim {
                    lower: None,
                    upper: DimUpper::Unsized,
                }),
                DeclOp::Function(..) => {}
            }
        }
        dims.reverse();
        Type {
            base: spec.class,
            bytes: spec.bytes,
            dims,
            pointers,
        }
    }

    fn entity(&mut self, d: Node, spec: &TypeSpec, attrs: &[Attr]) -> Option<Entity> {
        let mut ops = Vec::new();
        let name_node = self.declarator_ops(d, &mut ops)?;
        let name = self.t(name_node).to_string();
        let is_typedef = attrs
            .iter()
            .any(|a| matches!(a, Attr::Keyword(k) if k == "typedef"));
        let is_func = matches!(ops.last(), Some(DeclOp::Function(..)));
        let kind = if is_typedef {
            SymbolKind::Type
        } else if is_func {
            SymbolKind::Procedure
        } else {
            SymbolKind::Variable
        };
        let sym = match self.p.scopes[self.scope].names.get(&name).copied() {
            Some(s)
                if kind == SymbolKind::Procedure
                    || self.p.symbols[s].kind == SymbolKind::Procedure =>
            {
                s
            }
            Some(s)
                if attrs
                    .iter()
                    .any(|a| matches!(a, Attr::Keyword(k) if k == "extern")) =>
            {
                s
            }
            Some(_) => {
                let sp = self.sp(name_node);
                self.diags.push(Diagnostic::error(
                    Code::Redeclared,
                    sp,
                    format!("`{name}` is declared twice in this scope"),
                ));
                self.p.symbols.alloc(sym_c(&name, kind, self.scope))
            }
            None => self
                .p
                .add_symbol(self.scope, name.clone(), sym_c(&name, kind, self.scope)),
        };
        let mut ty = Self::type_of(spec, &ops);
        if is_func {
            ty = Self::type_of(spec, &ops[..ops.len() - 1]);
        }
        self.p.symbols[sym].ty = Some(ty);
        for a in attrs {
            if let Attr::Keyword(k) = a {
                if k == "static" {
                    self.p.symbols[sym].attrs.save = true;
                }
            }
        }
        if spec.qualifiers.iter().any(|q| q == "const") && ops.is_empty() {
            self.p.symbols[sym].attrs.constant = true;
        }
        let init = match (d.kind(), d.child_by_field_name("value")) {
            ("init_declarator", Some(v)) => Some(Init::Expr(self.expr(v))),
            _ => None,
        };
        Some(Entity {
            sym,
            dims: None,
            char_len: None,
            derived: ops,
            init,
        })
    }

    fn declaration(&mut self, n: Node) -> Option<VarDecl> {
        let (spec, attrs) = self.decl_spec(n);
        let mut entities = Vec::new();
        for (field, d) in children_with_fields(n) {
            if field == Some("declarator") {
                if let Some(en) = self.entity(d, &spec, &attrs) {
                    entities.push(en);
                }
            }
        }
        Some(VarDecl {
            spec,
            attrs,
            entities,
            double_colon: false,
        })
    }

    // ------------------------------------------------------------------ functions

    fn function(&mut self, n: Node) -> Option<UnitId> {
        let (spec, attrs) = self.decl_spec(n);
        let decl = n.child_by_field_name("declarator")?;
        // Pointers above the function declarator are part of the return type.
        let mut ret_ops = Vec::new();
        let mut d = decl;
        while d.kind() == "pointer_declarator" {
            let quals: Vec<String> = named_children(d)
                .into_iter()
                .filter(|c| c.kind() == "type_qualifier")
                .map(|c| self.t(c).to_string())
                .collect();
            ret_ops.push(DeclOp::Pointer(quals));
            d = d.child_by_field_name("declarator")?;
        }
        if d.kind() != "function_declarator" {
            self.unsupported(d, "this function declarator");
            return None;
        }
        let name_node = d.child_by_field_name("declarator")?;
        if name_node.kind() != "identifier" {
            self.unsupported(
                name_node,
                "a function returning a function pointer without a typedef",
            );
            return None;
        }
        let name = self.t(name_node).to_string();
        let file_scope = self.p.units[self.file_unit].scope;
        let is_void = spec.keyword == "void" && ret_ops.is_empty();
        let kind = if is_void {
            UnitKind::Subroutine
        } else {
            UnitKind::Function
        };
        let fscope = self
            .p
            .scopes
            .alloc(ScopeData::new(ScopeKind::Global, Some(file_scope)));
        let mut ud = UnitData::new(kind, Lang::C, fscope);
        ud.parent = Some(self.file_unit);
        let uid = self.p.units.alloc(ud);
        self.p.scopes[fscope].kind = ScopeKind::Unit(uid);
        let sym = match self.p.scopes[file_scope].names.get(&name).copied() {
            Some(s)
                if self.p.symbols[s].kind == SymbolKind::Procedure
                    && self.p.symbols[s].unit.is_none() =>
            {
                s
            }
            Some(_) => {
                let sp = self.sp(name_node);
                self.diags.push(Diagnostic::error(
                    Code::Redeclared,
                    sp,
                    format!("function `{name}` is defined twice"),
                ));
                self.p
                    .symbols
                    .alloc(sym_c(&name, SymbolKind::Procedure, file_scope))
            }
            None => self.p.add_symbol(
                file_scope,
                name.clone(),
                sym_c(&name, SymbolKind::Procedure, file_scope),
            ),
        };
        self.p.symbols[sym].kind = SymbolKind::Procedure;
        self.p.symbols[sym].unit = Some(uid);
        self.p.symbols[sym].ty = Some(Self::type_of(&spec, &ret_ops));
        let save = (self.unit, self.scope);
        self.unit = uid;
        self.scope = fscope;
        {
            let sp = self.sp(n);
            let u = &mut self.p.units[uid];
            u.name = Some(sym);
            u.header_type = Some(spec.clone());
            u.ret_derived = ret_ops;
            u.source_map.header = Some(sp);
            u.attrs.prefixes = attrs
                .iter()
                .map(|a| match a {
                    Attr::Keyword(k) => k.clone(),
                    _ => String::new(),
                })
                .collect();
            u.directives = std::mem::take(&mut self.pending_dirs);
        }
        if !is_void {
            // The value `return e` produces: a variable of the function's scope under the
            // function's name, not entered in the name table (the name still denotes the
            // function), so analyses see C and Fortran function results alike.
            let mut rd = sym_c(&name, SymbolKind::Variable, fscope);
            rd.ty = self.p.symbols[sym].ty.clone();
            let r = self.p.symbols.alloc(rd);
            self.p.units[uid].result = Some(r);
        }
        // Parameters: symbols in the function scope, in order (VLA bounds may name earlier ones).
        if let Some(pl) = d.child_by_field_name("parameters") {
            let kids = named_children(pl);
            if kids.len() == 1
                && kids[0].kind() == "parameter_declaration"
                && self.t(kids[0]).trim() == "void"
            {
                self.p.units[uid].c_void_params = true;
            } else {
                for p in kids {
                    match p.kind() {
                        "parameter_declaration" => {
                            let (pspec, _) = self.decl_spec(p);
                            let mut ops = Vec::new();
                            let pname = match p.child_by_field_name("declarator") {
                                Some(dd) => self.declarator_ops(dd, &mut ops),
                                None => None,
                            };
                            let Some(pn) = pname else {
                                self.unsupported(
                                    p,
                                    "an unnamed parameter in a function definition",
                                );
                                continue;
                            };
                            let pname = self.t(pn).to_string();
                            let mut sd = sym_c(&pname, SymbolKind::Variable, fscope);
                            sd.attrs.dummy = true;
                            sd.attrs.value = ops.is_empty();
                            sd.ty = Some(Self::type_of(&pspec, &ops));
                            let s = self.p.add_symbol(fscope, pname.clone(), sd);
                            let u = &mut self.p.units[uid];
                            u.params.push(s);
                            u.c_params.push(CParam {
                                spec: pspec,
                                name: Some(pname),
                                derived: ops,
                                dims: vec![],
                            });
                        }
                        "variadic_parameter" => self.p.units[uid].c_variadic = true,
                        "comment" => {}
                        _ => self.unsupported(p, "K&R-style parameter declarations"),
                    }
                }
            }
        }
        if let Some(body) = n.child_by_field_name("body") {
            let b = self.compound_items(body);
            self.p.units[uid].body = b;
        }
        self.unit = save.0;
        self.scope = save.1;
        Some(uid)
    }

    // ------------------------------------------------------------------ statements

    fn push(&mut self, kind: StmtKind, n: Node, label: Option<String>) -> StmtId {
        let sp = self.sp(n);
        let dirs = std::mem::take(&mut self.pending_dirs);
        let u = self.u();
        let id = u.stmts.alloc(Stmt {
            kind,
            label,
            construct_name: None,
            directives: dirs,
        });
        u.source_map.stmt.insert(id, sp);
        id
    }

    /// Statements of a compound statement, without opening a scope (the caller does).
    fn compound_items(&mut self, n: Node) -> Block {
        let mut out = Vec::new();
        for c in named_children(n) {
            self.stmt_into(c, None, &mut out);
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

    fn stmt_into(&mut self, n: Node, label: Option<String>, out: &mut Block) {
        match n.kind() {
            "comment" => {
                let t = self.t(n).to_string();
                match parse_directive(&t) {
                    Some(d) => self.pending_dirs.push(d),
                    None => {
                        let s = self.push(StmtKind::Comment(t), n, None);
                        out.push(s);
                    }
                }
            }
            "case_statement" => {
                let value = n.child_by_field_name("value").map(|v| self.expr(v));
                let s = self.push(StmtKind::CaseLabel(value), n, label);
                out.push(s);
                let vnode = n.child_by_field_name("value");
                for c in named_children(n) {
                    if Some(c) == vnode {
                        continue;
                    }
                    self.stmt_into(c, None, out);
                }
            }
            "labeled_statement" => {
                let l = n
                    .child_by_field_name("label")
                    .map(|x| self.t(x).to_string());
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
            _ => {
                if let Some(s) = self.stmt(n, label) {
                    out.push(s);
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
            "declaration" => StmtKind::Decl(Decl::Var(self.declaration(n)?)),
            "type_definition" => StmtKind::Decl(Decl::Var(self.declaration(n)?)),
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
                    let cond = self.paren(cur.child_by_field_name("condition")?);
                    let b = self.body(cur.child_by_field_name("consequence")?);
                    arms.push((cond, b));
                    match cur.child_by_field_name("alternative") {
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
                let init = match n.child_by_field_name("initializer") {
                    Some(i) if i.kind() == "declaration" => {
                        let v = self.declaration(i)?;
                        Some(self.push(StmtKind::Decl(Decl::Var(v)), i, None))
                    }
                    Some(i) => {
                        let k = self.expr_stmt(i);
                        Some(self.push(k, i, None))
                    }
                    None => None,
                };
                let cond = n.child_by_field_name("condition").map(|c| self.expr(c));
                let step = n.child_by_field_name("update").map(|c| self.expr(c));
                let body = self.body(n.child_by_field_name("body")?);
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
                let cond = self.paren(n.child_by_field_name("condition")?);
                let body = self.body(n.child_by_field_name("body")?);
                StmtKind::While {
                    cond,
                    body,
                    term_label: None,
                }
            }
            "do_statement" => {
                let body = self.body(n.child_by_field_name("body")?);
                let cond = self.paren(n.child_by_field_name("condition")?);
                StmtKind::DoWhile { body, cond }
            }
            "switch_statement" => {
                let expr = self.paren(n.child_by_field_name("condition")?);
                let body = self.body(n.child_by_field_name("body")?);
                StmtKind::Switch { expr, body }
            }
            "break_statement" => StmtKind::Break,
            "continue_statement" => StmtKind::CContinue,
            "goto_statement" => StmtKind::Goto(self.t(n.child_by_field_name("label")?).to_string()),
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
                StmtKind::Decl(Decl::Var(VarDecl {
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
                    .child_by_field_name("operator")
                    .map(|o| self.t(o).to_string())
                    .unwrap_or_default();
                let (Some(l), Some(r)) = (
                    e.child_by_field_name("left"),
                    e.child_by_field_name("right"),
                ) else {
                    return StmtKind::Expr(self.opaque(e));
                };
                let lhs = self.expr(l);
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

    // ------------------------------------------------------------------ expressions

    fn alloc(&mut self, e: Expr, n: Node) -> ExprId {
        let sp = self.sp(n);
        let u = self.u();
        let id = u.exprs.alloc(e);
        u.source_map.expr.insert(id, sp);
        id
    }

    fn opaque(&mut self, n: Node) -> ExprId {
        let t = self.t(n).to_string();
        self.alloc(Expr::Opaque(t), n)
    }

    fn cast_mark(&self, e: ExprId) -> Option<String> {
        match &self.p.units[self.unit].exprs[e] {
            Expr::Opaque(t) => t.strip_prefix(CAST_MARK).map(|s| s.to_string()),
            _ => None,
        }
    }

    fn typedef_cparam(&mut self, name: &str) -> CParam {
        let mut ts = TypeSpec {
            class: BaseClass::Opaque,
            keyword: name.to_string(),
            name: None,
            kind: KindSel::Default,
            char_len: None,
            bytes: None,
            qualifiers: vec![],
            inline_def: None,
        };
        if let Some(s) = self.p.lookup(self.scope, name) {
            if let Some(t) = &self.p.symbols[s].ty {
                ts.class = t.base;
                ts.bytes = t.bytes;
            }
        }
        cparam_empty(ts)
    }

    /// A cast mark that no operand consumed is a typedef name used as a value (`x = real;`):
    /// report it rather than let the marker reach the IL's users.
    fn report_unused_cast_marks(&mut self) {
        let file_unit = self.file_unit;
        let units: Vec<UnitId> = self
            .p
            .units
            .iter()
            .filter(|(id, u)| *id == file_unit || u.parent == Some(file_unit))
            .map(|(id, _)| id)
            .collect();
        for uid in units {
            let u = &mut self.p.units[uid];
            let mut found = Vec::new();
            for (eid, e) in u.exprs.iter() {
                if let Expr::Opaque(t) = e {
                    if let Some(name) = t
                        .strip_prefix(CAST_MARK)
                        .or_else(|| t.strip_prefix(BARE_TYPE_MARK))
                    {
                        found.push((eid, name.to_string()));
                    }
                }
            }
            for (eid, name) in found {
                let sp = u.source_map.expr.get(eid).copied().unwrap_or_default();
                u.exprs[eid] = Expr::Opaque(name.clone());
                self.diags.push(Diagnostic::error(
                    Code::Syntax,
                    sp,
                    format!("`{name}` is a type name, used here as a value"),
                ));
            }
        }
    }

    /// The right-most pending `(T)` cast mark in `e`, if any.
    fn cast_slot(&self, e: ExprId) -> Option<ExprId> {
        match &self.p.units[self.unit].exprs[e] {
            Expr::Opaque(t) if t.starts_with(CAST_MARK) => Some(e),
            Expr::Paren(x)
            | Expr::Cast { arg: x, .. }
            | Expr::Unary { arg: x, .. }
            | Expr::Binary { rhs: x, .. } => self.cast_slot(*x),
            _ => None,
        }
    }

    /// Turns the pending cast mark at the right end of `l` into a cast of `inner`.
    fn fill_cast(&mut self, l: ExprId, inner: ExprId) -> Option<ExprId> {
        let slot = self.cast_slot(l)?;
        let name = self.cast_mark(slot)?;
        let ty = self.typedef_cparam(&name);
        self.u().exprs[slot] = Expr::Cast { ty, arg: inner };
        Some(l)
    }

    /// Applies a pending `(T)` cast mark at the right end of `l` to `op r`.
    fn attach_cast(&mut self, l: ExprId, op: UnOp, r: ExprId, n: Node) -> Option<ExprId> {
        self.cast_slot(l)?;
        let un = self.alloc(Expr::Unary { op, arg: r }, n);
        self.fill_cast(l, un)
    }

    fn name(&mut self, n: Node, as_callee: bool) -> ExprId {
        let name = self.t(n).to_string();
        if let Some(s) = self.p.lookup(self.scope, &name) {
            if self.p.symbols[s].kind == SymbolKind::Type {
                // A typedef name in expression position: the type of a cast that
                // tree-sitter read as a call argument, `(real)(index_t)(x)`.
                return self.alloc(Expr::Opaque(format!("{BARE_TYPE_MARK}{name}")), n);
            }
            return self.alloc(Expr::Name(s), n);
        }
        if self.macros.contains(&name)
            || name
                .chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
            || HEADER_NAMES.contains(&name.as_str())
        {
            return self.alloc(Expr::Opaque(name), n);
        }
        if as_callee || C_LIBRARY.contains(&name.as_str()) {
            // A library function (math.h, stdio.h): one symbol for the program.
            let g = self.global;
            let key = format!("c:{name}");
            let s = match self.p.scopes[g].names.get(&key) {
                Some(&s) => s,
                None => self
                    .p
                    .add_symbol(g, key, sym_c(&name, SymbolKind::Intrinsic, g)),
            };
            return self.alloc(Expr::Name(s), n);
        }
        let sp = self.sp(n);
        self.diags.push(Diagnostic::error(
            Code::Undeclared,
            sp,
            format!("`{name}` is not declared"),
        ));
        self.alloc(Expr::Opaque(name), n)
    }

    fn type_descriptor(&mut self, td: Node) -> CParam {
        let (spec, _) = self.decl_spec(td);
        let mut ops = Vec::new();
        if let Some(d) = td.child_by_field_name("declarator") {
            self.declarator_ops(d, &mut ops);
        }
        CParam {
            spec,
            name: None,
            derived: ops,
            dims: vec![],
        }
    }

    fn expr(&mut self, n: Node) -> ExprId {
        match n.kind() {
            "identifier" => self.name(n, false),
            "number_literal" => {
                // tree-sitter-c sometimes folds a sign into the literal (`(T)-5`): keep the
                // sign as an operator so both readings give the same IL.
                let t = self.t(n);
                let (negative, digits) = match t.strip_prefix('-') {
                    Some(rest) => (true, rest.trim()),
                    None => (false, t),
                };
                let lit = Literal {
                    kind: c_number_kind(digits),
                    text: digits.to_string(),
                };
                let lit = self.alloc(Expr::Literal(lit), n);
                if negative {
                    self.alloc(
                        Expr::Unary {
                            op: UnOp::Neg,
                            arg: lit,
                        },
                        n,
                    )
                } else {
                    lit
                }
            }
            "string_literal" | "concatenated_string" | "raw_string_literal" => {
                let t = if n.kind() == "concatenated_string" {
                    named_children(n)
                        .into_iter()
                        .map(|c| self.t(c).to_string())
                        .collect::<Vec<_>>()
                        .join(" ")
                } else {
                    self.t(n).to_string()
                };
                self.alloc(
                    Expr::Literal(Literal {
                        kind: LitKind::Str,
                        text: t,
                    }),
                    n,
                )
            }
            "char_literal" => {
                let t = self.t(n).to_string();
                self.alloc(
                    Expr::Literal(Literal {
                        kind: LitKind::Char,
                        text: t,
                    }),
                    n,
                )
            }
            "true" | "false" => {
                let t = self.t(n).to_string();
                self.alloc(
                    Expr::Literal(Literal {
                        kind: LitKind::Logical,
                        text: t,
                    }),
                    n,
                )
            }
            "null" => self.alloc(Expr::Opaque("NULL".into()), n),
            "parenthesized_expression" => {
                let inner: Vec<Node> = named_children(n)
                    .into_iter()
                    .filter(|c| c.kind() != "comment")
                    .collect();
                if let [one] = inner.as_slice() {
                    if one.kind() == "identifier" && self.is_typedef_name(self.t(*one)) {
                        let t = format!("{CAST_MARK}{}", self.t(*one));
                        return self.alloc(Expr::Opaque(t), n);
                    }
                    let e = self.expr(*one);
                    return self.alloc(Expr::Paren(e), n);
                }
                self.opaque(n)
            }
            "binary_expression" => {
                let op_t = n
                    .child_by_field_name("operator")
                    .map(|o| self.t(o).to_string())
                    .unwrap_or_default();
                let (Some(l), Some(r)) = (
                    n.child_by_field_name("left"),
                    n.child_by_field_name("right"),
                ) else {
                    return self.opaque(n);
                };
                let lhs = self.expr(l);
                let rhs = self.expr(r);
                let unary = match op_t.as_str() {
                    "-" => Some(UnOp::Neg),
                    "+" => Some(UnOp::Plus),
                    "*" => Some(UnOp::Deref),
                    "&" => Some(UnOp::AddrOf),
                    _ => None,
                };
                if let Some(u) = unary {
                    if let Some(e) = self.attach_cast(lhs, u, rhs, n) {
                        return e;
                    }
                }
                let op = match op_t.as_str() {
                    "+" => BinOp::Add,
                    "-" => BinOp::Sub,
                    "*" => BinOp::Mul,
                    "/" => BinOp::Div,
                    "%" => BinOp::Rem,
                    "==" => BinOp::Eq(RelSpell::Symbol),
                    "!=" => BinOp::Ne(RelSpell::Symbol),
                    "<" => BinOp::Lt(RelSpell::Symbol),
                    "<=" => BinOp::Le(RelSpell::Symbol),
                    ">" => BinOp::Gt(RelSpell::Symbol),
                    ">=" => BinOp::Ge(RelSpell::Symbol),
                    "&&" => BinOp::And,
                    "||" => BinOp::Or,
                    "&" => BinOp::BitAnd,
                    "|" => BinOp::BitOr,
                    "^" => BinOp::BitXor,
                    "<<" => BinOp::Shl,
                    ">>" => BinOp::Shr,
                    _ => return self.opaque(n),
                };
                self.alloc(Expr::Binary { op, lhs, rhs }, n)
            }
            "unary_expression" | "pointer_expression" => {
                let op_t = n
                    .child_by_field_name("operator")
                    .map(|o| self.t(o).to_string())
                    .unwrap_or_default();
                let Some(a) = n.child_by_field_name("argument") else {
                    return self.opaque(n);
                };
                let arg = self.expr(a);
                let op = match op_t.as_str() {
                    "-" => UnOp::Neg,
                    "+" => UnOp::Plus,
                    "!" => UnOp::Not,
                    "~" => UnOp::BitNot,
                    "*" => UnOp::Deref,
                    "&" => UnOp::AddrOf,
                    _ => return self.opaque(n),
                };
                self.alloc(Expr::Unary { op, arg }, n)
            }
            "update_expression" => {
                let Some(a) = n.child_by_field_name("argument") else {
                    return self.opaque(n);
                };
                let op_node = n.child_by_field_name("operator");
                let inc = op_node.is_some_and(|o| self.t(o) == "++");
                let prefix = op_node.is_some_and(|o| o.start_byte() < a.start_byte());
                let arg = self.expr(a);
                self.alloc(Expr::IncDec { inc, prefix, arg }, n)
            }
            "assignment_expression" => {
                let op = n
                    .child_by_field_name("operator")
                    .map(|o| self.t(o).to_string())
                    .unwrap_or_default();
                let (Some(l), Some(r)) = (
                    n.child_by_field_name("left"),
                    n.child_by_field_name("right"),
                ) else {
                    return self.opaque(n);
                };
                let lhs = self.expr(l);
                let rhs = self.expr(r);
                self.alloc(
                    Expr::Assign {
                        op: compound_op(&op),
                        lhs,
                        rhs,
                    },
                    n,
                )
            }
            "call_expression" => {
                let Some(f) = n.child_by_field_name("function") else {
                    return self.opaque(n);
                };
                let al = n.child_by_field_name("arguments");
                let args: Vec<Arg> = match al {
                    Some(al) => named_children(al)
                        .into_iter()
                        .filter(|c| c.kind() != "comment")
                        .map(|c| Arg {
                            keyword: None,
                            value: self.expr(c),
                        })
                        .collect(),
                    None => vec![],
                };
                // `(T)(x)`: a cast that tree-sitter read as a call.
                if f.kind() != "identifier" && args.len() == 1 {
                    let fe = self.expr(f);
                    if self.cast_slot(fe).is_some() {
                        // `(real)(index_t)`: the bare type name is the type of a cast.
                        let a = args[0].value;
                        if let Expr::Opaque(t) = &self.p.units[self.unit].exprs[a] {
                            if let Some(name) = t.strip_prefix(BARE_TYPE_MARK) {
                                let mark = format!("{CAST_MARK}{name}");
                                self.u().exprs[a] = Expr::Opaque(mark);
                            }
                        }
                        let arg = self.alloc(Expr::Paren(args[0].value), n);
                        if let Some(e) = self.fill_cast(fe, arg) {
                            return e;
                        }
                    }
                    return self.alloc(Expr::Call { callee: fe, args }, n);
                }
                let callee = if f.kind() == "identifier" {
                    self.name(f, true)
                } else {
                    self.expr(f)
                };
                self.alloc(Expr::Call { callee, args }, n)
            }
            "subscript_expression" => {
                let (Some(a), Some(i)) = (
                    n.child_by_field_name("argument"),
                    n.child_by_field_name("index"),
                ) else {
                    return self.opaque(n);
                };
                let base = self.expr(a);
                let idx = self.expr(i);
                self.alloc(
                    Expr::Index {
                        base,
                        subs: vec![Subscript::Index(idx)],
                    },
                    n,
                )
            }
            "field_expression" => {
                let (Some(a), Some(f)) = (
                    n.child_by_field_name("argument"),
                    n.child_by_field_name("field"),
                ) else {
                    return self.opaque(n);
                };
                let arrow = n
                    .child_by_field_name("operator")
                    .is_some_and(|o| self.t(o) == "->");
                let base = self.expr(a);
                let field = self.t(f).to_string();
                self.alloc(Expr::Field { base, field, arrow }, n)
            }
            "cast_expression" => {
                let (Some(t), Some(v)) = (
                    n.child_by_field_name("type"),
                    n.child_by_field_name("value"),
                ) else {
                    return self.opaque(n);
                };
                let ty = self.type_descriptor(t);
                let arg = self.expr(v);
                self.alloc(Expr::Cast { ty, arg }, n)
            }
            "sizeof_expression" => {
                if let Some(t) = n.child_by_field_name("type") {
                    let ty = self.type_descriptor(t);
                    return self.alloc(Expr::SizeofType(ty), n);
                }
                let Some(v) = n.child_by_field_name("value") else {
                    return self.opaque(n);
                };
                // `sizeof(real)` with a typedef name parses as a parenthesized identifier.
                if v.kind() == "parenthesized_expression" {
                    let inner: Vec<Node> = named_children(v)
                        .into_iter()
                        .filter(|c| c.kind() != "comment")
                        .collect();
                    if let [one] = inner.as_slice() {
                        if one.kind() == "identifier" && self.is_typedef_name(self.t(*one)) {
                            let ty = self.typedef_cparam(self.t(*one));
                            return self.alloc(Expr::SizeofType(ty), n);
                        }
                    }
                }
                let arg = self.expr(v);
                self.alloc(
                    Expr::Unary {
                        op: UnOp::Sizeof,
                        arg,
                    },
                    n,
                )
            }
            "conditional_expression" => {
                let (Some(c), Some(a), Some(b)) = (
                    n.child_by_field_name("condition"),
                    n.child_by_field_name("consequence"),
                    n.child_by_field_name("alternative"),
                ) else {
                    return self.opaque(n);
                };
                let cond = self.expr(c);
                let then = self.expr(a);
                let else_ = self.expr(b);
                self.alloc(Expr::Cond { cond, then, else_ }, n)
            }
            "comma_expression" => {
                let mut items = Vec::new();
                let mut cur = n;
                while let (Some(l), Some(r)) = (
                    cur.child_by_field_name("left"),
                    cur.child_by_field_name("right"),
                ) {
                    items.push(self.expr(l));
                    if r.kind() == "comma_expression" {
                        cur = r;
                    } else {
                        items.push(self.expr(r));
                        break;
                    }
                }
                self.alloc(Expr::Comma(items), n)
            }
            "initializer_list" => {
                let items = named_children(n)
                    .into_iter()
                    .filter(|c| c.kind() != "comment")
                    .map(|c| self.expr(c))
                    .collect();
                self.alloc(
                    Expr::ArrayCtor {
                        items,
                        old_style: false,
                        type_spec: None,
                    },
                    n,
                )
            }
            "initializer_pair" => {
                let mut designators = Vec::new();
                for (field, c) in children_with_fields(n) {
                    if field == Some("designator") {
                        designators.push(self.t(c).split_whitespace().collect::<String>());
                    }
                }
                let Some(v) = n.child_by_field_name("value") else {
                    return self.opaque(n);
                };
                let value = self.expr(v);
                self.alloc(Expr::Designated { designators, value }, n)
            }
            "compound_literal_expression" => {
                let (Some(t), Some(v)) = (
                    n.child_by_field_name("type"),
                    n.child_by_field_name("value"),
                ) else {
                    return self.opaque(n);
                };
                let ty = self.type_descriptor(t);
                let init = self.expr(v);
                self.alloc(Expr::CompoundLit { ty, init }, n)
            }
            "ERROR" => self.opaque(n),
            other => {
                self.unsupported(n, &format!("expression `{other}`"));
                self.opaque(n)
            }
        }
    }
}

fn compound_op(op: &str) -> Option<BinOp> {
    Some(match op {
        "+=" => BinOp::Add,
        "-=" => BinOp::Sub,
        "*=" => BinOp::Mul,
        "/=" => BinOp::Div,
        "%=" => BinOp::Rem,
        "&=" => BinOp::BitAnd,
        "|=" => BinOp::BitOr,
        "^=" => BinOp::BitXor,
        "<<=" => BinOp::Shl,
        ">>=" => BinOp::Shr,
        _ => return None,
    })
}

/// Integer or real, from a C number's spelling (`0x1F`, `1e-3f`, `2.`).
fn c_number_kind(text: &str) -> LitKind {
    let lower = text.to_ascii_lowercase();
    let is_hex = lower.starts_with("0x");
    if !is_hex && (lower.contains('.') || lower.contains('e') || lower.ends_with('f')) {
        LitKind::Real
    } else {
        LitKind::Int
    }
}

fn primitive_class(kw: &str) -> (BaseClass, Option<u32>) {
    let words: Vec<&str> = kw.split_whitespace().collect();
    if words.contains(&"double") {
        return (
            BaseClass::Real,
            Some(if words.contains(&"long") { 16 } else { 8 }),
        );
    }
    if words.contains(&"float") {
        return (BaseClass::Real, Some(4));
    }
    if words.contains(&"void") {
        return (BaseClass::Void, None);
    }
    if words.contains(&"_Bool") || words.contains(&"bool") {
        return (BaseClass::Logical, Some(1));
    }
    if words.contains(&"char") {
        return (BaseClass::Integer, Some(1));
    }
    let longs = words.iter().filter(|w| **w == "long").count();
    let bytes = if words.contains(&"short") {
        2
    } else if longs >= 1 || words.iter().any(|w| w.ends_with("_t")) {
        8
    } else {
        4
    };
    (BaseClass::Integer, Some(bytes))
}

fn sym_c(name: &str, kind: SymbolKind, scope: ScopeId) -> SymbolData {
    crate::fortran::sym_data(name, kind, scope)
}
