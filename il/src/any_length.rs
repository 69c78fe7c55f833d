//! F66 "any length" array dummies. Codes written before FORTRAN 77's assumed size (EISPACK,
//! old LINPACK, FFTPACK, many netlib helpers) declare an array argument of any length with a
//! last extent of 1: `DOUBLE PRECISION X(1)`, `A(LDA, 1)`. Taken at its word, the adjoint
//! recorded, restored and zeroed one element (`pushreal8array(x, size(x))`, `xb = 0.0_8`)
//! where the callee used `N`: silently wrong. Such a dummy is what `X(*)` says, and is
//! treated as one (its records then need `-size`, as any assumed-size array's do). Fixed form
//! only: in free-form code `x(1)` is one element.

use crate::ir::*;

/// Gives every array dummy of a fixed-form Fortran procedure whose last dimension is `1` (or
/// `1:1`) an assumed size (in free form, F90 and later, `x(1)` is one element).
pub fn any_length_dummies(prog: &mut Program) {
    for id in prog.units_with_body(Lang::Fortran) {
        let u = &prog.units[id];
        let fixed = u
            .source_map
            .header
            .and_then(|sp| prog.files.get(sp.file as usize))
            .is_some_and(|f| f.form == SourceForm::Fixed);
        if !fixed {
            continue;
        }
        let one = |e: ExprId| matches!(&u.exprs[e], Expr::Literal(l) if l.kind == LitKind::Int && l.text == "1");
        let hits: Vec<SymbolId> = u
            .params
            .iter()
            .copied()
            .filter(|&p| {
                prog.symbols[p]
                    .ty
                    .as_ref()
                    .and_then(|t| t.dims.last())
                    .is_some_and(|d| {
                        matches!(d.upper, DimUpper::Expr(e) if one(e)) && d.lower.is_none_or(one)
                    })
            })
            .collect();
        for p in hits {
            if let Some(d) = prog.symbols[p].ty.as_mut().and_then(|t| t.dims.last_mut()) {
                d.upper = DimUpper::Assumed;
            }
        }
    }
}
