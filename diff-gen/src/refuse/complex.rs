//! Complex values no mode differentiates yet: transfers between complex and real storage,
//! complex intrinsics without a rule, complex head variables and components.

use super::names::*;
use radtap_dataflow::ProgramInfo;
use radtap_il::visit::{expr_children, stmt_children};
use radtap_il::*;

/// The intrinsics of `COMPLEX_INTRINSICS` whose result is complex (the others, `aimag`,
/// `cabs`, ..., take a complex value apart into a real one).
pub(crate) const COMPLEX_RESULT_INTRINSICS: &[&str] = &[
    "cmplx", "dcmplx", "complex", "conjg", "dconjg", "conj", "cexp", "clog", "csqrt", "cpow",
];

/// Intrinsics that make, take apart or transform complex values.
pub(crate) const COMPLEX_INTRINSICS: &[&str] = &[
    "cmplx", "dcmplx", "complex", "conjg", "dconjg", "aimag", "dimag", "imag", "imagpart",
    "realpart", "creal", "cimag", "conj", "cabs", "carg", "cexp", "clog", "csqrt", "cpow",
];

/// Whether the expressions of a simple statement (not those of nested statements) hold a
/// `transfer(source, mold)` whose source names a variable that may carry a derivative.
pub(crate) fn point_transfers_real(prog: &Program, u: &UnitData, k: &StmtKind) -> bool {
    let mut exprs = Vec::new();
    stmt_children(k, &mut |e| exprs.push(e), &mut |_| {});
    exprs.into_iter().any(|e| expr_transfers_real(prog, u, e))
}

pub(crate) fn expr_transfers_real(prog: &Program, u: &UnitData, e: ExprId) -> bool {
    if let Expr::Call { callee, args } = &u.exprs[e] {
        let name = match &u.exprs[*callee] {
            Expr::Name(s) => prog.symbols[*s].spelling.to_ascii_lowercase(),
            Expr::Opaque(s) => s.to_ascii_lowercase(),
            Expr::Intrinsic(r) => r.spelling.to_string(),
            _ => String::new(),
        };
        if name == "transfer"
            && args
                .first()
                .is_some_and(|a| names_in(u, a.value).iter().any(|&n| !integer_like(prog, n)))
        {
            return true;
        }
    }
    let mut kids = Vec::new();
    expr_children(&u.exprs[e], &mut |c| kids.push(c));
    kids.into_iter().any(|c| expr_transfers_real(prog, u, c))
}

/// Whether the expressions of a simple statement (not those of nested statements) involve a
/// complex variable, literal or intrinsic.
pub(crate) fn point_is_complex(
    prog: &Program,
    u: &UnitData,
    k: &StmtKind,
    carries: &dyn Fn(SymbolId) -> bool,
) -> bool {
    let mut exprs = Vec::new();
    stmt_children(k, &mut |e| exprs.push(e), &mut |_| {});
    exprs
        .into_iter()
        .any(|e| mentions_complex(prog, u, e) && active_complex(prog, u, e, carries))
}

/// Whether anything in `e` is complex at all (a complex name or literal, a call of a complex
/// intrinsic or of one with a complex result): one iterative walk, so that the per-node
/// search of [`active_complex`] (quadratic in the size of the expression) only runs on the
/// rare expressions that need it (a sum of 20,000 terms took 40 s).
pub(crate) fn mentions_complex(prog: &Program, u: &UnitData, e: ExprId) -> bool {
    let mut todo = vec![e];
    while let Some(x) = todo.pop() {
        match &u.exprs[x] {
            Expr::Name(s) if is_complex_sym(prog, *s) => return true,
            Expr::Literal(l) if l.kind == LitKind::Complex => return true,
            Expr::Call { callee, .. } => {
                let name = match &u.exprs[*callee] {
                    Expr::Name(s) => prog.symbols[*s].spelling.to_ascii_lowercase(),
                    Expr::Opaque(s) => s.to_ascii_lowercase(),
                    Expr::Intrinsic(r) => r.spelling.to_string(),
                    _ => String::new(),
                };
                if COMPLEX_RESULT_INTRINSICS.contains(&name.as_str())
                    || COMPLEX_INTRINSICS.contains(&name.as_str())
                    || matches!(&u.exprs[*callee], Expr::Name(s) if is_complex_sym(prog, *s))
                {
                    return true;
                }
            }
            _ => {}
        }
        expr_children(&u.exprs[x], &mut |c| todo.push(c));
    }
    false
}

/// Whether `e` holds a complex value (or a complex intrinsic) that reads a variable that may
/// carry a derivative.
pub(crate) fn active_complex(
    prog: &Program,
    u: &UnitData,
    e: ExprId,
    carries: &dyn Fn(SymbolId) -> bool,
) -> bool {
    if (complex_valued(prog, u, e) || complex_intrinsic(prog, u, e))
        && data_names_in(u, e).into_iter().any(carries)
    {
        return true;
    }
    let mut kids = Vec::new();
    expr_children(&u.exprs[e], &mut |c| kids.push(c));
    kids.into_iter()
        .any(|c| active_complex(prog, u, c, carries))
}

pub(crate) fn is_complex_sym(prog: &Program, s: SymbolId) -> bool {
    prog.symbols[s]
        .ty
        .as_ref()
        .is_some_and(|t| t.base == BaseClass::Complex)
}

pub(crate) fn complex_intrinsic(prog: &Program, u: &UnitData, e: ExprId) -> bool {
    let Expr::Call { callee, .. } = &u.exprs[e] else {
        return false;
    };
    let name = match &u.exprs[*callee] {
        Expr::Name(s) => prog.symbols[*s].spelling.to_ascii_lowercase(),
        Expr::Opaque(s) => s.to_ascii_lowercase(),
        Expr::Intrinsic(r) => r.spelling.to_string(),
        _ => String::new(),
    };
    COMPLEX_INTRINSICS.contains(&name.as_str())
}

/// Whether an expression is (or, for the conservative cases, may be) complex-valued: a
/// complex variable, element or literal, a complex intrinsic or function, an operation
/// with a complex operand, a component of a record holding complex data.
pub(crate) fn complex_valued(prog: &Program, u: &UnitData, e: ExprId) -> bool {
    match &u.exprs[e] {
        Expr::Name(s) => is_complex_sym(prog, *s),
        Expr::Literal(l) => l.kind == LitKind::Complex,
        Expr::Index { base, .. } => complex_valued(prog, u, *base),
        Expr::Call { callee, .. } => {
            let name = match &u.exprs[*callee] {
                Expr::Name(s) => prog.symbols[*s].spelling.to_ascii_lowercase(),
                Expr::Opaque(s) => s.to_ascii_lowercase(),
                Expr::Intrinsic(r) => r.spelling.to_string(),
                _ => String::new(),
            };
            COMPLEX_RESULT_INTRINSICS.contains(&name.as_str())
                || matches!(&u.exprs[*callee], Expr::Name(s) if is_complex_sym(prog, *s))
        }
        Expr::Binary { .. } | Expr::Unary { .. } | Expr::Paren(_) => {
            let mut kids = Vec::new();
            expr_children(&u.exprs[e], &mut |c| kids.push(c));
            kids.into_iter().any(|c| complex_valued(prog, u, c))
        }
        // Anything else (components, conditionals, ...): complex if it names complex data.
        _ => names_in(u, e).into_iter().any(|s| is_complex_sym(prog, s)),
    }
}

/// AD020 for each complex variable of a head that is an independent or a dependent: the
/// validation and test harnesses give real seeds and read real derivatives, so a complex
/// head argument's derivative would be half proven. Complex intermediates, locals, module
/// variables, dummies of called procedures and function results are differentiated.
pub(crate) fn complex_head_variables(prog: &Program, info: &ProgramInfo) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for h in &info.heads {
        let Some(pi) = info.procs.get(&h.head) else {
            continue;
        };
        let span = prog.units[h.head].source_map.header.unwrap_or_default();
        for (s, sym) in prog.symbols.iter() {
            if !is_complex_sym(prog, s) {
                continue;
            }
            let Some(z) = pi.zones.sym_zones(s) else {
                continue;
            };
            let listed = h
                .independents
                .iter()
                .chain(h.dependents.iter())
                .any(|(_, zs)| zs.intersects(&z));
            if listed {
                out.push(Diagnostic::error(
                    Code::Unsupported,
                    span,
                    format!(
                        "the complex variable `{}` as an independent or dependent of the head is not supported yet (complex intermediates are): pass its real and imaginary parts as real arguments",
                        sym.spelling
                    ),
                ));
            }
        }
    }
    out
}

/// The first component reference `r%c` of statement `k` whose component is complex (not the
/// `%re`/`%im` of a complex value), found through the record type of `r` where its
/// declaration says it, else by the component's name in any derived type.
pub(crate) fn complex_component_in(prog: &Program, u: &UnitData, k: &StmtKind) -> Option<String> {
    let ty_complex = |s: SymbolId| {
        prog.symbols[s]
            .ty
            .as_ref()
            .is_some_and(|t| t.base == BaseClass::Complex)
    };
    let member = |td: TypeDefId, field: &str| {
        prog.typedefs[td].fields.iter().find_map(|d| match d {
            Decl::Var(v) => v
                .entities
                .iter()
                .find(|x| prog.symbols[x.sym].spelling.eq_ignore_ascii_case(field))
                .map(|x| x.sym),
            _ => None,
        })
    };
    // The record type of a reference (`s`, `a(i)`, `s%inner`), when known.
    fn record_of(
        prog: &Program,
        u: &UnitData,
        e: ExprId,
        member: &dyn Fn(TypeDefId, &str) -> Option<SymbolId>,
    ) -> Option<TypeDefId> {
        let ty = |s: SymbolId| match prog.symbols[s].ty.as_ref()?.base {
            BaseClass::Record(td) => Some(td),
            _ => None,
        };
        match &u.exprs[e] {
            Expr::Name(s) => ty(*s),
            Expr::Index { base, .. } | Expr::Paren(base) => record_of(prog, u, *base, member),
            Expr::Field { base, field, .. } => {
                ty(member(record_of(prog, u, *base, member)?, field)?)
            }
            _ => None,
        }
    }
    let mut exprs = Vec::new();
    stmt_children(k, &mut |e| exprs.push(e), &mut |_| {});
    let mut todo = exprs;
    while let Some(e) = todo.pop() {
        if let Expr::Field { base, field, .. } = &u.exprs[e] {
            let complex = match record_of(prog, u, *base, &member) {
                Some(td) => member(td, field).is_some_and(ty_complex),
                None => {
                    !complex_valued(prog, u, *base)
                        && prog
                            .typedefs
                            .iter()
                            .any(|(td, _)| member(td, field).is_some_and(ty_complex))
                }
            };
            if complex {
                return Some(field.clone());
            }
        }
        expr_children(&u.exprs[e], &mut |c| todo.push(c));
    }
    None
}
