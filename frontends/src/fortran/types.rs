//! Type specifications: intrinsic and derived type specs with their kind and character-length
//! selectors, the evaluation of constant kinds (`kind(1.0d0)`, `selected_real_kind(p)`, named
//! constants), and derived-type definitions.

use super::lower::*;
use crate::ts::Field;
use crate::ts::{children_with_fields, named_children};
use radtap_il::*;
use tree_sitter::Node;

impl<'a, 't> FortranLowering<'a, 't> {
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
                let name = c.field("name").map(|x| key(self.t(x))).unwrap_or_default();
                let Some(v) = c.field("value") else {
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
    pub(super) fn const_int(&self, e: ExprId) -> Option<i64> {
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

    pub(super) fn lower_derived_type(&mut self, c: Node<'t>) -> Option<TypeDefId> {
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
                        fields.push(Decl::var(d));
                    }
                    self.p.scopes[tscope].parent = None;
                }
                "sequence_statement" => {
                    self.p.typedefs[td].sequence = true;
                    fields.push(Decl::Verbatim("sequence".into()));
                }
                "comment" => fields.push(Decl::Comment(self.t(x).to_string())),
                "private_statement" => fields.push(Decl::Verbatim("private".into())),
                // Type-bound procedures (`contains`, `procedure :: area`, `generic ::`,
                // `final ::`) are written back as declared; derivative types hold components
                // only. A call through a binding names no procedure radtap resolves: with
                // active arguments it is refused at the call.
                "derived_type_procedures" => {
                    for b in named_children(x) {
                        if b.kind() == "comment" {
                            fields.push(Decl::Comment(self.t(b).to_string()));
                        } else {
                            fields.push(Decl::Verbatim(normalize_ws(self.t(b))));
                        }
                    }
                }
                _ => {}
            }
        }
        self.cur_scope = Some(outer);
        self.p.typedefs[td].fields = fields;
        Some(td)
    }
}

impl<'t> TypeSpecs<'t> for FortranLowering<'_, 't> {
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
}
