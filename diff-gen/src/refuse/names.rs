//! The names an expression reads, and which of them are integers: what the refusals ask
//! of an expression.

use radtap_il::visit::expr_children;
use radtap_il::*;

/// The variables an expression names, leaving out the procedures it calls.
pub(crate) fn data_names_in(u: &UnitData, e: ExprId) -> Vec<SymbolId> {
    match &u.exprs[e] {
        Expr::Name(s) => vec![*s],
        Expr::Call { args, .. } => args
            .iter()
            .flat_map(|a| data_names_in(u, a.value))
            .collect(),
        x => {
            let mut kids = Vec::new();
            expr_children(x, &mut |c| kids.push(c));
            kids.into_iter().flat_map(|c| data_names_in(u, c)).collect()
        }
    }
}

/// The variables an expression names.
pub(crate) fn names_in(u: &UnitData, e: ExprId) -> Vec<SymbolId> {
    let mut out = Vec::new();
    if let Expr::Name(s) = &u.exprs[e] {
        out.push(*s);
    }
    let mut kids = Vec::new();
    expr_children(&u.exprs[e], &mut |c| kids.push(c));
    for c in kids {
        out.extend(names_in(u, c));
    }
    out
}

/// Integer, logical and character variables, and names that are not variables (the callee of
/// a call, a named constant), carry no derivative.
pub(crate) fn integer_like(prog: &Program, s: SymbolId) -> bool {
    let sd = &prog.symbols[s];
    if sd.kind != SymbolKind::Variable || sd.attrs.constant {
        return true;
    }
    sd.ty.as_ref().is_some_and(|t| {
        matches!(
            t.base,
            BaseClass::Integer | BaseClass::Logical | BaseClass::Character
        )
    })
}
