//! Declarations and types: declaration specifiers and type specs (primitive types, typedef
//! names, struct/union/enum and their bodies), declarators and the entities they declare,
//! and the type names of casts and `sizeof`.

use super::lower::*;
use crate::ts::Field;
use crate::ts::{children_with_fields, named_children};
use radtap_il::*;
use tree_sitter::Node;

impl<'a, 's> CLower<'a, 's> {
    /// Type spec of a declaration: qualifiers, storage classes and the `type` field.
    pub(super) fn decl_spec(&mut self, n: Node) -> (TypeSpec, Vec<Attr>) {
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

    pub(super) fn type_spec_node(&mut self, t: Node, qualifiers: Vec<String>) -> TypeSpec {
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
                let name = t.field("name").map(|n| self.t(n).to_string());
                ts.name = name.clone();
                let tag_key = name.as_ref().map(|n| format!("{kw} {n}"));
                if let Some(body) = t.field("body") {
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
                let Some(nn) = e.field("name") else {
                    continue;
                };
                let name = self.t(nn).to_string();
                let value = e.field("value").map(|v| self.expr(v));
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
                        fields.push(Decl::var(VarDecl {
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
    pub(super) fn declarator_ops<'n>(
        &mut self,
        mut d: Node<'n>,
        ops: &mut Vec<DeclOp>,
    ) -> Option<Node<'n>> {
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
                    d = d.field("declarator")?;
                }
                "array_declarator" | "abstract_array_declarator" => {
                    let size = d.field("size").map(|s| self.expr(s));
                    let has_static = children_with_fields(d)
                        .iter()
                        .any(|(_, c)| self.t(*c) == "static" || c.kind() == "type_qualifier");
                    if has_static {
                        self.unsupported(d, "`static`/qualifiers inside array brackets");
                    }
                    ops.push(DeclOp::Array(size));
                    match d.field("declarator") {
                        Some(x) => d = x,
                        None => return None,
                    }
                }
                "function_declarator" | "abstract_function_declarator" => {
                    let (params, variadic) = match d.field("parameters") {
                        Some(pl) => self.param_list(pl),
                        None => (vec![], false),
                    };
                    ops.push(DeclOp::Function(params, variadic));
                    match d.field("declarator") {
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
                    d = d.field("declarator")?;
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
        let outer = std::mem::take(&mut self.proto_params);
        for p in named_children(pl) {
            match p.kind() {
                "parameter_declaration" => {
                    let (spec, _) = self.decl_spec(p);
                    let mut ops = Vec::new();
                    let name = match p.field("declarator") {
                        Some(d) => self
                            .declarator_ops(d, &mut ops)
                            .map(|n| self.t(n).to_string()),
                        None => None,
                    };
                    if let Some(n) = &name {
                        self.proto_params.push(n.clone());
                    }
                    pointer_to_arrays_as_array(&mut ops);
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
        self.proto_params = outer;
        (out, variadic)
    }

    /// [`Self::type_of`] with the shape of a typedef name in `spec` put in: `vec4 u` with
    /// `typedef double vec4[4]` is `double u[4]`, `vec4 m[10]` is `double m[10][4]`, `dptr p`
    /// with `typedef double *dptr` is `double *p` (they were taken for scalars: a `vec4`
    /// parameter was a `double` by value, and its derivative was lost).
    pub(super) fn typed(&mut self, spec: &TypeSpec, ops: &[DeclOp], at: Node) -> Type {
        let mut ty = Self::type_of(spec, ops);
        let named = (spec.name.is_none() && spec.inline_def.is_none())
            .then(|| self.p.lookup(self.scope, &spec.keyword))
            .flatten()
            .filter(|&s| self.p.symbols[s].kind == SymbolKind::Type);
        let Some(s) = named else { return ty };
        let Some(t) = self.p.symbols[s].ty.clone() else {
            return ty;
        };
        if !t.dims.is_empty() && ty.pointers > 0 {
            // `vec4 *p`: a pointer to arrays, which the types here cannot tell from an array
            // of pointers.
            self.unsupported(
                at,
                &format!(
                    "a pointer to the array type `{}` (`T (*p)[n]`)",
                    spec.keyword
                ),
            );
            return ty;
        }
        // The typedef's extents are expressions of the unit that declared it: copied here.
        let owner = self
            .p
            .unit_of_scope(self.p.symbols[s].scope)
            .unwrap_or(self.file_unit);
        for d in t.dims {
            let lower = d.lower.map(|e| self.copy_expr(owner, e));
            let upper = match d.upper {
                DimUpper::Expr(e) => DimUpper::Expr(self.copy_expr(owner, e)),
                u => u,
            };
            // The declarator's extents come first: `vec4 m[10]` is `m[10][4]`.
            ty.dims.push(Dim { lower, upper });
        }
        ty.pointers += t.pointers;
        ty
    }

    /// Expression `e` of unit `from`, copied into the current unit (the same node when it is
    /// the current unit).
    fn copy_expr(&mut self, from: UnitId, e: ExprId) -> ExprId {
        if from == self.unit {
            return e;
        }
        let mut node = self.p.units[from].exprs[e].clone();
        radtap_il::copy::expr_slots(&mut node, &mut |slot| *slot = self.copy_expr(from, *slot));
        self.p.units[self.unit].exprs.alloc(node)
    }

    pub(super) fn type_of(spec: &TypeSpec, ops: &[DeclOp]) -> Type {
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
            // A file-scope variable declared again (tentative definitions: `static int n;`
            // twice is one variable).
            Some(s)
                if kind == SymbolKind::Variable
                    && self.p.symbols[s].kind == SymbolKind::Variable
                    && self.scope == self.p.units[self.file_unit].scope =>
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
        let mut ty = self.typed(spec, &ops, d);
        if is_func {
            ty = self.typed(spec, &ops[..ops.len() - 1], d);
        }
        self.p.symbols[sym].ty = Some(ty);
        for a in attrs {
            if let Attr::Keyword(k) = a {
                if k == "static" {
                    self.p.symbols[sym].attrs.save = true;
                }
            }
        }
        if spec.qualifiers.iter().any(|q| q == "const")
            && !ops.iter().any(|o| matches!(o, DeclOp::Pointer(_)))
        {
            self.p.symbols[sym].attrs.constant = true;
        }
        let init = match (d.kind(), d.field("value")) {
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

    pub(super) fn declaration(&mut self, n: Node) -> Option<VarDecl> {
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

/// A parameter declared as a pointer to arrays (`double (*g)[2]`) is the array `double
/// g[][2]` (C11 6.7.6.3): its declarator is written so (it was taken for an array of
/// pointers, and the data behind it carried no derivative).
pub(super) fn pointer_to_arrays_as_array(ops: &mut [DeclOp]) {
    let n = ops.len();
    if n >= 2
        && matches!(&ops[n - 1], DeclOp::Pointer(q) if q.is_empty())
        && matches!(ops[n - 2], DeclOp::Array(_))
    {
        ops[n - 1] = DeclOp::Array(None);
    }
}

impl Types for CLower<'_, '_> {
    fn is_typedef_name(&self, name: &str) -> bool {
        self.p
            .lookup(self.scope, name)
            .is_some_and(|s| self.p.symbols[s].kind == SymbolKind::Type)
    }

    fn type_descriptor(&mut self, td: Node) -> CParam {
        let (spec, _) = self.decl_spec(td);
        let mut ops = Vec::new();
        if let Some(d) = td.field("declarator") {
            self.declarator_ops(d, &mut ops);
        }
        CParam {
            spec,
            name: None,
            derived: ops,
            dims: vec![],
        }
    }
}
