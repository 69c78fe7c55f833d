//! Casts through typedef names that tree-sitter-c reads as calls (`(real)(x)`): the
//! placeholder marks left for `(T)`, filled once the operand is known, and reported when no
//! operand takes them. Casts among operators (`(real) - y`) are decided in `operators.rs`.

use super::lower::*;
use radtap_il::*;

impl<'a, 's> CLower<'a, 's> {
    fn cast_mark(&self, e: ExprId) -> Option<String> {
        match &self.p.units[self.unit].exprs[e] {
            Expr::Opaque(t) => t.strip_prefix(CAST_MARK).map(|s| s.to_string()),
            _ => None,
        }
    }

    pub(super) fn typedef_cparam(&mut self, name: &str) -> CParam {
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
    pub(super) fn report_unused_cast_marks(&mut self) {
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
    pub(super) fn cast_slot(&self, e: ExprId) -> Option<ExprId> {
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
    pub(super) fn fill_cast(&mut self, l: ExprId, inner: ExprId) -> Option<ExprId> {
        let slot = self.cast_slot(l)?;
        let name = self.cast_mark(slot)?;
        let ty = self.typedef_cparam(&name);
        self.u().exprs[slot] = Expr::Cast {
            ty: Box::new(ty),
            arg: inner,
        };
        Some(l)
    }
}

fn cparam_empty(spec: TypeSpec) -> CParam {
    CParam {
        spec,
        name: None,
        derived: vec![],
        dims: vec![],
    }
}
