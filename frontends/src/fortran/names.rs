//! Name resolution in expressions: names, callees, the array-reference-or-call decision for
//! a `call_expression`, and argument and subscript lists.

use super::lower::*;
use crate::ts::named_children;
use crate::ts::Field;
use radtap_il::vocab::is_fortran_intrinsic;
use radtap_il::*;
use tree_sitter::Node;

impl<'a, 't> FortranLowering<'a, 't> {
    pub(super) fn args(&mut self, al: Node<'t>) -> Vec<Arg> {
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

    pub(super) fn keyword_arg(&mut self, c: Node<'t>) -> Arg {
        let keyword = c.field("name").map(|k| self.t(k).to_string());
        let value = match c.field("value") {
            Some(v) if v.kind() == "assumed_size" => self.alloc_expr(Expr::Opaque("*".into()), v),
            Some(v) => self.expr(v),
            None => self.opaque(c),
        };
        Arg { keyword, value }
    }

    pub(super) fn subscripts(&mut self, al: Node<'t>) -> Vec<Subscript> {
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
    pub(super) fn callee(&mut self, n: Node<'t>, is_call_stmt: bool) -> ExprId {
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
                    // An intrinsic's name declared with a type (`DOUBLE PRECISION DSQRT`)
                    // is still the intrinsic unless declared EXTERNAL: gfortran calls the
                    // intrinsic `erf` even where the program defines a function `ERF`.
                    sd.kind = if sd.attrs.dummy {
                        SymbolKind::Procedure
                    } else if is_fortran_intrinsic(&k) && !sd.attrs.external {
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

    pub(super) fn name_expr(&mut self, n: Node<'t>) -> ExprId {
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

    pub(super) fn call_expr(&mut self, n: Node<'t>) -> ExprId {
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
