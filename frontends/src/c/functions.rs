//! Function definitions: one unit per function, with its return type, its result
//! variable, and its parameters in the function's scope, then its body.

use super::lower::*;
use crate::ts::named_children;
use crate::ts::Field;
use radtap_il::*;
use tree_sitter::Node;

impl<'a, 's> CLower<'a, 's> {
    pub(super) fn function(&mut self, n: Node) -> Option<UnitId> {
        let (spec, attrs) = self.decl_spec(n);
        let decl = n.field("declarator")?;
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
            d = d.field("declarator")?;
        }
        if d.kind() != "function_declarator" {
            self.unsupported(d, "this function declarator");
            return None;
        }
        let name_node = d.field("declarator")?;
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
        self.p.symbols[sym].ty = Some(self.typed(&spec, &ret_ops, n));
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
        if let Some(pl) = d.field("parameters") {
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
                            let pname = match p.field("declarator") {
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
                            super::decls::pointer_to_arrays_as_array(&mut ops);
                            let pname = self.t(pn).to_string();
                            let mut sd = sym_c(&pname, SymbolKind::Variable, fscope);
                            sd.attrs.dummy = true;
                            let ty = self.typed(&pspec, &ops, p);
                            // By value: a scalar (an array, also one named by a typedef,
                            // is passed by its address).
                            sd.attrs.value = ty.dims.is_empty() && ty.pointers == 0;
                            sd.ty = Some(ty);
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
        if let Some(body) = n.field("body") {
            let b = self.compound_items(body);
            self.p.units[uid].body = b;
        }
        self.unit = save.0;
        self.scope = save.1;
        Some(uid)
    }
}
