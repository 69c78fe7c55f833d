//! Type declaration statements and the symbols they declare: entities and their dimensions,
//! attributes, initial values, DATA, COMMON, and attribute statements (DIMENSION, SAVE, ...).

use super::lower::*;
use crate::ts::Field;
use crate::ts::{children_with_fields, named_children};
use radtap_il::*;
use tree_sitter::Node;

impl<'a, 't> FortranLowering<'a, 't> {
    pub(super) fn declare_name(&mut self, n: Node) -> SymbolId {
        let scope = self.scope();
        self.get_or_create(scope, n, SymbolKind::Variable)
    }

    pub(super) fn lower_var_decl(&mut self, c: Node<'t>) -> Option<VarDecl> {
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
    pub(super) fn colon_segments(&self, n: Node<'t>) -> (Vec<Option<Node<'t>>>, usize) {
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
                let left = d.field("left")?;
                let right = d.field("right")?;
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

    pub(super) fn lower_data(&mut self, c: Node<'t>) -> Decl {
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

    pub(super) fn lower_common(&mut self, c: Node<'t>) -> Decl {
        let mut blocks: Vec<(Option<SymbolId>, Vec<Entity>)> = Vec::new();
        let scope = self.scope();
        let add = |this: &mut Self,
                   blk: Option<SymbolId>,
                   d: Node<'t>,
                   blocks: &mut Vec<(Option<SymbolId>, Vec<Entity>)>| {
            if let Some(en) = this.lower_entity(d) {
                if let Some(dims) = &en.dims {
                    let ty = this.p.symbols[en.sym].ty.clone();
                    // An implicitly typed member dimensioned here has its implicit type
                    // (it was Opaque: the adjoint could not record it).
                    let implicit = ty.is_none();
                    let mut t = ty
                        .or_else(|| {
                            let spelling = this.p.symbols[en.sym].spelling.clone();
                            this.implicit_type(this.scope(), &spelling)
                        })
                        .unwrap_or(Type {
                            base: BaseClass::Opaque,
                            bytes: None,
                            dims: vec![],
                            pointers: 0,
                        });
                    t.dims = dims.clone();
                    this.p.symbols[en.sym].ty = Some(t);
                    if implicit {
                        this.p.symbols[en.sym].implicit_type = true;
                    }
                }
                // Blank COMMON has a block symbol too (spelled ``, keyed `//`), so every
                // member of every COMMON is known as one by its symbol.
                let block = match blk {
                    Some(b) => b,
                    None => this.common_symbol("", scope),
                };
                this.p.symbols[en.sym].common = Some(block);
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

    /// `procedure(iface) [, optional | intent(in)] :: f, g`: dummy (or external) procedures
    /// with an explicit interface. They are procedures as if declared EXTERNAL (a call
    /// through a dummy is resolved to the actual procedure where the caller's actual is
    /// known), written back as declared. Procedure pointers and initialised procedure
    /// entities are refused.
    pub(super) fn lower_procedure_decl(&mut self, c: Node<'t>) -> Option<Decl> {
        let mut keyword = String::new();
        let mut items = Vec::new();
        let mut double_colon = false;
        // A refused declaration still declares its names (no cascade of AD030 after it).
        let mut refused = false;
        for (field, ch) in children_with_fields(c) {
            match field {
                Some("type") => {
                    keyword = normalize_ws(self.t(ch));
                    for a in named_children(ch) {
                        if a.kind() == "procedure_attribute"
                            && self.t(a).trim().eq_ignore_ascii_case("pointer")
                        {
                            self.unsupported(a, "procedure pointers");
                            refused = true;
                        }
                    }
                }
                Some("attribute") => {
                    let a = normalize_ws(&self.t(ch).to_ascii_lowercase());
                    if a == "pointer" && !refused {
                        self.unsupported(ch, "procedure pointers");
                        refused = true;
                    }
                    keyword.push_str(", ");
                    keyword.push_str(&a);
                }
                Some("declarator") => {
                    let id = if ch.kind() == "identifier" {
                        Some(ch)
                    } else {
                        if !refused {
                            self.unsupported(ch, "this procedure declaration");
                            refused = true;
                        }
                        named_children(ch)
                            .into_iter()
                            .find(|x| x.kind() == "identifier")
                    };
                    let Some(id) = id else { continue };
                    let sym = self.declare_name(id);
                    let optional = keyword.to_ascii_lowercase().contains("optional");
                    let sd = &mut self.p.symbols[sym];
                    sd.attrs.external = true;
                    sd.kind = SymbolKind::Procedure;
                    if optional {
                        sd.attrs.optional = true;
                    }
                    items.push(AttrItem {
                        sym,
                        dims: None,
                        common: false,
                    });
                }
                _ if self.t(ch) == "::" => double_colon = true,
                _ => {}
            }
        }
        if refused {
            return None;
        }
        Some(Decl::Attr(AttrStmt {
            keyword,
            double_colon,
            items,
        }))
    }

    pub(super) fn lower_attr_stmt(&mut self, c: Node<'t>) -> Decl {
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

    pub(super) fn lower_simple_attr(&mut self, c: Node<'t>) -> Decl {
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
