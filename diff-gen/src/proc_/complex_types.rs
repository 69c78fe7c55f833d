//! Which expressions, symbols and types are complex: questions on the primal program alone.

use radtap_il::vocab;
use radtap_il::*;

/// Whether intrinsic `name` (lower case) has the property `f` of its record in the vocabulary
/// ([`radtap_il::vocab`]): `HOLO` (holomorphic on complex arguments, the record's partials
/// valid there: they are the real ones written over complex values), `KEEPS` (complex when
/// its first argument is), `CPLX` (complex whatever its arguments), `REAL` (real, integer or
/// logical whatever its arguments).
pub(crate) fn intrinsic_is(name: &str, f: u32) -> bool {
    radtap_il::vocab::is(name, Lang::Fortran, f)
}

/// Whether `e` of `exprs` is (or may be) complex-valued; `sym_complex` tells whether a
/// variable is complex, `routine_of` which record a callee names. Conservative: an unknown call with a complex argument is complex.
pub(crate) fn complex_expr(
    exprs: &Arena<Expr>,
    e: ExprId,
    sym_complex: &dyn Fn(SymbolId) -> bool,
    routine_of: &dyn Fn(ExprId) -> Option<vocab::RoutineId>,
) -> bool {
    match &exprs[e] {
        Expr::Name(s) => sym_complex(*s),
        Expr::Literal(l) => l.kind == LitKind::Complex,
        Expr::Index { base, .. } | Expr::Field { base, .. } => {
            complex_expr(exprs, *base, sym_complex, routine_of)
        }
        Expr::Paren(a) | Expr::Unary { arg: a, .. } => {
            complex_expr(exprs, *a, sym_complex, routine_of)
        }
        Expr::Binary { op, lhs, rhs } => {
            matches!(
                op,
                BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Pow
            ) && (complex_expr(exprs, *lhs, sym_complex, routine_of)
                || complex_expr(exprs, *rhs, sym_complex, routine_of))
        }
        Expr::Cond { then, else_, .. } => {
            complex_expr(exprs, *then, sym_complex, routine_of)
                || complex_expr(exprs, *else_, sym_complex, routine_of)
        }
        Expr::Call { callee, args } => {
            let routine = routine_of(*callee).map(|r| r.routine());
            if routine.is_some_and(|r| r.has(vocab::CPLX)) {
                return true;
            }
            if routine.is_some_and(|r| r.has(vocab::REAL)) {
                return false;
            }
            // A function of the program with a complex result.
            if let Expr::Name(s) = &exprs[*callee] {
                if !routine.is_some_and(|r| r.has(vocab::KEEPS)) && sym_complex(*s) {
                    return true;
                }
            }
            args.iter()
                .any(|a| complex_expr(exprs, a.value, sym_complex, routine_of))
        }
        Expr::ArrayCtor { items, .. } => items
            .iter()
            .any(|&i| complex_expr(exprs, i, sym_complex, routine_of)),
        _ => false,
    }
}

pub(crate) fn ty_complex(t: Option<&Type>) -> bool {
    t.is_some_and(|t| t.base == BaseClass::Complex)
}

/// Whether symbol `s` of `syms` is a complex variable or a function of `prog` with a
/// complex result (`syms` is the primal program's table or the output's, which extends it).
pub(crate) fn sym_complex(prog: &Program, syms: &Arena<SymbolData>, s: SymbolId) -> bool {
    let sd = &syms[s];
    ty_complex(sd.ty.as_ref())
        || (s.index() < prog.symbols.len()
            && prog.symbols[s]
                .unit
                .and_then(|u| prog.units[u].result)
                .is_some_and(|r| ty_complex(prog.symbols[r].ty.as_ref())))
}
