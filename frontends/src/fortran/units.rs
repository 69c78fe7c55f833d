//! Pass 1: program units. Creates each unit and its scope, registers program, module and
//! procedure names, lowers the header (dummies, result, prefixes) and checks END names.

use super::lower::*;
use crate::ts::Field;
use crate::ts::{children_with_fields, named_children};
use radtap_il::*;
use tree_sitter::Node;

impl<'a, 't> FortranLowering<'a, 't> {
    pub(super) fn declare_unit(
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
                .field("name")
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
                                Some(mut d) => {
                                    d.span = Some(self.sp(c));
                                    dirs.push(d)
                                }
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

    /// The header's kind (`real(dp) function f`) resolved again once the host's declarations
    /// are lowered: when the header was first read `dp` was unknown, the result was taken for
    /// a default real (and validate took the program for single precision). The names of the
    /// kind expression are looked up again and its bytes evaluated; the expressions stay
    /// where they are (generated units copy them). Called by the specification pass.
    pub(super) fn relower_header_type(&mut self, uid: UnitId) {
        let Some(mut ts) = self.p.units[uid].header_type.clone() else {
            return;
        };
        let (KindSel::Paren(e) | KindSel::Keyword(e)) = ts.kind else {
            return;
        };
        if ts.bytes.is_some() {
            return;
        }
        let scope = self.p.units[uid].scope;
        let mut todo = vec![e];
        while let Some(x) = todo.pop() {
            if let Expr::Name(s) = self.p.units[uid].exprs[x] {
                let k = key(&self.p.symbols[s].spelling);
                if let Some(found) = self.p.lookup(scope, &k).filter(|&f| f != s) {
                    self.p.units[uid].exprs[x] = Expr::Name(found);
                }
            }
            visit::expr_children(&self.p.units[uid].exprs[x], &mut |c| todo.push(c));
        }
        ts.bytes = self.const_int(e).map(|k| {
            if ts.class == BaseClass::Complex {
                2 * k as u32
            } else {
                k as u32
            }
        });
        if let Some(r) = self.p.units[uid].result {
            let dims = self.p.symbols[r]
                .ty
                .as_ref()
                .map(|t| t.dims.clone())
                .unwrap_or_default();
            self.p.symbols[r].ty = Some(type_of_spec(&ts, &dims));
        }
        self.p.units[uid].header_type = Some(ts);
    }

    pub(super) fn lower_header(&mut self, uid: UnitId, h: Node<'t>, scope: ScopeId) {
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
                    // The dummies (`character(len=n) function f(n)`) are the unit's own.
                    let mut known: Vec<String> =
                        self.p.scopes[scope].names.keys().cloned().collect();
                    if let Some(ps) = h.field("parameters") {
                        known.extend(named_children(ps).into_iter().map(|pn| key(self.t(pn))));
                    }
                    let ts = self.lower_type_spec(c);
                    // A kind named before the host declares it (`real(dp) function f` in a
                    // module whose `dp` is lowered later): provisional, the type is lowered
                    // again with the unit's specification part (`relower_header_type`).
                    self.p.scopes[scope].names.retain(|k, _| known.contains(k));
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
            if let Some(nn) = h.field("name") {
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
}
